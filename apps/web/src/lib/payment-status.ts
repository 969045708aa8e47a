import type { TPaymentStatus } from '@portal/contract/invoices';

/**
 * The status of a payment (instalment, "efecto") as the server sends it (`status` of `/payments`
 * and of `/invoice` payments[]): paid, pending, overdue (unpaid and due before today in Madrid),
 * cancelled, or returned (its direct debit came back from the bank: owed again). Computed once by the server; the web app only names it.
 */
export type PaymentStatus = TPaymentStatus;

/** Still to be paid: what the pay actions and the select-to-pay mode offer. */
export function isUnpaid(status: PaymentStatus): boolean {
  return status === 'pending' || status === 'overdue' || status === 'returned';
}
