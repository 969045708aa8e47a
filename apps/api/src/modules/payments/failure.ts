/**
 * Why a card payment failed, read from the gateway's answer (Ds_Response, redsys-notes §6), so the
 * result page can word it truthfully (review #14):
 * - `cancelled`: 9915, "A petición del usuario se ha cancelado el pago" (the customer pressed
 *   Cancel on the gateway's page);
 * - `declined`: the card or its bank said no: the denials 0101-0899 (0190 issuer denial, 0184
 *   authentication error, 0129 CVV2, 0101 expired card...) and the card-related 9xxx codes;
 * - `error`: anything else: a system or merchant error (0904, 0909, 0913, 0944, 9912...), or no
 *   answer at all (an attempt released because the gateway never received it).
 * - Bizum's KO (9966, redsys-notes §3) is a decline too: the bank said no in the Bizum app.
 */
export type PaymentFailure = 'declined' | 'cancelled' | 'error';

/** 9xxx answers about the card itself (redsys-notes §6): wrong number, card not allowed... */
const cardCodes = new Set([9064, 9078, 9093, 9094, 9253, 9257]);
/** 9966: Bizum answered KO (the customer's bank said no in the Bizum app; redsys-notes §3). */
const bizumDeclined = 9966;

export function failureOf(dsResponse: string | null): PaymentFailure {
  const text = dsResponse?.trim() ?? '';
  if (!/^\d{1,4}$/.test(text)) return 'error';
  const code = Number(text);
  if (code === 9915) return 'cancelled';
  if ((code >= 101 && code <= 899) || cardCodes.has(code) || code === bizumDeclined) {
    return 'declined';
  }
  return 'error';
}
