import { PUBLIC_TEST_MERCHANT, createPaymentRequest, newOrderNumber } from '@portal/redsys';
import type { SignatureVersion, SignedMessage } from '@portal/redsys';

export const URL_OK = 'http://shop.localhost/payment/result?outcome=ok';
export const URL_KO = 'http://shop.localhost/payment/result?outcome=ko';

/** Request parameters as the portal sends them, for the public test merchant. */
export function paymentParams(merchantUrl: string, overrides: Record<string, string> = {}) {
  return {
    Ds_Merchant_Amount: '12345',
    Ds_Merchant_Currency: '978',
    Ds_Merchant_Order: newOrderNumber(),
    Ds_Merchant_MerchantCode: PUBLIC_TEST_MERCHANT.merchantCode,
    Ds_Merchant_Terminal: '1',
    Ds_Merchant_TransactionType: '0',
    Ds_Merchant_MerchantName: 'Gestoría Ejemplo',
    Ds_Merchant_MerchantURL: merchantUrl,
    Ds_Merchant_UrlOK: URL_OK,
    Ds_Merchant_UrlKO: URL_KO,
    Ds_Merchant_ConsumerLanguage: '001',
    ...overrides,
  };
}

/** The browser's form POST body, signed with the given key (the test merchant's by default). */
export function signedForm(
  params: Record<string, string>,
  version: SignatureVersion = 'HMAC_SHA256_V1',
  secret: string = PUBLIC_TEST_MERCHANT.secretKey,
): SignedMessage {
  return createPaymentRequest({ version, secret, params });
}

export function formBody(fields: Readonly<Record<string, string>>): string {
  return new URLSearchParams(fields).toString();
}

/** The action of the page's (single) form. */
export function formAction(html: string): string {
  const match = /<form[^>]*action="([^"]+)"/.exec(html);
  if (!match?.[1]) throw new Error('No form on the page');
  return match[1];
}

/** A value the test needs to exist (fails the test, instead of asserting with `!`). */
export function present<T>(value: T | undefined | null, what = 'value'): T {
  if (value === undefined || value === null) throw new Error(`missing ${what}`);
  return value;
}
