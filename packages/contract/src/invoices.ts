import { z } from 'zod';
import { languages } from './languages.ts';
import { ZAmount, ZApiDate, ZInstalmentMethodKind, ZPage } from './common.ts';
import { FieldError } from './errors.ts';
import { ZReturnedDebit } from './returned-debits.ts';

const ZInvoiceId = z
  .string(FieldError.required)
  .min(1, FieldError.required)
  .max(64, FieldError.tooLong);

/** A date range where `datefrom` is not after `dateto`. */
function withRange<T extends z.ZodObject<{ datefrom: typeof ZApiDate; dateto: typeof ZApiDate }>>(
  schema: T,
) {
  return schema.refine((r) => r.datefrom <= r.dateto, {
    path: ['dateto'],
    message: FieldError.invalidRange,
  });
}

/** `POST /invoices` (spec §7). */
export const ZInvoicesRequest = withRange(
  z.object({
    datefrom: ZApiDate,
    dateto: ZApiDate,
    page: ZPage,
    paid: z.boolean().optional(),
    pending: z.boolean().optional(),
  }),
);
export type TInvoicesRequest = z.input<typeof ZInvoicesRequest>;

/**
 * Invoice status codes (spec §3: "status (1 means paid)"). 0 = something is still owed,
 * 1 = fully paid, 2 = cancelled.
 */
export const InvoiceStatus = { pending: 0, paid: 1, cancelled: 2 } as const;

/**
 * What an invoice is for its customer today, computed once by the server in the tenant's time
 * zone (Europe/Madrid) and shown as sent on every screen (PRODUCT.md "Screens"): `overdue` when an
 * unpaid instalment's due date has passed, whatever else was paid; `partially_paid` when something
 * was paid and the rest is not late; `pending` when nothing was paid and nothing is late;
 * `returned` when an unpaid instalment's direct debit came back from the bank (before overdue: the
 * customer needs to know why it is owed again); `credit_note` when its total is below zero (the
 * provider owes it to the customer and settles it itself: it has no instalments, and before
 * session 37 it read "Pagada").
 */
export const ZInvoiceState = z.enum([
  'paid',
  'pending',
  'partially_paid',
  'overdue',
  'cancelled',
  'returned',
  'credit_note',
]);
export type TInvoiceState = z.infer<typeof ZInvoiceState>;

/**
 * The state of one instalment (efecto) today, computed by the server the same way: `overdue` when
 * pending and due before today in Madrid; `returned` while its direct debit came back from the bank
 * and it is unpaid, whatever its due date ("Devuelto", issue 23 item 4).
 */
export const ZPaymentStatus = z.enum(['paid', 'pending', 'overdue', 'cancelled', 'returned']);
export type TPaymentStatus = z.infer<typeof ZPaymentStatus>;

/**
 * Spec §3 "Invoice list item": `amount` is what is still owed (0 when paid), a returned debit's
 * bank fee included where the tenant charges it, as the summary, the balance and the detail's
 * `to_pay` count it (session 39: the list left it out); `total` the invoice total, `state` what
 * the invoice is today (the web app never derives it).
 */
export const ZInvoiceListItem = z.object({
  invoice_id: z.string(),
  invoice_date: z.string(),
  status: z.number().int(),
  state: ZInvoiceState,
  amount: ZAmount,
  total: ZAmount,
});
export type TInvoiceListItem = z.infer<typeof ZInvoiceListItem>;

export const ZInvoicesResponse = z.object({
  invoices: z.array(ZInvoiceListItem),
  has_more: z.boolean(),
});
export type TInvoicesResponse = z.infer<typeof ZInvoicesResponse>;

/** `POST /invoices/summary`. */
export const ZInvoiceSummaryRequest = withRange(z.object({ datefrom: ZApiDate, dateto: ZApiDate }));
export type TInvoiceSummaryRequest = z.input<typeof ZInvoiceSummaryRequest>;
export const ZInvoiceSummaryResponse = z.object({
  summary: z.object({ total_invoices: z.number().int(), total_pending: ZAmount }),
});
export type TInvoiceSummaryResponse = z.infer<typeof ZInvoiceSummaryResponse>;

/** `POST /invoice`: dates are optional since the server looks the invoice up by id. */
export const ZInvoiceRequest = z.object({
  invoice_id: ZInvoiceId,
  datefrom: ZApiDate.optional(),
  dateto: ZApiDate.optional(),
});
export type TInvoiceRequest = z.input<typeof ZInvoiceRequest>;

