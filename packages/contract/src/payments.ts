import { z } from 'zod';
import { ZAmount, ZApiDate, ZInstalmentMethodKind, ZPage } from './common.ts';
import { FieldError } from './errors.ts';
import { ZPaymentStatus } from './invoices.ts';
import { ZReturnedDebit } from './returned-debits.ts';

/**
 * `POST /payments` (spec §7): instalments (efectos) of the signed-in customer whose due date is
 * in the range. The spec's client filters and orders on its side; with server pages that would
 * hide items, so the filters and the order are also accepted here (both optional).
 */
export const ZPaymentsRequest = z
  .object({
    datefrom: ZApiDate,
    dateto: ZApiDate,
    page: ZPage,
    pending: z.boolean().optional(),
    overdue: z.boolean().optional(),
    order: z.enum(['asc', 'desc']).optional(),
  })
  .refine((r) => r.datefrom <= r.dateto, { path: ['dateto'], message: FieldError.invalidRange });
export type TPaymentsRequest = z.input<typeof ZPaymentsRequest>;

/**
 * Spec §3 "Payment". The spec's client derived `status` from the dates (spec §4); here the server
 * computes it once in Madrid and the web app shows it as sent.
 */
export const ZPayment = z.object({
  payment_id: z.string(),
  invoice_id: z.string(),
  amount: ZAmount,
  due_date: z.string(),
  paid_date: z.string().optional(),
  /** As the provider wrote it (spec §3); `method_kind` is what the web app words. */
  method: z.string(),
  method_kind: ZInstalmentMethodKind,
  status: ZPaymentStatus,
  /** With status `returned`: the bank's return (reason code, fee), when the provider reported it. */
  returned: ZReturnedDebit.optional(),
  /**
   * While it is owed (pending, overdue, returned): what paying it now costs, the amount plus the
   * bank fee of its return where the tenant charges it, as the payment confirmation asks. What the
   * selection's total and "Pagar" add up (they summed `amount`, short of the fee: session 39).
   */
  to_pay: ZAmount.optional(),
  /**
   * Paid through the portal (card or Bizum): that completed payment's id, whose receipt is
   * `POST /documents/receipt`. Absent for instalments paid any other way (no receipt).
   */
  receipt_id: z.string().optional(),
});
export type TPayment = z.infer<typeof ZPayment>;

export const ZPaymentsResponse = z.object({
  payments: z.array(ZPayment),
  has_more: z.boolean(),
});
export type TPaymentsResponse = z.infer<typeof ZPaymentsResponse>;
