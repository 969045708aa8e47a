/**
 * Ds_Merchant_PayMethods: which of the gateway's methods the payment page offers (redsys-notes §3).
 * Bizum is a lowercase `z` in every Redsys document and library (S3, S7, creagia/redsys-php,
 * Odoo, OCA); only one acquirer's page writes `Z`. PayPal is `p` (creagia `PayMethod::PayPal`).
 * Bizum through redirection takes transaction types 0, 7 and 8 only (S3 PAYMETHODS sheet).
 */
export const PAY_METHODS = { card: 'C', bizum: 'z', paypal: 'p' } as const;
export type PayMethodCode = (typeof PAY_METHODS)[keyof typeof PAY_METHODS];

/** Transaction types Redsys accepts with Ds_Merchant_PayMethods=z (S3 PAYMETHODS sheet). */
export const BIZUM_TRANSACTION_TYPES: readonly string[] = ['0', '7', '8'];

/**
 * Ds_ProcessedPayMethod of a notification: what the customer actually paid with. 68 is Bizum
 * (creagia/redsys-php `ProcessedPayMethod::Bizum`, the only source for the value); 1 a card.
 */
export const PROCESSED_PAY_METHOD = { card: '1', bizum: '68' } as const;

/** Whether a payment request asks for Bizum (its Ds_Merchant_PayMethods, as sent). */
export function isBizumRequest(payMethods: string | undefined): boolean {
  return payMethods === PAY_METHODS.bizum;
}

/** Whether a notification says the customer paid with Bizum (Ds_ProcessedPayMethod 68). */
export function isBizumProcessed(processedPayMethod: string | undefined): boolean {
  return processedPayMethod?.trim() === PROCESSED_PAY_METHOD.bizum;
}

/**
 * Ds_Response 9966: "Bizum returned KO on the authorisation" (S3, redsys-easy's error codes): the
 * customer's bank, in the Bizum app, said no. A decline, like a card's 0190.
 */
export const BIZUM_DECLINED = '9966';
