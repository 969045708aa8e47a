import { describe, expect, it } from 'vitest';
import {
  CONSUMER_LANGUAGES,
  consumerLanguageOf,
  createPaymentRequest,
  getParameter,
  readPaymentRequest,
} from './index.ts';
import { PUBLIC_TEST_MERCHANT } from './test-merchant.ts';

describe('Ds_Merchant_ConsumerLanguage', () => {
  it("sends Redsys' codes for the portal's four languages", () => {
    expect(CONSUMER_LANGUAGES).toEqual({ es: '001', en: '002', ca: '003', eu: '013' });
  });

  it('reads each code back, padded or not; Valencian as Catalan', () => {
    for (const [language, code] of Object.entries(CONSUMER_LANGUAGES)) {
      expect(consumerLanguageOf(code)).toBe(language);
      expect(consumerLanguageOf(String(Number(code)))).toBe(language);
    }
    expect(consumerLanguageOf('010')).toBe('ca');
  });

  it('knows no other language, and no malformed or missing code', () => {
    for (const code of ['0', '004', '012', '14', '1000', '', ' ', 'eu', '-1', '1.0', undefined]) {
      expect(consumerLanguageOf(code)).toBeUndefined();
    }
  });

  it('travels signed in the merchant parameters, as the gateway reads it', () => {
    const signed = createPaymentRequest({
      version: 'HMAC_SHA256_V1',
      secret: PUBLIC_TEST_MERCHANT.secretKey,
      params: {
        Ds_Merchant_Amount: '1000',
        Ds_Merchant_Order: '1234abcdEFGH',
        Ds_Merchant_MerchantCode: PUBLIC_TEST_MERCHANT.merchantCode,
        Ds_Merchant_Currency: '978',
        Ds_Merchant_TransactionType: '0',
        Ds_Merchant_Terminal: '1',
        Ds_Merchant_ConsumerLanguage: CONSUMER_LANGUAGES.eu,
      },
    });
    const read = readPaymentRequest(signed, PUBLIC_TEST_MERCHANT.secretKey, ['HMAC_SHA256_V1']);
    if (!read.ok) throw new Error(read.reason);
    expect(consumerLanguageOf(getParameter(read.params, 'Ds_Merchant_ConsumerLanguage'))).toBe(
      'eu',
    );
  });
});
