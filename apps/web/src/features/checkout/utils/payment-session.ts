/**
 * Session storage of a payment in progress (spec §3 "Storage": currentPaymentInvoice,
 * currentPaymentAmount, saveNewCard), plus the attempt's id, so that the spec's result address
 * without one (`/payment-checkout?success=true`) can still be verified with the server. Like
 * lib/storage.ts, it never throws: a disabled storage only loses the remembered values.
 */
export const paymentSessionKeys = {
  invoice: 'currentPaymentInvoice',
  amount: 'currentPaymentAmount',
  saveNewCard: 'saveNewCard',
  paymentId: 'currentPaymentId',
} as const;

export type PaymentSession = {
  /** The invoice(s) being paid, comma-separated; empty for a selection of instalments. */
  invoice: string | null;
  amount: string | null;
  saveNewCard: boolean;
  paymentId: string | null;
};

function write(key: string, value: string | null): void {
  try {
    if (value === null) window.sessionStorage.removeItem(key);
    else window.sessionStorage.setItem(key, value);
  } catch {
    // Nothing to do: the value is simply not remembered.
  }
}

function read(key: string): string | null {
  try {
    return window.sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Spec §4: on start, the invoice, the amount and saveNewCard are written to session storage. */
export function rememberPaymentStart(input: {
  invoice: string | null;
  amount: string;
  saveNewCard: boolean;
}): void {
  write(paymentSessionKeys.invoice, input.invoice);
  write(paymentSessionKeys.amount, input.amount);
  write(paymentSessionKeys.saveNewCard, String(input.saveNewCard));
  write(paymentSessionKeys.paymentId, null);
}

export function rememberPaymentId(paymentId: string): void {
  write(paymentSessionKeys.paymentId, paymentId);
}

export function readPaymentSession(): PaymentSession {
  return {
    invoice: read(paymentSessionKeys.invoice),
    amount: read(paymentSessionKeys.amount),
    saveNewCard: read(paymentSessionKeys.saveNewCard) === 'true',
    paymentId: read(paymentSessionKeys.paymentId),
  };
}
