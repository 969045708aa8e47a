import { paths } from '@/config/paths';
import { formatAmountParam } from './money';

/**
 * Addresses of the payment confirmation (spec §2 "/payment-checkin?invoiceId=..&amount=.."), the
 * one place that writes them. The amount travels with a dot and two decimals; the server computes
 * the real amount from the unpaid instalments and only checks this one (PRODUCT.md "Payments").
 */
export function invoiceCheckinHref(invoiceId: string, amount: number): string {
  const query = new URLSearchParams({ invoiceId, amount: formatAmountParam(amount) });
  return `${paths.paymentCheckin}?${query.toString()}`;
}

/** The select-to-pay mode of the payments list hands over several instalments at once. */
export function paymentsCheckinHref(paymentIds: readonly string[], amount: number): string {
  const query = new URLSearchParams({
    payments: paymentIds.join(','),
    amount: formatAmountParam(amount),
  });
  // The ids are uuids or codes: keep the commas readable rather than %2C.
  return `${paths.paymentCheckin}?${query.toString().replace(/%2C/g, ',')}`;
}
