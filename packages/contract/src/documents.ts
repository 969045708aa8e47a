import { z } from 'zod';
import { languages } from './languages.ts';
import { ZAmount, ZApiDate } from './common.ts';
import { FieldError } from './errors.ts';
import { maxDocumentYears, maxZipInvoices } from './document-limits.ts';

/**
 * Receipts, statements and invoice archives (issue 23, item 3). Each download is the invoice PDF's
 * pattern: a bearer call checks the request and answers a five-minute signed link; the link (a
 * GET a new tab or an `<a download>` can open) streams the document.
 */

const ZId = z.string(FieldError.required).min(1, FieldError.required).max(64, FieldError.tooLong);
const ZDocumentLanguage = z.enum(languages).optional();

export { maxDocumentYears, maxZipInvoices };

/** The day `years` years after `yyyymmdd` (the 29th of February falls back to the 28th). */
function addYears(apiDate: string, years: number): string {
  const year = String(Number(apiDate.slice(0, 4)) + years).padStart(4, '0');
  const rest = apiDate.slice(4) === '0229' ? '0228' : apiDate.slice(4);
  return `${year}${rest}`;
}

/** `datefrom` not after `dateto`, and at most `maxDocumentYears` apart. */
export function isDocumentRange(r: { datefrom: string; dateto: string }): boolean {
  return r.datefrom <= r.dateto && r.dateto <= addYears(r.datefrom, maxDocumentYears);
}

const ZPeriod = z.object({ datefrom: ZApiDate, dateto: ZApiDate });
const periodChecks = <T extends { datefrom?: string | undefined; dateto?: string | undefined }>(
  r: T,
  ctx: z.RefinementCtx,
) => {
  if (r.datefrom === undefined || r.dateto === undefined) return;
  if (r.datefrom > r.dateto) {
    ctx.addIssue({ code: 'custom', path: ['dateto'], message: FieldError.invalidRange });
  } else if (!isDocumentRange({ datefrom: r.datefrom, dateto: r.dateto })) {
    ctx.addIssue({ code: 'custom', path: ['dateto'], message: FieldError.tooBig });
  }
};

/** `POST /documents/receipt`: the receipt of one completed card payment of the customer. */
export const ZReceiptLinkRequest = z.object({ payment_id: ZId, language: ZDocumentLanguage });
export type TReceiptLinkRequest = z.input<typeof ZReceiptLinkRequest>;

/** A five-minute signed link to a document. */
export const ZDocumentLinkResponse = z.object({ url: z.string() });
export type TDocumentLinkResponse = z.infer<typeof ZDocumentLinkResponse>;

/** `POST /documents/statement`: the statement of a period, as PDF or CSV. */
export const ZStatementLinkRequest = ZPeriod.extend({
  format: z.enum(['pdf', 'csv'], FieldError.invalidValue),
  language: ZDocumentLanguage,
}).superRefine(periodChecks);
export type TStatementLinkRequest = z.input<typeof ZStatementLinkRequest>;

/**
 * `POST /documents/invoices-zip`: several invoices as one ZIP, either a selection
 * (`invoice_ids`) or every invoice dated in a period (`datefrom`, `dateto`). More than
 * `maxZipInvoices` is a 422 with `too_big` on `invoice_ids` (or on `dateto` for a period).
 */
export const ZInvoicesZipRequest = z
  .object({
    invoice_ids: z
      .array(ZId, FieldError.invalidType)
      .min(1, FieldError.required)
      .max(maxZipInvoices, FieldError.tooBig)
      .optional(),
    datefrom: ZApiDate.optional(),
    dateto: ZApiDate.optional(),
    language: ZDocumentLanguage,
  })
  .superRefine((r, ctx) => {
    const hasPeriod = r.datefrom !== undefined || r.dateto !== undefined;
    if (r.invoice_ids === undefined && !hasPeriod) {
      ctx.addIssue({ code: 'custom', path: ['invoice_ids'], message: FieldError.required });
    } else if (r.invoice_ids !== undefined && hasPeriod) {
      ctx.addIssue({ code: 'custom', path: ['invoice_ids'], message: FieldError.invalidValue });
    } else if (hasPeriod && (r.datefrom === undefined || r.dateto === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [r.datefrom === undefined ? 'datefrom' : 'dateto'],
        message: FieldError.required,
      });
    }
    periodChecks(r, ctx);
  });
export type TInvoicesZipRequest = z.input<typeof ZInvoicesZipRequest>;
export const ZInvoicesZipResponse = z.object({ url: z.string(), count: z.number().int() });
export type TInvoicesZipResponse = z.infer<typeof ZInvoicesZipResponse>;

/** `GET /documents/receipts`: the customer's completed card payments, newest first (at most 50). */
export const ZReceiptItem = z.object({
  payment_id: z.string(),
  order_id: z.string(),
  /** When it settled, `yyyymmdd` in Madrid. */
  date: z.string(),
  amount: ZAmount,
  invoices: z.array(z.string()),
});
export type TReceiptItem = z.infer<typeof ZReceiptItem>;
export const ZReceiptsResponse = z.object({ receipts: z.array(ZReceiptItem) });
export type TReceiptsResponse = z.infer<typeof ZReceiptsResponse>;
