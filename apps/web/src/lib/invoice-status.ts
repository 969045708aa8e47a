import type { TInvoiceState } from '@portal/contract/invoices';

/**
 * The labels an invoice's status has on screen (`invoiceStatus.*` texts, one tone each in
 * `status-badge`). The status itself is the server's `state` (computed once, on the Madrid day):
 * the web app only names it, it never derives it from dates or amounts.
 */
export type InvoiceStatus =
  | 'paid'
  | 'pending'
  | 'overdue'
  | 'cancelled'
  | 'partiallyPaid'
  | 'unknown'
  | 'returned'
  | 'creditNote';

const labels: Record<TInvoiceState, InvoiceStatus> = {
  paid: 'paid',
  pending: 'pending',
  partially_paid: 'partiallyPaid',
  overdue: 'overdue',
  cancelled: 'cancelled',
  returned: 'returned',
  credit_note: 'creditNote',
};

/** The label of the server's state; a state this build does not know reads "unknown". */
export function invoiceStatusLabel(state: string): InvoiceStatus {
  return Object.hasOwn(labels, state) ? labels[state as TInvoiceState] : 'unknown';
}

/** Something is still owed on it: it gets a "Pagar" action (the server's amount to pay). */
export function isPayableInvoice(invoice: { state: string; amount: number }): boolean {
  return (
    (invoice.state === 'pending' ||
      invoice.state === 'partially_paid' ||
      invoice.state === 'overdue' ||
      invoice.state === 'returned') &&
    invoice.amount > 0
  );
}
