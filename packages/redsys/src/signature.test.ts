import { describe, expect, it } from 'vitest';
import {
  PUBLIC_TEST_MERCHANT,
  SIGNATURE_VERSIONS,
  createNotification,
  createPaymentRequest,
  readNotification,
  readPaymentRequest,
  sign,
  verify,
} from './index.ts';
import type { SignatureVersion } from './index.ts';

const KEY = PUBLIC_TEST_MERCHANT.secretKey;
// Another valid 24-byte base64 key (redsys-easy's "incorrect" fixture key).
const OTHER_KEY = 'Lk9m98IfEblmPfrpsawt7BmxObt98Jev';

const requestParams = {
  Ds_Merchant_Amount: '12345',
  Ds_Merchant_Order: '4821aBcD9xYz',
  Ds_Merchant_MerchantCode: '999008881',
  Ds_Merchant_Terminal: '1',
  Ds_Merchant_Currency: '978',
  Ds_Merchant_TransactionType: '0',
};

/** Replaces the character at `index` with a different one of the same alphabet. */
function changeCharAt(text: string, index: number): string {
  const current = text[index];
  const replacement = current === 'A' ? 'B' : 'A';
  return text.slice(0, index) + replacement + text.slice(index + 1);
}

describe.each(SIGNATURE_VERSIONS)('%s', (version: SignatureVersion) => {
  const request = createPaymentRequest({ version, secret: KEY, params: requestParams });

  it('verifies its own request, in either alphabet, with or without padding', () => {
    const { Ds_MerchantParameters: params, Ds_Signature: signature } = request;
    expect(verify(version, KEY, params, signature)).toBe(true);
    const bytes = Buffer.from(signature, 'base64');
    expect(verify(version, KEY, params, bytes.toString('base64'))).toBe(true);
    expect(verify(version, KEY, params, bytes.toString('base64url'))).toBe(true);
    const urlSafePadded = bytes.toString('base64').replaceAll('+', '-').replaceAll('/', '_');
    expect(verify(version, KEY, params, urlSafePadded)).toBe(true);
    expect(
      verify(version, KEY, Buffer.from(params, 'base64').toString('base64url'), signature),
    ).toBe(
      false, // the signature covers the exact string sent, not its decoded JSON
    );
  });

  it('fails when any single character of the parameters changes', () => {
    const { Ds_MerchantParameters: params, Ds_Signature: signature } = request;
    for (let i = 0; i < params.length; i += 1) {
      if (params[i] === '=') continue;
      expect(verify(version, KEY, changeCharAt(params, i), signature)).toBe(false);
    }
  });

  it('fails when any single character of the signature changes', () => {
    const { Ds_MerchantParameters: params, Ds_Signature: signature } = request;
    for (let i = 0; i < signature.length; i += 1) {
      if (signature[i] === '=') continue;
      expect(verify(version, KEY, params, changeCharAt(signature, i))).toBe(false);
    }
  });

  it('fails with another key, another version, or a truncated signature', () => {
    const { Ds_MerchantParameters: params, Ds_Signature: signature } = request;
    expect(verify(version, OTHER_KEY, params, signature)).toBe(false);
    const otherVersion = version === 'HMAC_SHA256_V1' ? 'HMAC_SHA512_V2' : 'HMAC_SHA256_V1';
    expect(verify(otherVersion, KEY, params, signature)).toBe(false);
    expect(verify(version, KEY, params, signature.slice(0, 20))).toBe(false);
    expect(verify(version, KEY, params, `${signature}AAAA`)).toBe(false);
  });

  it('signs a notification keyed on Ds_Order that readNotification accepts', () => {
    const notification = createNotification({
      version,
      secret: KEY,
      params: { Ds_Order: '4821aBcD9xYz', Ds_Response: '0000', Ds_Date: '01%2F02%2F2026' },
    });
    expect(notification.Ds_Signature).not.toMatch(/[+/]/);
    const read = readNotification(notification, KEY, [version]);
    expect(read).toEqual({
      ok: true,
      version,
      params: { Ds_Order: '4821aBcD9xYz', Ds_Response: '0000', Ds_Date: '01/02/2026' },
    });
  });
});

