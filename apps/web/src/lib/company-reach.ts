import { parseWebsite, phoneHref } from '@portal/contract/links';
import type { TLegalIdentity } from '@portal/contract/visual-config';

export type CompanyReach = {
  /** The general mailbox, else the privacy one ('' when neither is set). */
  email: string;
  phone: { text: string; href: string } | null;
  /** The website's address, only when it is an https address (checked again here). */
  website: string | null;
  hours: string;
};

/**
 * How a customer reaches the organisation (review #17 and #18), from its legal identity: what the
 * company dialog and the contact page show. A telephone or website that would not make a safe link
 * is left out, whatever the server sent.
 */
export function companyReach(legal: TLegalIdentity): CompanyReach {
  const tel = phoneHref(legal.phone);
  return {
    email: legal.contact_email || legal.privacy_email,
    phone: tel ? { text: legal.phone.trim(), href: tel } : null,
    website: parseWebsite(legal.website),
    hours: legal.opening_hours.trim(),
  };
}

/** The website as people read it: without the scheme and a lone trailing slash. */
export const websiteLabel = (href: string): string =>
  href.replace(/^https:\/\//, '').replace(/\/$/, '');
