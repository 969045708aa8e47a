import { z } from 'zod';
import { FieldError } from './errors.ts';
import { optionalText, requiredLine } from './texts.ts';
import { isSpanishTaxId } from './tax-id.ts';

/**
 * Fiscal data changes (issue 23, item 1): the name or company name the invoices are made out to,
 * the tax id (NIF, NIE or CIF) and the fiscal address are the organisation's to check. The customer
 * asks for a change from the profile; the organisation approves it (the new values are written to
 * the customer) or rejects it with a reason through the integration API. One request waits per
 * customer: asking again while one waits is refused (`fiscal_request_pending`), the customer
 * withdraws the waiting one first. docs/ingestion.md and docs/webhooks.md describe the provider's side.
 */

/** Longest comment of the customer, and longest reason of the organisation. */
export const fiscalNoteMax = 500;

/** The fiscal data of the profile's fiscal card (spec §3 "User info"), as the customer asks for it. */
export const ZFiscalData = z.strictObject({
  /** The name or company name the invoices are made out to. */
  invoice_name: requiredLine(200),
  nif: requiredLine(20).refine(isSpanishTaxId, FieldError.invalidNif),
  address: requiredLine(300),
  city: requiredLine(100),
  country: requiredLine(100),
});
export type TFiscalData = z.infer<typeof ZFiscalData>;
export const fiscalDataFields = Object.keys(ZFiscalData.shape) as (keyof TFiscalData)[];

export const ZFiscalDataChangeRequest = ZFiscalData.extend({
  /** What the customer wants the organisation to know (optional). */
  comment: optionalText(fiscalNoteMax).optional(),
});
export type TFiscalDataChangeRequest = z.input<typeof ZFiscalDataChangeRequest>;

/** Stored values as they are served (checked when they were asked for). */
export const ZFiscalValues = z.object({
  invoice_name: z.string(),
  nif: z.string(),
  address: z.string(),
  city: z.string(),
  country: z.string(),
});

export const ZFiscalRequestStatus = z.enum(
  ['pending', 'approved', 'rejected', 'withdrawn'],
  FieldError.invalidValue,
);
export type TFiscalRequestStatus = z.infer<typeof ZFiscalRequestStatus>;

/** One request as the customer sees it. */
export const ZFiscalDataRequest = z.object({
  id: z.string(),
  status: ZFiscalRequestStatus,
  requested: ZFiscalValues,
  comment: z.string(),
  /** The organisation's reason when it rejected the request; empty otherwise. */
  reason: z.string(),
  created_at: z.iso.datetime(),
  /** When it was approved, rejected or withdrawn; null while it waits. */
  closed_at: z.iso.datetime().nullable(),
});
export type TFiscalDataRequest = z.infer<typeof ZFiscalDataRequest>;

/** How long the profile shows the outcome of the last request unless the customer hides it. */
export const fiscalDecisionShownDays = 30;

/** What the profile shows: the waiting request, and the outcome of the last decided one. */
export const ZFiscalDataRequests = z.object({
  pending: ZFiscalDataRequest.nullable(),
  /** The last approved or rejected request, for `fiscalDecisionShownDays` or until hidden. */
  last_decision: ZFiscalDataRequest.nullable(),
});
export type TFiscalDataRequests = z.infer<typeof ZFiscalDataRequests>;

export const ZFiscalDataRequestParams = z.object({ id: z.string().min(1).max(64) });
