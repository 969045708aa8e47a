import { sumAmounts, toCents } from './money';
import { derivePaymentStatus, isUnpaid, type PaymentDates } from './payment-status';

/**
 * Invoice statuses (spec §4 "Invoice status"): the labels the screens know are paid, pending,
 * overdue, cancelled, partially paid and unknown.
 */
export type InvoiceStatus =
  'paid' | 'pending' | 'overdue' | 'cancelled' | 'partiallyPaid' | 'unknown';

/** The API's `status` codes (spec §3 "1 means paid"; the contract adds 0 owed and 2 cancelled). */
export const invoiceStatusCode = { pending: 0, paid: 1, cancelled: 2 } as const;

/**
 * Spec §4 "Invoice status on home": status 1 = paid, else pending. A cancelled invoice (status 2,
 * which the spec's server did not have) says cancelled: calling it pending would ask for money
 * nobody owes.
 */
export function homeInvoiceStatus(status: number): 'paid' | 'pending' | 'cancelled' {
  if (status === invoiceStatusCode.paid) return 'paid';
  if (status === invoiceStatusCode.cancelled) return 'cancelled';
  return 'pending';
}

export type InvoiceListItemAmounts = {
  status: number;
  /** What is still owed (spec §3 "Invoice list item": `amount`). */
  amount: number;
  /** The invoice total: the "reference pending amount" of spec §4. */
  total: number;
};

/**
 * Spec §4 "On list cards the status is derived from the amount": amount 0 = paid; between zero and
 * the reference (the total) = partially paid; at or above the reference = pending; otherwise
 * unknown. A cancelled invoice (status 2) is cancelled whatever its amounts.
 */
export function invoiceCardStatus({
  status,
  amount,
  total,
}: InvoiceListItemAmounts): InvoiceStatus {
  if (status === invoiceStatusCode.cancelled) return 'cancelled';
  if (!Number.isFinite(amount) || !Number.isFinite(total)) return 'unknown';
  const owed = toCents(amount);
  const reference = toCents(total);
  if (owed === 0) return 'paid';
  if (owed > 0 && owed < reference) return 'partiallyPaid';
  if (owed > 0 && owed >= reference) return 'pending';
  return 'unknown';
}

/** One instalment of the invoice detail (`/invoice` payments[]). */
export type InvoiceInstalment = PaymentDates & { amount: number };

export type PayableInvoice = {
  status: number;
  total: number;
  payments: readonly InvoiceInstalment[];
};

/** The instalments still to be paid on `today`. */
function unpaidInstalments(invoice: PayableInvoice, today: string): InvoiceInstalment[] {
  return invoice.payments.filter((p) => isUnpaid(derivePaymentStatus(p, today)));
}

/**
 * Spec §4 "Payable invoice": amount to pay = the sum of the unpaid payments' amounts, or the total
 * when there are no payments. A cancelled invoice owes nothing.
 */
export function amountToPay(invoice: PayableInvoice, today: string): number {
  if (invoice.status === invoiceStatusCode.cancelled) return 0;
  if (invoice.payments.length === 0) {
    return invoice.status === invoiceStatusCode.paid ? 0 : invoice.total;
  }
  return sumAmounts(unpaidInstalments(invoice, today).map((p) => p.amount));
}

/**
 * Spec §4 "Payable invoice": payable if it has no payments or at least one unpaid payment; and,
 * since a payment must be of more than 0 (spec §5 "Card payment"), only with something to pay:
 * never cancelled, never paid.
 */
export function isInvoicePayable(invoice: PayableInvoice, today: string): boolean {
  return toCents(amountToPay(invoice, today)) > 0;
}
