import { z } from 'zod';
import { ZAmount } from './common.ts';

/**
 * Returned direct debits (issue 23, item 4). The SEPA R-transaction reason codes (ISO 20022
 * ExternalReturnReason1Code) a bank gives when a direct debit comes back, the ones the web app
 * words for the customer; a code not listed is a well-formed code shown with a generic reason.
 */
export const returnReasonCodes = [
  'AC01',
  'AC04',
  'AC06',
  'AG01',
  'AG02',
  'AM04',
  'AM05',
  'BE05',
  'FF01',
  'MD01',
  'MD02',
  'MD06',
  'MD07',
  'MS02',
  'MS03',
  'RC01',
  'RR01',
  'RR02',
  'RR03',
  'RR04',
  'SL01',
] as const;
export type TReturnReasonCode = (typeof returnReasonCodes)[number];

/** Four capital letters or digits: the form of every ISO 20022 external code. */
export const returnReasonPattern = /^[A-Z0-9]{4}$/;

/** The largest bank fee accepted (1,000 EUR): banks charge a few euros per return. */
export const returnFeeMaxCents = 100_000;

export const isKnownReturnReason = (code: string): code is TReturnReasonCode =>
  (returnReasonCodes as readonly string[]).includes(code);

/**
 * What the customer is told of an instalment whose direct debit came back, served with the
 * instalment while it is `returned` (unpaid): the bank's return date (`yyyymmdd`), its reason code
 * (the web app words it), the bank's fee, and whether paying the instalment now also pays the fee
 * (the tenant's setting).
 */
export const ZReturnedDebit = z.object({
  return_date: z.string(),
  reason_code: z.string(),
  fee: ZAmount,
  fee_charged: z.boolean(),
});
export type TReturnedDebit = z.infer<typeof ZReturnedDebit>;
