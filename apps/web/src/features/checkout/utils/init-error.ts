import { ApiError } from '@/lib/api-client';

/**
 * Why a payment could not be started (spec §8 "Card payment"), from the API's typed codes; the
 * screen translates the kind, never the server's prose.
 */
export type InitErrorKind =
  /** 422 errors.amount: not a positive amount with two decimals. */
  | 'invalidAmount'
  /** 422 errors.amount ['amount_mismatch']: what is owed changed since the customer looked. */
  | 'amountMismatch'
  /** 422 errors.invoice_id ['required']. */
  | 'missingInvoice'
  /** 422 ['not_payable']: already paid or cancelled. */
  | 'notPayable'
  /** 404: unknown or another customer's invoice or instalment. */
  | 'notFound'
  /** 404 card_not_found: the saved card chosen is no longer saved (removed meanwhile). */
  | 'cardGone'
  /** 409 payment_in_progress: another payment of these instalments waits for the gateway. */
  | 'inProgress'
  /** 503 payment_unavailable: no card gateway for this tenant. */
  | 'unavailable'
  /** 401: the session is gone. */
  | 'unauthenticated'
  /** No answer at all. */
  | 'network'
  | 'generic';

const fieldCodes = (error: ApiError, field: string): string[] => error.errors?.[field] ?? [];

export function initErrorKind(error: unknown): InitErrorKind {
  if (!(error instanceof ApiError)) return 'generic';
  if (error.status === 0) return 'network';
  if (error.status === 401) return 'unauthenticated';
  if (error.code === 'payment_in_progress') return 'inProgress';
  if (error.code === 'payment_unavailable') return 'unavailable';
  if (error.code === 'card_not_found') return 'cardGone';
  if (error.status === 404) return 'notFound';
  if (error.status === 422) {
    const amount = fieldCodes(error, 'amount');
    if (amount.includes('amount_mismatch')) return 'amountMismatch';
    if (amount.length > 0) return 'invalidAmount';
    const target = ['invoice_id', 'payment_ids', 'multiple_invoices', 'payment_id'].flatMap(
      (field) => fieldCodes(error, field),
    );
    if (target.includes('not_payable')) return 'notPayable';
    if (target.length > 0) return 'missingInvoice';
  }
  return 'generic';
}
