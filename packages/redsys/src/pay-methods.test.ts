import { describe, expect, it } from 'vitest';
import {
  BIZUM_DECLINED,
  BIZUM_TRANSACTION_TYPES,
  PAY_METHODS,
  createNotification,
  createPaymentRequest,
  getParameter,
  isAuthorised,
  isBizumProcessed,
  isBizumRequest,
  readNotification,
  readPaymentRequest,
} from './index.ts';
import { PUBLIC_TEST_MERCHANT } from './test-merchant.ts';

const secret = PUBLIC_TEST_MERCHANT.secretKey;

describe('Bizum parameters (redsys-notes §3)', () => {
  it('selects Bizum with a lowercase z, PayPal with p', () => {
    expect(PAY_METHODS.bizum).toBe('z');
    expect(PAY_METHODS.paypal).toBe('p');
    expect(isBizumRequest('z')).toBe(true);
    expect(isBizumRequest('Z')).toBe(false);
    expect(isBizumRequest('C')).toBe(false);
    expect(isBizumRequest(undefined)).toBe(false);
  });

  it('allows only the transaction types Redsys takes for Bizum', () => {
    expect(BIZUM_TRANSACTION_TYPES).toEqual(['0', '7', '8']);
    expect(BIZUM_TRANSACTION_TYPES).not.toContain('1');
    expect(BIZUM_TRANSACTION_TYPES).not.toContain('3');
  });

  it('reads Ds_ProcessedPayMethod 68 as Bizum, and nothing else', () => {
    expect(isBizumProcessed('68')).toBe(true);
    expect(isBizumProcessed(' 68')).toBe(true);
    expect(isBizumProcessed('1')).toBe(false);
    expect(isBizumProcessed('680')).toBe(false);
    expect(isBizumProcessed(undefined)).toBe(false);
  });

  it('treats 9966 (Bizum KO) as not authorised', () => {
    expect(isAuthorised(BIZUM_DECLINED)).toBe(false);
  });

  it('signs a Bizum request like a card one: same fields, Ds_Merchant_PayMethods=z kept', () => {
    const params = {
      Ds_Merchant_Amount: '4500',
      Ds_Merchant_Order: '1234abcd0001',
      Ds_Merchant_MerchantCode: PUBLIC_TEST_MERCHANT.merchantCode,
      Ds_Merchant_Currency: '978',
      Ds_Merchant_TransactionType: '0',
      Ds_Merchant_Terminal: PUBLIC_TEST_MERCHANT.terminal,
      Ds_Merchant_PayMethods: PAY_METHODS.bizum,
    };
    const signed = createPaymentRequest({ version: 'HMAC_SHA256_V1', secret, params });
    const read = readPaymentRequest(signed, secret, ['HMAC_SHA256_V1']);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(getParameter(read.params, 'Ds_Merchant_PayMethods')).toBe('z');
    // Tampering with the method breaks the signature: it is part of the signed parameters.
    const other = createPaymentRequest({
      version: 'HMAC_SHA256_V1',
      secret,
      params: { ...params, Ds_Merchant_PayMethods: 'C' },
    });
    const forged = { ...signed, Ds_MerchantParameters: other.Ds_MerchantParameters };
    expect(readPaymentRequest(forged, secret, ['HMAC_SHA256_V1']).ok).toBe(false);
  });

  it('a Bizum notification verifies like a card one and carries no card data', () => {
    const signed = createNotification({
      version: 'HMAC_SHA256_V1',
      secret,
      params: {
        Ds_Order: '1234abcd0001',
        Ds_Amount: '4500',
        Ds_Response: '0000',
        Ds_ProcessedPayMethod: '68',
      },
    });
    const read = readNotification(signed, secret, ['HMAC_SHA256_V1']);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(isBizumProcessed(read.params.Ds_ProcessedPayMethod)).toBe(true);
    expect(read.params.Ds_Card_Number).toBeUndefined();
  });
});