describe('garbage never throws and never verifies', () => {
  const request = createPaymentRequest({
    version: 'HMAC_SHA256_V1',
    secret: KEY,
    params: requestParams,
  });
  const cases: [string, unknown[]][] = [
    ['unknown version', ['HMAC_SHA1_V0', KEY, request.Ds_MerchantParameters, request.Ds_Signature]],
    ['empty signature', ['HMAC_SHA256_V1', KEY, request.Ds_MerchantParameters, '']],
    ['not base64 signature', ['HMAC_SHA256_V1', KEY, request.Ds_MerchantParameters, '!!!*']],
    ['not base64 parameters', ['HMAC_SHA256_V1', KEY, '%%%', request.Ds_Signature]],
    ['base64 of non-JSON', ['HMAC_SHA256_V1', KEY, 'aGVsbG8=', request.Ds_Signature]],
    ['JSON array', ['HMAC_SHA256_V1', KEY, 'WzFd', request.Ds_Signature]],
    ['no order', ['HMAC_SHA256_V1', KEY, 'e30=', request.Ds_Signature]],
    [
      'bad V1 key',
      ['HMAC_SHA256_V1', 'short', request.Ds_MerchantParameters, request.Ds_Signature],
    ],
    ['empty key', ['HMAC_SHA512_V2', '', request.Ds_MerchantParameters, request.Ds_Signature]],
    ['non-strings', ['HMAC_SHA256_V1', KEY, 42, null]],
  ];
  it.each(cases)('%s', (_name, args) => {
    expect(() => (verify as (...a: unknown[]) => boolean)(...args)).not.toThrow();
    expect((verify as (...a: unknown[]) => boolean)(...args)).toBe(false);
  });

  it('readNotification reports why, without throwing', () => {
    const good = createNotification({
      version: 'HMAC_SHA512_V2',
      secret: KEY,
      params: { Ds_Order: '1234abcd', Ds_Response: '0000' },
    });
    const read = (input: unknown, versions: SignatureVersion[] = ['HMAC_SHA512_V2']) =>
      readNotification(input as Parameters<typeof readNotification>[0], KEY, versions);
    expect(read(good)).toMatchObject({ ok: true });
    expect(read({})).toEqual({ ok: false, reason: 'MISSING_FIELDS' });
    expect(read(null)).toEqual({ ok: false, reason: 'MISSING_FIELDS' });
    expect(read({ ...good, Ds_Signature: ['a', 'b'] })).toEqual({
      ok: false,
      reason: 'MISSING_FIELDS',
    });
    expect(read({ ...good, Ds_SignatureVersion: 'HMAC_SHA1' })).toEqual({
      ok: false,
      reason: 'UNKNOWN_VERSION',
    });
    expect(read(good, ['HMAC_SHA256_V1'])).toEqual({ ok: false, reason: 'VERSION_NOT_ALLOWED' });
    expect(read({ ...good, Ds_MerchantParameters: 'not base64!' })).toEqual({
      ok: false,
      reason: 'MALFORMED_PARAMETERS',
    });
    expect(read({ ...good, Ds_Signature: changeCharAt(good.Ds_Signature, 0) })).toEqual({
      ok: false,
      reason: 'BAD_SIGNATURE',
    });
    expect(readNotification(good, OTHER_KEY, ['HMAC_SHA512_V2'])).toEqual({
      ok: false,
      reason: 'BAD_SIGNATURE',
    });
  });

  it('a request is not a notification and vice versa (the order field differs)', () => {
    const asRequest = createPaymentRequest({
      version: 'HMAC_SHA512_V2',
      secret: KEY,
      params: requestParams,
    });
    expect(readNotification(asRequest, KEY, ['HMAC_SHA512_V2'])).toEqual({
      ok: false,
      reason: 'MISSING_ORDER',
    });
    expect(readPaymentRequest(asRequest, KEY, ['HMAC_SHA512_V2'])).toMatchObject({ ok: true });
  });

  it('sign refuses an empty order or a secret that is not a 3DES key', () => {
    expect(() => sign('HMAC_SHA256_V1', KEY, '', 'e30=')).toThrow(
      expect.objectContaining({ code: 'MISSING_ORDER' }),
    );
    expect(() => sign('HMAC_SHA256_V1', 'c2hvcnQ=', '1234', 'e30=')).toThrow(
      expect.objectContaining({ code: 'INVALID_SECRET' }),
    );
    expect(() =>
      createPaymentRequest({ version: 'HMAC_SHA256_V1', secret: KEY, params: { a: 'b' } }),
    ).toThrow(expect.objectContaining({ code: 'MISSING_ORDER' }));
  });
});
