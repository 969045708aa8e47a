import { amountToRedsys } from './amount.ts';
import { RedsysError } from './errors.ts';
import type { MerchantParameters } from './merchant-parameters.ts';
import { createPaymentRequest } from './messages.ts';
import type { SignedMessage } from './messages.ts';
import { readRestAnswer } from './rest-answer.ts';

/*
 * A refund (devolución, transaction type 3) sent server to server through the REST service
 * `trataPeticionREST` (redsys-notes §2): a signed JSON on the ORIGINAL order; Ds_Response 0900
 * means refunded. Refunds of one order add up, up to the amount paid.
 */

/** Path of the REST operations service on Redsys' hosts (and the simulator). */
export const REST_SERVICE_PATH = '/sis/rest/trataPeticionREST';
/** Ds_Response of an accepted refund or confirmation. */
export const REFUND_APPROVED = '0900';

export type RefundRequestInput = {
  secret: string;
  /** The original payment's Ds_Merchant_Order: the per-order key is that payment's. */
  order: string;
  merchantCode: string;
  terminal: string;
  amountCents: number;
  /** ISO 4217 numeric; the portal charges euros (978). */
  currency?: string;
};

/**
 * The signed JSON body of a type-3 request, with only the six mandatory fields (S5 §8.3), signed
 * HMAC_SHA256_V1 (the version documented for REST). Throws `RedsysError` on a bad value.
 */
export function createRefundRequest(input: RefundRequestInput): SignedMessage {
  const { order, merchantCode, terminal, amountCents, currency = '978', secret } = input;
  if (typeof order !== 'string' || !/^\d{4}[0-9A-Za-z]{0,8}$/.test(order)) {
    throw new RedsysError('INVALID_REFUND', 'The original order is 4 digits then alphanumerics');
  }
  if (!/^\d{1,9}$/.test(merchantCode) || !/^\d{1,3}$/.test(terminal)) {
    throw new RedsysError('INVALID_REFUND', 'Merchant code and terminal are digits');
  }
  if (!/^\d{3}$/.test(currency)) throw new RedsysError('INVALID_REFUND', 'Currency is 3 digits');
  return createPaymentRequest({
    version: 'HMAC_SHA256_V1',
    secret,
    params: {
      DS_MERCHANT_ORDER: order,
      DS_MERCHANT_MERCHANTCODE: merchantCode,
      DS_MERCHANT_TERMINAL: terminal,
      DS_MERCHANT_CURRENCY: currency,
      DS_MERCHANT_TRANSACTIONTYPE: '3',
      DS_MERCHANT_AMOUNT: amountToRedsys(amountCents),
    },
  });
}

export type RefundAnswer =
  | { kind: 'refunded'; authorisationCode: string | null; params: MerchantParameters }
  /** A signed answer with another Ds_Response (0950 refund not allowed, ...). */
  | { kind: 'refused'; code: string; params: MerchantParameters }
  /** Redsys' unsigned `{"errorCode":"SISnnnn"}`: the request was refused before any operation. */
  | { kind: 'error'; code: string }
  | { kind: 'bad_signature' }
  | { kind: 'malformed'; detail: string };

/**
 * Reads the answer to a refund request for `order`: a signed message must verify with the
 * merchant's key, name the same order and be of type 3 (when it says). Never throws.
 */
export function readRefundAnswer(
  body: unknown,
  check: { secret: string; order: string },
): RefundAnswer {
  const answer = readRestAnswer(body, { ...check, type: '3', typeName: 'refund' });
  if (answer.kind !== 'read') return answer;
  const { params, param, response } = answer;
  if (response === REFUND_APPROVED) {
    return {
      kind: 'refunded',
      authorisationCode: param('Ds_AuthorisationCode') || null,
      params,
    };
  }
  return { kind: 'refused', code: response || 'none', params };
}
