import { describe, expect, it } from 'vitest';
import {
  PUBLIC_TEST_MERCHANT,
  RedsysError,
  createRefundRequest,
  createRestResponse,
  decodeMerchantParameters,
  readRefundAnswer,
  verify,
} from './index.ts';

// Redsys' public test key (merchant 999008881): public test data, not a secret.
const KEY = PUBLIC_TEST_MERCHANT.secretKey;
const OTHER_KEY = 'Lk9m98IfEblmPfrpsawt7BmxObt98Jev';
const input = {
  secret: KEY,
  order: '1234abcd',
  merchantCode: '999008881',
  terminal: '1',
  amountCents: 1250,
};

describe('createRefundRequest (trataPeticionREST, type 3, notes §2)', () => {
  it('signs the six mandatory fields on the original order', () => {
    const request = createRefundRequest(input);
    expect(request.Ds_SignatureVersion).toBe('HMAC_SHA256_V1');
    expect(decodeMerchantParameters(request.Ds_MerchantParameters)).toEqual({
      DS_MERCHANT_ORDER: '1234abcd',
      DS_MERCHANT_MERCHANTCODE: '999008881',
      DS_MERCHANT_TERMINAL: '1',
      DS_MERCHANT_CURRENCY: '978',
      DS_MERCHANT_TRANSACTIONTYPE: '3',
      DS_MERCHANT_AMOUNT: '1250',
    });
    expect(verify('HMAC_SHA256_V1', KEY, request.Ds_MerchantParameters, request.Ds_Signature)).toBe(
      true,
    );
  });

  it.each([
    ['a zero amount', { amountCents: 0 }],
    ['a fractional amount', { amountCents: 12.5 }],
    ['an order without 4 digits', { order: 'abcd1234' }],
    ['a merchant code with letters', { merchantCode: 'x' }],
  ])('refuses %s', (_name, change) => {
    expect(() => createRefundRequest({ ...input, ...change })).toThrow(RedsysError);
  });
});

describe('readRefundAnswer', () => {
  const answer = (params: Record<string, string>, secret: string = KEY) =>
    createRestResponse({ version: 'HMAC_SHA256_V1', secret, params });
  const base = {
    Ds_Amount: '1250',
    Ds_Currency: '978',
    Ds_Order: '1234abcd',
    Ds_MerchantCode: '999008881',
    Ds_Terminal: '1',
    Ds_TransactionType: '3',
  };
  const check = { secret: KEY, order: '1234abcd' };

  it('reads 0900 as refunded, with the authorisation code', () => {
    const read = readRefundAnswer(
      answer({ ...base, Ds_Response: '0900', Ds_AuthorisationCode: '654321' }),
      check,
    );
    expect(read).toMatchObject({ kind: 'refunded', authorisationCode: '654321' });
  });

  it('reads any other Ds_Response as refused with its code', () => {
    expect(readRefundAnswer(answer({ ...base, Ds_Response: '0950' }), check)).toMatchObject({
      kind: 'refused',
      code: '0950',
    });
    // 0000 authorises a payment, not a refund.
    expect(readRefundAnswer(answer({ ...base, Ds_Response: '0000' }), check)).toMatchObject({
      kind: 'refused',
      code: '0000',
    });
  });

  it('reads the unsigned {"errorCode":"SISnnnn"}', () => {
    expect(readRefundAnswer({ errorCode: 'SIS0057' }, check)).toEqual({
      kind: 'error',
      code: 'SIS0057',
    });
  });

  it('refuses a bad signature, another order, another type and junk', () => {
    expect(readRefundAnswer(answer({ ...base, Ds_Response: '0900' }, OTHER_KEY), check)).toEqual({
      kind: 'bad_signature',
    });
    expect(
      readRefundAnswer(answer({ ...base, Ds_Order: '1234abce', Ds_Response: '0900' }), check),
    ).toMatchObject({ kind: 'malformed' });
    expect(
      readRefundAnswer(answer({ ...base, Ds_TransactionType: '0', Ds_Response: '0900' }), check),
    ).toMatchObject({ kind: 'malformed' });
    for (const junk of [null, 'OK', [], {}, { errorCode: 42 }, { errorCode: '<b>' }]) {
      expect(readRefundAnswer(junk, check)).toMatchObject({ kind: 'malformed' });
    }
  });
});
