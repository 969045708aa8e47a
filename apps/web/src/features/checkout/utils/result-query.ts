import { paths } from '@/config/paths';
import { parseAmountParam, parseIdList } from './checkin-query';
import type { PaymentSession } from './payment-session';

/**
 * What the result address says (spec §2: /payment/success and /payment/error, where the gateway
 * returns the browser, and /payment-checkout with the spec's query: success, status, message,
 * invoiceId, amount, payment_id, order_id). None of it is trusted: with a payment id the screen
 * asks the server; without one only a failure may be shown as said (nothing was charged that we
 * know of), never a success.
 */
export type ResultQuery = {
  /** The attempt to verify: `payment_id`, else the one this tab started (session storage). */
  paymentId: string | null;
  /** What the address claims (spec §4: success=true or status=success; status=error or success=false). */
  claim: 'success' | 'failure' | null;
  /** For the retry link and the failure details. */
  invoiceIds: string[];
  amount: number | null;
  orderId: string | null;
  /**
   * Spec §4: the `message` of a failure's address (the spec's client writes "El pago fue
   * cancelado o falló" when it has none). Plain text, one line, at most 200 characters; shown as
   * the address's words, never as the portal's verdict.
   */
  message: string | null;
};

const maxMessageLength = 200;

/** The `message` parameter as one line of plain text, or null when there is nothing to show. */
export function messageParam(value: string | null): string | null {
  const text = (value ?? '')
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!text) return null;
  return text.length > maxMessageLength ? `${text.slice(0, maxMessageLength - 1)}…` : text;
}

const isId = (value: string | null): value is string =>
  value !== null && /^[\w-]{1,64}$/.test(value.trim());

function claimOf(pathname: string, search: URLSearchParams): ResultQuery['claim'] {
  const success = search.get('success');
  const status = search.get('status');
  if (pathname === paths.paymentError || status === 'error' || success === 'false') {
    return 'failure';
  }
  if (pathname === paths.paymentSuccess || status === 'success' || success === 'true') {
    return 'success';
  }
  return null;
}

export function parseResultQuery(
  pathname: string,
  search: URLSearchParams,
  session: PaymentSession,
): ResultQuery {
  const fromQuery = search.get('payment_id');
  const paymentId = isId(fromQuery)
    ? fromQuery.trim()
    : isId(session.paymentId)
      ? session.paymentId
      : null;
  const invoiceIds = parseIdList(search.get('invoiceId') ?? session.invoice) ?? [];
  const orderId = search.get('order_id');
  return {
    paymentId,
    claim: claimOf(pathname, search),
    invoiceIds,
    amount: parseAmountParam(search.get('amount') ?? session.amount),
    orderId: isId(orderId) ? orderId : null,
    message: messageParam(search.get('message')),
  };
}

/** Spec §2: "retry to the invoice" (one invoice), else the payments list. */
export function retryHref(invoiceIds: readonly string[]): string {
  return invoiceIds.length === 1 && invoiceIds[0]
    ? paths.invoiceDetail.href(invoiceIds[0])
    : paths.payments;
}
