import { amountToRedsys } from './amount.ts';
import { RedsysError } from './errors.ts';
import type { MerchantParameters } from './merchant-parameters.ts';
import { createPaymentRequest } from './messages.ts';
import type { SignedMessage } from './messages.ts';
import { isValidOrderNumber } from './order-number.ts';
import { isAuthorised } from './response-codes.ts';
import { readRestAnswer } from './rest-answer.ts';

/*
 * A merchant-initiated (MIT) charge of a card on file, server to server through the REST service
 * `trataPeticionREST` (redsys-notes §4.2): a plain authorisation (type 0) on a NEW order, with the
 * reference Redsys issued when the customer saved the card under SCA (Ds_Merchant_Identifier), the
 * scheme's transaction id of that first operation (COF_TXNID), COF_INI=N, the MIT exemption and
 * DIRECTPAYMENT=true (no 3DS step). The fields are those of redsys-easy's sandbox test and
 * SinergiaCRM's production charge (L1, L9); S6 §4.2 says sending COF_INI/COF_TXNID with a reference
 * is never a reason for rejection.
 */

/** COF_TYPE: `I` instalments of one purchase (S6 §3.1), `R` recurring (a subscription). */
export type CofType = 'I' | 'R' | 'C';

export type MitChargeInput = {
  secret: string;
  /** A new order: 4 digits then up to 8 alphanumerics (newOrderNumber). */
  order: string;
  merchantCode: string;
  terminal: string;
  amountCents: number;
  /** Ds_Merchant_Identifier of the saved card. */
  identifier: string;
  /** Ds_Merchant_Cof_Txnid of the customer-present operation that saved it. */
  cofTxnid: string;
  cofType?: CofType;
  currency?: string;
};

/**
 * The signed JSON body of an MIT charge, HMAC_SHA256_V1 (the version documented for REST).
 * Throws `RedsysError` on a bad value.
 */
export function createMitChargeRequest(input: MitChargeInput): SignedMessage {
  const { order, merchantCode, terminal, amountCents, currency = '978', secret } = input;
  if (typeof order !== 'string' || !isValidOrderNumber(order)) {
    throw new RedsysError('INVALID_CHARGE', 'The order is 4 digits then alphanumerics');
  }
  if (!/^\d{1,9}$/.test(merchantCode) || !/^\d{1,3}$/.test(terminal)) {
    throw new RedsysError('INVALID_CHARGE', 'Merchant code and terminal are digits');
  }
  if (!/^\d{3}$/.test(currency)) throw new RedsysError('INVALID_CHARGE', 'Currency is 3 digits');
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) {
    throw new RedsysError('INVALID_CHARGE', 'An MIT charge is of a positive amount');
  }
  if (!/^[0-9A-Za-z]{1,64}$/.test(input.identifier) || input.identifier === 'REQUIRED') {
    throw new RedsysError('INVALID_CHARGE', 'The card reference is alphanumeric');
  }
  if (!/^[0-9A-Za-z]{1,40}$/.test(input.cofTxnid)) {
    throw new RedsysError('INVALID_CHARGE', 'The COF transaction id is alphanumeric');
  }
  return createPaymentRequest({
    version: 'HMAC_SHA256_V1',
    secret,
    params: {
      DS_MERCHANT_ORDER: order,
      DS_MERCHANT_MERCHANTCODE: merchantCode,
      DS_MERCHANT_TERMINAL: terminal,
      DS_MERCHANT_CURRENCY: currency,
      DS_MERCHANT_TRANSACTIONTYPE: '0',
      DS_MERCHANT_AMOUNT: amountToRedsys(amountCents),
      DS_MERCHANT_IDENTIFIER: input.identifier,
      DS_MERCHANT_COF_INI: 'N',
      DS_MERCHANT_COF_TYPE: input.cofType ?? 'I',
      DS_MERCHANT_COF_TXNID: input.cofTxnid,
      DS_MERCHANT_EXCEP_SCA: 'MIT',
      DS_MERCHANT_DIRECTPAYMENT: 'true',
    },
  });
}

export type MitChargeAnswer =
  /** Ds_Response 0000-0099: the card was charged. `params` are the answer's, as a notification's. */
  | {
      kind: 'authorised';
      code: string;
      authorisationCode: string | null;
      params: MerchantParameters;
    }
  /** A signed answer with another Ds_Response (0190 issuer denial, 0195 needs SCA...). */
  | { kind: 'declined'; code: string; params: MerchantParameters }
  /** Redsys' unsigned `{"errorCode":"SISnnnn"}`: refused before any operation (SIS0617...). */
  | { kind: 'error'; code: string }
  | { kind: 'bad_signature' }
  | { kind: 'malformed'; detail: string };

/**
 * Reads the answer to an MIT charge of `order`: a signed message must verify with the merchant's
 * key, name the same order and be of type 0 (when it says). Never throws.
 */
export function readMitChargeAnswer(
  body: unknown,
  check: { secret: string; order: string },
): MitChargeAnswer {
  const answer = readRestAnswer(body, { ...check, type: '0', typeName: 'payment' });
  if (answer.kind !== 'read') return answer;
  const { params, param, response } = answer;
  if (isAuthorised(response)) {
    return {
      kind: 'authorised',
      code: response,
      authorisationCode: param('Ds_AuthorisationCode') || null,
      params,
    };
  }
  return { kind: 'declined', code: response || 'none', params };
}
