import { describe, expect, it } from 'vitest';
import {
  PUBLIC_TEST_MERCHANT,
  RedsysError,
  createMitChargeRequest,
  createRestResponse,
  decodeMerchantParameters,
  readMitChargeAnswer,
  verify,
} from './index.ts';

// Redsys' public test key (merchant 999008881): public test data, not a secret.
const KEY = PUBLIC_TEST_MERCHANT.secretKey;
const OTHER_KEY = 'Lk9m98IfEblmPfrpsawt7BmxObt98Jev';
const input = {
  secret: KEY,
  order: '1234abcd5678',
  merchantCode: '999008881',
  terminal: '1',
  amountCents: 4990,
  identifier: '621577ab876150af68fcfa97eaab80886508c7e3',
  cofTxnid: '2110222140220',
};

describe('createMitChargeRequest (trataPeticionREST, MIT card on file, notes §4.2)', () => {
  it('signs a type-0 authorisation with the reference, COF data and the MIT exemption', () => {
    const request = createMitChargeRequest(input);
    expect(request.Ds_SignatureVersion).toBe('HMAC_SHA256_V1');
    expect(decodeMerchantParameters(request.Ds_MerchantParameters)).toEqual({
      DS_MERCHANT_ORDER: '1234abcd5678',
      DS_MERCHANT_MERCHANTCODE: '999008881',
      DS_MERCHANT_TERMINAL: '1',
      DS_MERCHANT_CURRENCY: '978',
      DS_MERCHANT_TRANSACTIONTYPE: '0',
      DS_MERCHANT_AMOUNT: '4990',
      DS_MERCHANT_IDENTIFIER: '621577ab876150af68fcfa97eaab80886508c7e3',
      DS_MERCHANT_COF_INI: 'N',
      DS_MERCHANT_COF_TYPE: 'I',
      DS_MERCHANT_COF_TXNID: '2110222140220',
      DS_MERCHANT_EXCEP_SCA: 'MIT',
      DS_MERCHANT_DIRECTPAYMENT: 'true',
    });
    expect(verify('HMAC_SHA256_V1', KEY, request.Ds_MerchantParameters, request.Ds_Signature)).toBe(
      true,
    );
  });

  it('marks a recurring charge when asked', () => {
    const request = createMitChargeRequest({ ...input, cofType: 'R' });
    expect(decodeMerchantParameters(request.Ds_MerchantParameters).DS_MERCHANT_COF_TYPE).toBe('R');
  });

  it.each([
    ['a zero amount', { amountCents: 0 }],
    ['a fractional amount', { amountCents: 12.5 }],
    ['an order without 4 digits', { order: 'abcd1234' }],
    ['a merchant code with letters', { merchantCode: 'x' }],
    ['the first operation marker as reference', { identifier: 'REQUIRED' }],
    ['an empty reference', { identifier: '' }],
    ['no COF transaction id', { cofTxnid: '' }],
    ['a COF transaction id with symbols', { cofTxnid: '12;34' }],
  ])('refuses %s', (_name, change) => {
    expect(() => createMitChargeRequest({ ...input, ...change })).toThrow(RedsysError);
  });
});

describe('readMitChargeAnswer', () => {
  const answer = (params: Record<string, string>, secret: string = KEY) =>
    createRestResponse({ version: 'HMAC_SHA256_V1', secret, params });
  const base = {
    Ds_Amount: '4990',
    Ds_Currency: '978',
    Ds_Order: '1234abcd5678',
    Ds_MerchantCode: '999008881',
    Ds_Terminal: '1',
    Ds_TransactionType: '0',
  };
  const check = { secret: KEY, order: '1234abcd5678' };

  it('reads 0000-0099 as authorised, with the authorisation code', () => {
    const read = readMitChargeAnswer(
      answer({ ...base, Ds_Response: '0000', Ds_AuthorisationCode: '123456' }),
      check,
    );
    expect(read).toMatchObject({ kind: 'authorised', code: '0000', authorisationCode: '123456' });
    expect(readMitChargeAnswer(answer({ ...base, Ds_Response: '0099' }), check).kind).toBe(
      'authorised',
    );
  });

  it.each(['0190', '0195', '0101', '0100', '0900', '9999'])('reads %s as declined', (code) => {
    expect(readMitChargeAnswer(answer({ ...base, Ds_Response: code }), check)).toMatchObject({
      kind: 'declined',
      code,
    });
  });

  it("reads Redsys' unsigned error", () => {
    expect(readMitChargeAnswer({ errorCode: 'SIS0617' }, check)).toEqual({
      kind: 'error',
      code: 'SIS0617',
    });
  });

  it('refuses a forged, foreign or odd answer', () => {
    expect(
      readMitChargeAnswer(answer({ ...base, Ds_Response: '0000' }, OTHER_KEY), check).kind,
    ).toBe('bad_signature');
    expect(
      readMitChargeAnswer(answer({ ...base, Ds_Order: '9999abcd5678', Ds_Response: '0000' }), check)
        .kind,
    ).toBe('malformed');
    expect(
      readMitChargeAnswer(answer({ ...base, Ds_TransactionType: '3', Ds_Response: '0000' }), check)
        .kind,
    ).toBe('malformed');
    expect(readMitChargeAnswer('<html>', check).kind).toBe('malformed');
    expect(readMitChargeAnswer([], check).kind).toBe('malformed');
    expect(readMitChargeAnswer({ errorCode: '<script>' }, check).kind).toBe('malformed');
  });
});
