import { parseApiDate } from './dates';

/**
 * The status of a payment (instalment, "efecto"), spec §4 "Payment status (payments and home)":
 * paid if it has a paid date; else overdue if its due date is before today; else pending. A date
 * that is missing or invalid makes the payment pending, never overdue. `cancelled` is what the
 * provider's books say of an instalment of a cancelled invoice, which the spec's client never saw.
 */
export type PaymentStatus = 'paid' | 'pending' | 'overdue' | 'cancelled';

export type PaymentDates = {
  /** `yyyymmdd` (spec §3 "Payment": `paid_date`, present when paid). */
  paidDate?: string | null | undefined;
  /** `yyyymmdd` (spec §3 "Payment": `due_date`). */
  dueDate?: string | null | undefined;
  /** The books' cancelled state (`/payments` status or `/invoice` state `cancelled`). */
  cancelled?: boolean | undefined;
};

/** Has a paid date at all: spec §4 says "present", so any non-empty value counts. */
const hasPaidDate = (paidDate: string | null | undefined): boolean =>
  typeof paidDate === 'string' && paidDate.trim() !== '';

/**
 * Spec §4: overdue only when the due date is a real date earlier than today (`yyyymmdd`
 * strings compare like dates). The overdue filter uses this, so it never counts an invalid date.
 */
export function isOverdue(payment: PaymentDates, today: string): boolean {
  if (payment.cancelled || hasPaidDate(payment.paidDate)) return false;
  return parseApiDate(payment.dueDate) !== null && (payment.dueDate as string) < today;
}

/** Spec §4: the status of one payment on `today` (`yyyymmdd`). */
export function derivePaymentStatus(payment: PaymentDates, today: string): PaymentStatus {
  if (hasPaidDate(payment.paidDate)) return 'paid';
  if (payment.cancelled) return 'cancelled';
  return isOverdue(payment, today) ? 'overdue' : 'pending';
}

/** Spec §4: the pending filter counts a payment with an invalid date as pending. */
export function isPendingPayment(payment: PaymentDates, today: string): boolean {
  return derivePaymentStatus(payment, today) === 'pending';
}

/** Still to be paid: what the select-to-pay mode offers and an invoice's amount to pay sums. */
export function isUnpaid(status: PaymentStatus): boolean {
  return status === 'pending' || status === 'overdue';
}

/** The status of a `/payments` item: the spec's rule on its dates; `cancelled` from the books. */
export function statusOfPayment(
  payment: { paid_date?: string | undefined; due_date: string; status: string },
  today: string,
): PaymentStatus {
  return derivePaymentStatus(
    {
      paidDate: payment.paid_date,
      dueDate: payment.due_date,
      cancelled: payment.status === 'cancelled',
    },
    today,
  );
}

/** An instalment of `/invoice` as the status rule reads it. */
export function instalmentDates(instalment: {
  paiddate: string | null;
  duedate: string;
  state: string;
}): PaymentDates {
  return {
    paidDate: instalment.paiddate,
    dueDate: instalment.duedate,
    cancelled: instalment.state === 'cancelled',
  };
}
