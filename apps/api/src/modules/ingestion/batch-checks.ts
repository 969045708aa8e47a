import { FieldError } from '@portal/contract';
import type { TIngestInvoice } from '@portal/contract/admin-ingestion';
import { FieldValidationError } from '../../lib/app-error.ts';

/**
 * Per-item errors of one batch, keyed by the item's dotted path (`invoices.12.customer_code`), the
 * shape of every 422 (`errors.<field>: [codes]`). A batch with any error is rejected whole.
 */
export function createBatchErrors() {
  const errors: Record<string, string[]> = {};
  return {
    add(path: string, code: string) {
      const list = (errors[path] ??= []);
      if (!list.includes(code)) list.push(code);
    },
    get count() {
      return Object.keys(errors).length;
    },
    /** The errors found so far, as plain data (to pass between threads). */
    toJSON(): Record<string, string[]> {
      return structuredClone(errors);
    },
    /** Throws the 422 when anything was found; the caller's transaction then rolls back. */
    throwIfAny() {
      if (Object.keys(errors).length > 0) throw new FieldValidationError(errors);
    },
  };
}
export type BatchErrors = ReturnType<typeof createBatchErrors>;

/** Indexes of the items whose key already appeared earlier in the list (the first one is kept). */
export function repeatedIndexes(keys: readonly string[]): number[] {
  const seen = new Set<string>();
  const repeated: number[] = [];
  keys.forEach((key, index) => {
    if (seen.has(key)) repeated.push(index);
    else seen.add(key);
  });
  return repeated;
}

/**
 * The rules an invoice must meet on its own: `total = base + vat`; no line number or instalment
 * sequence twice; the instalments add up to the total when it is positive, and there are none
 * when it is zero or negative (a credit note is settled by the provider, not paid here).
 */
export function checkInvoice(invoice: TIngestInvoice, path: string, errors: BatchErrors): void {
  if (invoice.base_cents + invoice.vat_cents !== invoice.total_cents)
    errors.add(`${path}.total_cents`, FieldError.totalMismatch);
  for (const j of repeatedIndexes(invoice.lines.map((l) => String(l.line_no))))
    errors.add(`${path}.lines.${j}.line_no`, FieldError.duplicate);
  for (const j of repeatedIndexes(invoice.instalments.map((e) => String(e.seq))))
    errors.add(`${path}.instalments.${j}.seq`, FieldError.duplicate);
  const sum = invoice.instalments.reduce((s, e) => s + e.amount_cents, 0);
  const fits =
    invoice.total_cents > 0 ? sum === invoice.total_cents : invoice.instalments.length === 0;
  if (!fits) errors.add(`${path}.instalments`, FieldError.totalMismatch);
}

/** What the database says of an instalment the batch may touch. */
export type ExistingInstalment = {
  seq: number;
  amount_cents: number;
  status: 'pending' | 'paid' | 'cancelled' | 'returned';
  /** Part of a card payment still waiting for the gateway's answer. */
  in_attempt: boolean;
  /** Paid by a payment in the portal (card, Bizum): the money was taken here. */
  paid_in_portal: boolean;
};

/** Paid, or being paid: its amount and state are no longer the provider's to change by a batch. */
const isLocked = (e: ExistingInstalment): boolean => e.status === 'paid' || e.in_attempt;

/**
 * The rules against what is stored: a locked instalment keeps its amount; an instalment the batch
 * leaves out is removed, which only a pending one outside any payment may be; and an invoice with
 * a locked or returned instalment stays with its customer.
 */
export function checkAgainstStored(
  invoice: {
    instalments: readonly Pick<TIngestInvoice['instalments'][number], 'seq' | 'amount_cents'>[];
    cancelled?: boolean;
  },
  path: string,
  stored: { customerChanged: boolean; instalments: readonly ExistingInstalment[] },
  errors: BatchErrors,
): void {
  const bySeq = new Map(stored.instalments.map((e) => [e.seq, e]));
  const sent = new Set(invoice.instalments.map((e) => e.seq));
  invoice.instalments.forEach((e, j) => {
    const old = bySeq.get(e.seq);
    if (old && isLocked(old) && old.amount_cents !== e.amount_cents)
      errors.add(`${path}.instalments.${j}.amount_cents`, FieldError.instalmentLocked);
  });
  for (const old of stored.instalments) {
    if (!sent.has(old.seq) && (old.status !== 'pending' || old.in_attempt))
      errors.add(`${path}.instalments`, FieldError.instalmentLocked);
  }
  // An invoice paid in the portal (or being paid) is not cancelled by a batch: the customer's
  // money was taken here, and a cancellation kept it with no trace on their account, no refund,
  // the statement showing neither (session 39). The back office's status route refuses the same
  // for one instalment; the provider refunds first, then cancels.
  if (invoice.cancelled && stored.instalments.some((e) => e.paid_in_portal || e.in_attempt))
    errors.add(`${path}.cancelled`, FieldError.instalmentLocked);
  // A returned direct debit is the debt (and the fee) of the customer whose bank returned it: the
  // invoice stays with them as long as it has one.
  if (
    stored.customerChanged &&
    stored.instalments.some((e) => isLocked(e) || e.status === 'returned')
  )
    errors.add(`${path}.customer_code`, FieldError.instalmentLocked);
}
