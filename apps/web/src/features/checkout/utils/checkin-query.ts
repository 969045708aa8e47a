import { paths } from '@/config/paths';
import { fromCents, toCents } from '@/lib/money';

/**
 * What the payment confirmation was opened for (spec §2 route table): the Pay button of an invoice
 * (`?invoiceId=..&amount=..`, several invoices comma-separated) or the select-to-pay mode of the
 * payments list (`?payments=id1,id2&amount=..`). The amount is what the customer was shown; the
 * server computes the real one and refuses a different amount (PRODUCT.md "Payments").
 */
export type CheckinTarget =
  | { kind: 'invoices'; invoiceIds: string[] }
  | { kind: 'payments'; paymentIds: string[]; invoiceId?: string };

/** Spec §8 "Card payment": "Importe inválido", "No se proporcionó ID de factura". */
export type CheckinQueryError = 'invalidAmount' | 'missingInvoice';

export type CheckinQuery =
  { ok: true; target: CheckinTarget; amount: number } | { ok: false; errors: CheckinQueryError[] };

/** The contract's limits: ids of at most 64 characters, at most 200 of them. */
const maxIdLength = 64;
const maxIds = 200;

/** `45.00`, `45`, `45,5` -> cents-exact positive amount; `null` for anything else (spec §5 "> 0"). */
export function parseAmountParam(value: string | null): number | null {
  const text = value?.trim() ?? '';
  if (!/^\d{1,7}(?:[.,]\d{1,2})?$/.test(text)) return null;
  const amount = fromCents(toCents(Number(text.replace(',', '.'))));
  return amount > 0 ? amount : null;
}

/** A comma-separated list of ids, trimmed and without repeats; `null` when one is not an id. */
export function parseIdList(value: string | null): string[] | null {
  if (value === null) return [];
  const ids = [
    ...new Set(
      value
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean),
    ),
  ];
  if (ids.length > maxIds || ids.some((id) => id.length > maxIdLength)) return null;
  return ids;
}

/**
 * Reads the confirmation's query. Unlike the spec's client, nothing is made up when it is missing
 * (no sample invoice, no 45.00): the screen shows what is wrong instead of paying something else.
 */
export function parseCheckinQuery(search: URLSearchParams): CheckinQuery {
  const errors: CheckinQueryError[] = [];
  const amount = parseAmountParam(search.get('amount'));
  if (amount === null) errors.push('invalidAmount');

  const paymentIds = parseIdList(search.get('payments'));
  const invoiceIds = parseIdList(search.get('invoiceId'));
  let target: CheckinTarget | null = null;
  if (paymentIds && paymentIds.length > 0) {
    const [invoiceId] = invoiceIds?.length === 1 ? invoiceIds : [];
    target = { kind: 'payments', paymentIds, ...(invoiceId ? { invoiceId } : {}) };
  } else if (paymentIds && invoiceIds && invoiceIds.length > 0) {
    target = { kind: 'invoices', invoiceIds };
  }
  if (!target) errors.push('missingInvoice');

  return target && amount !== null && errors.length === 0
    ? { ok: true, target, amount }
    : { ok: false, errors };
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
