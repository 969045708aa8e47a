import { describe, expect, it } from 'vitest';
import { RedsysError, decodeMerchantParameters, getParameter } from './index.ts';

const json = { Ds_Merchant_Order: '1234ab?>', Ds_Merchant_Amount: '100' };
const standard = Buffer.from(JSON.stringify(json)).toString('base64');

describe('decodeMerchantParameters', () => {
  it('reads the standard and the URL-safe alphabet, padded or not', () => {
    expect(standard).toMatch(/[+/]/);
    expect(standard).toMatch(/=$/);
    const urlSafe = Buffer.from(JSON.stringify(json)).toString('base64url');
    expect(decodeMerchantParameters(standard)).toEqual(json);
    expect(decodeMerchantParameters(standard.replace(/=+$/, ''))).toEqual(json);
    expect(decodeMerchantParameters(urlSafe)).toEqual(json);
    expect(decodeMerchantParameters(`${urlSafe}=`)).toEqual(json);
  });

  it('turns non-string values into strings and keeps a "__proto__" key harmless', () => {
    const encoded = Buffer.from(
      '{"a":1,"b":true,"c":null,"d":{"x":"y"},"__proto__":{"polluted":"yes"}}',
    ).toString('base64');
    const params = decodeMerchantParameters(encoded);
    expect(params).toMatchObject({ a: '1', b: 'true', c: '', d: '{"x":"y"}' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(params)).toBe(Object.prototype);
  });

  it.each([
    ['empty', ''],
    ['not base64', 'e30=!'],
    ['impossible length', 'e30=e'],
    ['not JSON', Buffer.from('hello').toString('base64')],
    ['JSON string', Buffer.from('"x"').toString('base64')],
    ['JSON null', Buffer.from('null').toString('base64')],
    ['JSON array', Buffer.from('[]').toString('base64')],
    ['invalid UTF-8', Buffer.from([0x7b, 0xff, 0x7d]).toString('base64')],
  ])('throws a typed error on %s', (_name, encoded) => {
    expect(() => decodeMerchantParameters(encoded)).toThrow(RedsysError);
    expect(() => decodeMerchantParameters(encoded)).toThrow(
      expect.objectContaining({ code: 'INVALID_MERCHANT_PARAMETERS' }),
    );
  });
});

describe('getParameter', () => {
  it('ignores case, preferring the exact spelling', () => {
    expect(getParameter({ DS_MERCHANT_ORDER: '1' }, 'Ds_Merchant_Order')).toBe('1');
    expect(
      getParameter({ ds_merchant_order: '2', Ds_Merchant_Order: '3' }, 'Ds_Merchant_Order'),
    ).toBe('3');
    expect(getParameter({}, 'Ds_Order')).toBeUndefined();
  });
});
