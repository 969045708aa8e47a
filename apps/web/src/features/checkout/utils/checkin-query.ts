import { maxPaymentIds } from '@portal/contract/payment-limits';
import { paths } from '@/config/paths';
import { fromCents, toCents } from '@/lib/money';

/**
 * What the payment confirmation was opened for (spec §2 route table): the Pay button of an invoice
 * (`?invoiceId=..&amount=..`, several invoices comma-separated) or the select-to-pay mode of the
 * payments list (`?payments=id1,id2&amount=..`). The address's amount is never shown nor sent:
 * the screen shows what the server computes (PRODUCT.md "Screens"; review #7).
 */
export type CheckinTarget =
  | { kind: 'invoices'; invoiceIds: string[] }
  | { kind: 'payments'; paymentIds: string[]; invoiceId?: string };

/**
 * Spec §8 "Card payment": "No se proporcionó ID de factura"; `tooMany`: more instalments than one
 * payment takes, said as such (before, it was taken for a missing invoice, and the customer sent
 * back to pay the same selection again).
 */
export type CheckinQueryError = 'missingInvoice' | 'tooMany';

export type CheckinQuery =
  { ok: true; target: CheckinTarget } | { ok: false; errors: CheckinQueryError[] };

/** The contract's limits: ids of at most 64 characters, at most `maxPaymentIds` of them. */
const maxIdLength = 64;

/** `45.00`, `45`, `45,5` -> cents-exact positive amount; `null` for anything else (spec §5 "> 0"). */
export function parseAmountParam(value: string | null): number | null {
  const text = value?.trim() ?? '';
  if (!/^\d{1,7}(?:[.,]\d{1,2})?$/.test(text)) return null;
  const amount = fromCents(toCents(Number(text.replace(',', '.'))));
  return amount > 0 ? amount : null;
}

/** A comma-separated list's ids, trimmed and without repeats. */
const splitIds = (value: string) => [
  ...new Set(
    value
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean),
  ),
];

/** A comma-separated list of ids, trimmed and without repeats; `null` when one is not an id. */
export function parseIdList(value: string | null): string[] | null {
  if (value === null) return [];
  const ids = splitIds(value);
  if (ids.length > maxPaymentIds || ids.some((id) => id.length > maxIdLength)) return null;
  return ids;
}

/**
 * Reads the confirmation's query. Unlike the spec's client, nothing is made up when it is missing
 * (no sample invoice): the screen shows what is wrong instead of paying something else. The
 * `amount` parameter is ignored: what is owed comes from the server.
 */
export function parseCheckinQuery(search: URLSearchParams): CheckinQuery {
  const errors: CheckinQueryError[] = [];

  // The payments list does not link to more (SelectionBar), but an address from elsewhere (kept,
  // typed, an older version) is told the limit rather than that nothing was chosen.
  const payments = search.get('payments');
  if (payments !== null && splitIds(payments).length > maxPaymentIds) {
    return { ok: false, errors: ['tooMany'] };
  }

  const paymentIds = parseIdList(payments);
  const invoiceIds = parseIdList(search.get('invoiceId'));
  let target: CheckinTarget | null = null;
  if (paymentIds && paymentIds.length > 0) {
    const [invoiceId] = invoiceIds?.length === 1 ? invoiceIds : [];
    target = { kind: 'payments', paymentIds, ...(invoiceId ? { invoiceId } : {}) };
  } else if (paymentIds && invoiceIds && invoiceIds.length > 0) {
    target = { kind: 'invoices', invoiceIds };
  }
  if (!target) errors.push('missingInvoice');

  return target && errors.length === 0 ? { ok: true, target } : { ok: false, errors };
}

/** Spec §2: the confirmation's back link leads to the invoice (or the payments it came from). */
export function checkinBackHref(target: CheckinTarget): string {
  if (target.kind === 'invoices' && target.invoiceIds.length === 1 && target.invoiceIds[0]) {
    return paths.invoiceDetail.href(target.invoiceIds[0]);
  }
  if (target.kind === 'payments' && target.invoiceId) {
    return paths.invoiceDetail.href(target.invoiceId);
  }
  return target.kind === 'payments' ? paths.payments : paths.invoices;
}