export const ZInvoiceLine = z.object({
  person: z.string(),
  concept: z.string(),
  quota: z.string(),
  quantity: z.number(),
  unit_price: ZAmount,
  iva: z.number(),
  /** Quantity times unit price before VAT, to the cent (the server's one computation of it). */
  amount: ZAmount,
});
export type TInvoiceLine = z.infer<typeof ZInvoiceLine>;

/** What the provider's books say of an instalment; `status` adds overdue from the due date. */
export const ZInstalmentState = z.enum(['pending', 'paid', 'cancelled', 'returned']);
export type TInstalmentState = z.infer<typeof ZInstalmentState>;

/** One instalment (efecto) as the invoice detail shows it. */
export const ZInvoicePayment = z.object({
  payment_id: z.string(),
  duedate: z.string(),
  /** As the provider wrote it (spec §3); `method_kind` is what the web app and the PDF word. */
  method: z.string(),
  method_kind: ZInstalmentMethodKind,
  import: ZAmount,
  paiddate: z.string().nullable(),
  state: ZInstalmentState,
  /** The instalment today (Madrid), as the payments list shows it. */
  status: ZPaymentStatus,
  /** With status `returned`: the bank's return (reason code, fee), when the provider reported it. */
  returned: ZReturnedDebit.optional(),
});
export type TInvoicePayment = z.infer<typeof ZInvoicePayment>;

export const ZInvoiceDetail = z.object({
  invoice_id: z.string(),
  invoice_date: z.string(),
  /** VAT amount; `base` + `iva` = `total`. */
  iva: ZAmount,
  base: ZAmount,
  total: ZAmount,
  import: ZAmount,
  /** What its unpaid instalments still owe, without the bank fees of returned debits. */
  pending: ZAmount,
  /**
   * What there is to pay: `pending` plus the bank fees of its returned debits where the tenant
   * charges them (issue 23, item 4). The detail's and the PDF's "Pendiente de pago", the list
   * item's `amount` and what "Pagar" pays; the payment confirmation asks Redsys for the same amount.
   */
  to_pay: ZAmount,
  customer_name: z.string(),
  status: z.number().int(),
  state: ZInvoiceState,
  lines: z.array(ZInvoiceLine),
  payments: z.array(ZInvoicePayment),
});
export type TInvoiceDetail = z.infer<typeof ZInvoiceDetail>;
export const ZInvoiceResponse = z.object({ invoice: ZInvoiceDetail });
export type TInvoiceResponse = z.infer<typeof ZInvoiceResponse>;

/** `POST /invoices/related`. */
export const ZRelatedInvoicesRequest = z.object({
  invoice_id: ZInvoiceId,
  /** A calendar year, as a number or four digits (1900-9999, a date's range). */
  year: z
    .union([
      z.number(FieldError.invalidType).int(FieldError.invalidType),
      z.string().regex(/^\d{4}$/, FieldError.invalidFormat),
    ])
    .refine((y) => Number(y) >= 1900 && Number(y) <= 9999, FieldError.invalidValue)
    .optional(),
});
export const ZRelatedInvoicesResponse = z.object({
  previous_invoice_id: z.string().nullable(),
  next_invoice_id: z.string().nullable(),
});
export type TRelatedInvoicesResponse = z.infer<typeof ZRelatedInvoicesResponse>;

/** `POST /invoice/pdf`: answers a short-lived signed URL (PRODUCT.md). */
export const ZInvoicePdfRequest = z.object({
  invoice_id: ZInvoiceId,
  invoice_date: ZApiDate.optional(),
  /** Language of the PDF; the customer's own language when absent. */
  language: z.enum(languages).optional(),
});
export const ZInvoicePdfResponse = z.object({ url: z.string() });
export type TInvoicePdfResponse = z.infer<typeof ZInvoicePdfResponse>;

/**
 * `GET /balance`: what the signed-in customer owes today (Madrid), for the "what you owe" hero of
 * home and the payments list. `pay` is what the one "Pagar" action pays: every overdue instalment,
 * or when none is overdue every pending one (oldest due first, at most 200: the init-payment cap).
 */
export const ZBalanceResponse = z.object({
  outstanding: ZAmount,
  outstanding_count: z.number().int(),
  overdue: ZAmount,
  overdue_count: z.number().int(),
  /** The earliest due date (`yyyymmdd`) of an unpaid instalment, or null when nothing is owed. */
  next_due_date: z.string().nullable(),
  pay: z.object({
    scope: z.enum(['overdue', 'pending', 'none']),
    amount: ZAmount,
    payment_ids: z.array(z.string()),
  }),
});
export type TBalanceResponse = z.infer<typeof ZBalanceResponse>;
