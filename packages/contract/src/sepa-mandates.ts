import { z } from 'zod';
import { pageQueryFields } from './admin-paging.ts';
import { FieldError } from './errors.ts';
import { languages } from './languages.ts';
import type { TRouteDef } from './routes.ts';

// ---- SEPA Core direct-debit mandates (issue 23, item 6) ----

/** The letters of ISO 7064 mod 97-10 as numbers (A = 10 ... Z = 35), digits as they are. */
const toDigits = (value: string): string =>
  [...value].map((c) => (/[A-Z]/.test(c) ? String(c.charCodeAt(0) - 55) : c)).join('');

/** The remainder of a long decimal string divided by 97, nine digits at a time. */
function mod97(digits: string): number {
  let rest = 0;
  for (let i = 0; i < digits.length; i += 7) {
    rest = Number(`${rest}${digits.slice(i, i + 7)}`) % 97;
  }
  return rest;
}

/** A creditor identifier's shape: country, check digits, business code, national identifier. */
const creditorIdPattern = /^([A-Z]{2})(\d{2})([A-Z0-9]{3})([A-Z0-9]{1,28})$/;

/** Spaces dropped and upper case: how a creditor identifier is stored and compared. */
export const normalizeSepaCreditorId = (value: string): string =>
  value.replace(/\s+/g, '').toUpperCase();

/**
 * The check digits of a SEPA creditor identifier (EPC262-08): ISO 7064 mod 97-10 over the national
 * identifier followed by the country code and "00"; the business code (ZZZ) does not count.
 */
export function sepaCreditorCheckDigits(country: string, nationalId: string): string {
  const rest = mod97(toDigits(`${nationalId}${country}00`.toUpperCase()));
  return String(98 - rest).padStart(2, '0');
}

/** A SEPA creditor identifier (e.g. ES11ZZZB12345674) with the right check digits. */
export function isSepaCreditorId(value: string): boolean {
  const match = creditorIdPattern.exec(normalizeSepaCreditorId(value));
  if (!match) return false;
  const [, country = '', check = '', , nationalId = ''] = match;
  return sepaCreditorCheckDigits(country, nationalId) === check;
}

/**
 * A mandate reference: at most 35 characters of the SEPA character set (EPC217-08), unique per
 * creditor (the tenant).
 */
export const sepaMandateReferencePattern = /^[A-Za-z0-9/?:().,'+ -]{1,35}$/;

export const ZSepaMandateStatus = z.enum(['active', 'replaced', 'revoked']);
export type TSepaMandateStatus = z.infer<typeof ZSepaMandateStatus>;

/** Who collects: the tenant's legal name and address and its SEPA creditor identifier. */
export const ZSepaCreditor = z.object({
  name: z.string(),
  address: z.string(),
  identifier: z.string(),
});
export type TSepaCreditor = z.infer<typeof ZSepaCreditor>;

/** A mandate of the signed-in customer, as the payment methods screen lists it. */
export const ZSepaMandate = z.object({
  id: z.string(),
  reference: z.string(),
  status: ZSepaMandateStatus,
  debtor_name: z.string(),
  /** Grouped in fours for reading (ES91 2100 ...). */
  iban: z.string(),
  /** The bank account it was signed for (null once that account is deleted). */
  payment_method_id: z.string().nullable(),
  signed_at: z.string(),
  /** The mandate that took this one's place, when replaced. */
  replaced_by_reference: z.string().nullable(),
});
export type TSepaMandate = z.infer<typeof ZSepaMandate>;

export const ZSepaMandatesResponse = z.object({
  /** Null when the tenant has no creditor identifier: no mandate can be signed in the portal. */
  creditor: ZSepaCreditor.nullable(),
  /** Newest first. */
  mandates: z.array(ZSepaMandate),
});
export type TSepaMandatesResponse = z.infer<typeof ZSepaMandatesResponse>;

export const ZSepaMandateParams = z.object({ id: z.string().min(1).max(64) });

export const ZSepaMandatePdfRequest = z.object({
  /** Language of the PDF; the language the mandate was signed in when absent. */
  language: z.enum(languages).optional(),
});
export const ZSepaMandatePdfResponse = z.object({ url: z.string() });

/** The customer's acceptance, sent with the bank account it is for (`POST /payment-methods/bank-account`). */
export const ZSepaMandateAcceptance = {
  /** Must be true where the tenant collects by direct debit (it has a creditor identifier). */
  mandate_accepted: z.boolean(FieldError.invalidType).optional(),
  /** The language the mandate's text was shown in (kept with the signature). */
  mandate_language: z.enum(languages).optional(),
};

// ---- The provider's read side (API key) ----

const exampleMandate = {
  id: '4f7c1a2e-9b3d-4e8f-a1c2-7d6e5f4a3b21',
  reference: 'M-20261126-8F3A1C9E2B7D',
  status: 'active' as const,
  customer_code: 'C-000789',
  creditor_id: 'ES11ZZZB12345674',
  debtor_name: 'Laura García Martín',
  debtor_nif: '12345678Z',
  iban: 'ES9121000418450200051332',
  payment_type: 'recurrent' as const,
  language: 'es' as const,
  signed_at: '2026-11-26T10:15:00.000Z',
  signer_ip: '203.0.113.7',
  user_agent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X)',
  replaces_reference: 'M-20250301-1A2B3C4D5E6F',
  replaced_by_reference: null,
  ended_at: null,
};

export const ZAdminSepaMandate = z.object({
  id: z.string(),
  reference: z.string(),
  status: ZSepaMandateStatus,
  customer_code: z.string(),
  creditor_id: z.string(),
  debtor_name: z.string(),
  debtor_nif: z.string(),
  /** Electronic format, no spaces. */
  iban: z.string(),
  /** SEPA Core, recurrent ("pago recurrente"). */
  payment_type: z.literal('recurrent'),
  language: z.enum(languages),
  signed_at: z.string(),
  /** The evidence of the signature: the address and browser it was accepted from. */
  signer_ip: z.string(),
  user_agent: z.string(),
  /** The mandate this one replaced (the customer's previous active one), if any. */
  replaces_reference: z.string().nullable(),
  replaced_by_reference: z.string().nullable(),
  /** When it stopped being active (replaced or revoked). */
  ended_at: z.string().nullable(),
});
export type TAdminSepaMandate = z.infer<typeof ZAdminSepaMandate>;

export const ZAdminSepaMandatesQuery = z.object({
  ...pageQueryFields('Mandates', exampleMandate.id),
  status: ZSepaMandateStatus.optional().meta({ description: 'Only mandates in this state' }),
});
export type TAdminSepaMandatesQuery = z.input<typeof ZAdminSepaMandatesQuery>;

export const ZAdminSepaMandatesResponse = z
  .object({
    /** Newest signature first. */
    mandates: z.array(ZAdminSepaMandate),
    next_cursor: z.string().nullable(),
  })
  .meta({ examples: [{ mandates: [exampleMandate], next_cursor: null }] });
export type TAdminSepaMandatesResponse = z.infer<typeof ZAdminSepaMandatesResponse>;

export const sepaMandateAdminRoutes = {
  listSepaMandates: {
    method: 'GET',
    path: '/admin/mandates',
    auth: 'apiKey',
    summary:
      'SEPA direct-debit mandates customers signed in the portal, newest first (what the `mandate.signed` webhook tells)',
    querystring: ZAdminSepaMandatesQuery,
    response: ZAdminSepaMandatesResponse,
  },
} as const satisfies Record<string, TRouteDef>;
