import type { VisualConfig } from '@/lib/visual-config';

/** What the legal pages say about the company, with the fall-backs a half-filled tenant needs. */
export type LegalFacts = {
  /** The brand, as the rest of the portal names it. */
  company: string;
  /** The registered name; the brand when the tenant has none. */
  legalName: string;
  taxId: string;
  address: string;
  /** The general mailbox (security questions, contact); the privacy one when it is missing. */
  contactEmail: string;
  /** Where data-protection requests go; the general mailbox when it is missing. */
  privacyEmail: string;
  /** The data protection officer, '' when the tenant has none. */
  dpoEmail: string;
};

export function getLegalFacts({ companyName, legal }: VisualConfig): LegalFacts {
  return {
    company: companyName,
    legalName: legal.name || companyName,
    taxId: legal.tax_id,
    address: legal.address,
    contactEmail: legal.contact_email || legal.privacy_email,
    privacyEmail: legal.privacy_email || legal.contact_email,
    dpoEmail: legal.dpo_email,
  };
}
