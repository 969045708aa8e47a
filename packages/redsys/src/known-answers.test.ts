import { describe, expect, it } from 'vitest';
import {
  createPaymentRequest,
  decodeMerchantParameters,
  deriveOrderKey,
  encodeMerchantParameters,
  readNotification,
  sign,
  verify,
} from './index.ts';

/*
 * Known answers from public Redsys examples. Every key below is public test data published by
 * Redsys for its test environment (merchant 999008881), not a secret.
 */

// Redsys' public test key for merchant 999008881, terminal 1 (sis-t.redsys.es).
const TEST_KEY = 'sq7HjrUOBfKmC576ILgskD5srU870gJ7';
// The older key of Redsys' own API examples (terminal 871), used by the node port of its API.
const EXAMPLE_KEY = 'Mk9m98IfEblmPfrpsawt7BmxObt98Jev';

describe('HMAC_SHA256_V1, the node port of Redsys API (santiperez/node-redsys-api test/data)', () => {
  const requestParams =
    'eyJEU19NRVJDSEFOVF9BTU9VTlQiOiIxNDUiLCJEU19NRVJDSEFOVF9PUkRFUiI6IjEiLCJEU19NRVJDSEFOVF9NRVJDSEFOVENPREUiOiI5OTkwMDg4ODEiLCJEU19NRVJDSEFOVF9DVVJSRU5DWSI6Ijk3OCIsIkRTX01FUkNIQU5UX1RSQU5TQUNUSU9OVFlQRSI6IjAiLCJEU19NRVJDSEFOVF9URVJNSU5BTCI6Ijg3MSIsIkRTX01FUkNIQU5UX01FUkNIQU5UVVJMIjoiIiwiRFNfTUVSQ0hBTlRfVVJMT0siOiIiLCJEU19NRVJDSEFOVF9VUkxLTyI6IiJ9';
  const responseParams =
    'eyJEc19EYXRlIjoiMDklMkYxMSUyRjIwMTUiLCJEc19Ib3VyIjoiMTglM0EwMyIsIkRzX1NlY3VyZVBheW1lbnQiOiIwIiwiRHNfQ2FyZF9Db3VudHJ5IjoiNzI0IiwiRHNfQW1vdW50IjoiMTQ1IiwiRHNfQ3VycmVuY3kiOiI5NzgiLCJEc19PcmRlciI6IjAwNjkiLCJEc19NZXJjaGFudENvZGUiOiI5OTkwMDg4ODEiLCJEc19UZXJtaW5hbCI6Ijg3MSIsIkRzX1Jlc3BvbnNlIjoiMDAwMCIsIkRzX01lcmNoYW50RGF0YSI6IiIsIkRzX1RyYW5zYWN0aW9uVHlwZSI6IjAiLCJEc19Db25zdW1lckxhbmd1YWdlIjoiMSIsIkRzX0F1dGhvcmlzYXRpb25Db2RlIjoiMDgyMTUwIn0=';
  const responseSignature = '6DVpRPAPoChZh2cgaWnLqlfFsKeXdRfAO_tz-UrxJcU=';

  it('derives the 3DES order key and signs the request', () => {
    expect(deriveOrderKey('HMAC_SHA256_V1', EXAMPLE_KEY, '1').toString('base64')).toBe(
      'Lr6bLJYWKrk=',
    );
    const request = createPaymentRequest({
      version: 'HMAC_SHA256_V1',
      secret: EXAMPLE_KEY,
      params: {
        DS_MERCHANT_AMOUNT: '145',
        DS_MERCHANT_ORDER: '1',
        DS_MERCHANT_MERCHANTCODE: '999008881',
        DS_MERCHANT_CURRENCY: '978',
        DS_MERCHANT_TRANSACTIONTYPE: '0',
        DS_MERCHANT_TERMINAL: '871',
        DS_MERCHANT_MERCHANTURL: '',
        DS_MERCHANT_URLOK: '',
        DS_MERCHANT_URLKO: '',
      },
    });
    expect(request).toEqual({
      Ds_SignatureVersion: 'HMAC_SHA256_V1',
      Ds_MerchantParameters: requestParams,
      Ds_Signature: '3TEI5WyvHf1D/whByt1ENgFH/HPIP9UFuB6LkCYgj+E=',
    });
  });

  it('verifies the response and reads it URL-decoded', () => {
    expect(verify('HMAC_SHA256_V1', EXAMPLE_KEY, responseParams, responseSignature)).toBe(true);
    const read = readNotification(
      {
        Ds_SignatureVersion: 'HMAC_SHA256_V1',
        Ds_MerchantParameters: responseParams,
        Ds_Signature: responseSignature,
      },
      EXAMPLE_KEY,
      ['HMAC_SHA256_V1'],
    );
    expect(read).toEqual({
      ok: true,
      version: 'HMAC_SHA256_V1',
      params: {
        Ds_Date: '09/11/2015',
        Ds_Hour: '18:03',
        Ds_SecurePayment: '0',
        Ds_Card_Country: '724',
        Ds_Amount: '145',
        Ds_Currency: '978',
        Ds_Order: '0069',
        Ds_MerchantCode: '999008881',
        Ds_Terminal: '871',
        Ds_Response: '0000',
        Ds_MerchantData: '',
        Ds_TransactionType: '0',
        Ds_ConsumerLanguage: '1',
        Ds_AuthorisationCode: '082150',
      },
    });
  });
});

// Exchanges recorded against Redsys' test environment with the public test key, kept as
// fixtures by redsys-easy (javiertury/redsys-easy, test/fixtures/rest/redirect*.ts).
describe('HMAC_SHA256_V1, the public test merchant 999008881 / terminal 1 (sis-t exchanges)', () => {
  const request = {
    DS_MERCHANT_TRANSACTIONTYPE: '0',
    DS_MERCHANT_ORDER: '0726qI3H7sZx',
    DS_MERCHANT_MERCHANTCODE: '999008881',
    DS_MERCHANT_TERMINAL: '1',
    DS_MERCHANT_AMOUNT: '4999',
    DS_MERCHANT_CURRENCY: '978',
    DS_MERCHANT_MERCHANTURL: 'http://www.prueba.com/urlNotificacion.php',
    DS_MERCHANT_URLOK: 'http://www.prueba.com/urlOK.php',
    DS_MERCHANT_URLKO: 'http://www.prueba.com/urlKO.php',
  };

  it('signs the request byte for byte', () => {
    expect(deriveOrderKey('HMAC_SHA256_V1', TEST_KEY, '0726qI3H7sZx').toString('base64')).toBe(
      'GViV77kFjMPKVUcE9qxzlg==',
    );
    const signed = createPaymentRequest({
      version: 'HMAC_SHA256_V1',
      secret: TEST_KEY,
      params: request,
    });
    expect(signed.Ds_MerchantParameters).toBe(
      'eyJEU19NRVJDSEFOVF9UUkFOU0FDVElPTlRZUEUiOiIwIiwiRFNfTUVSQ0hBTlRfT1JERVIiOiIwNzI2cUkzSDdzWngiLCJEU19NRVJDSEFOVF9NRVJDSEFOVENPREUiOiI5OTkwMDg4ODEiLCJEU19NRVJDSEFOVF9URVJNSU5BTCI6IjEiLCJEU19NRVJDSEFOVF9BTU9VTlQiOiI0OTk5IiwiRFNfTUVSQ0hBTlRfQ1VSUkVOQ1kiOiI5NzgiLCJEU19NRVJDSEFOVF9NRVJDSEFOVFVSTCI6Imh0dHA6Ly93d3cucHJ1ZWJhLmNvbS91cmxOb3RpZmljYWNpb24ucGhwIiwiRFNfTUVSQ0hBTlRfVVJMT0siOiJodHRwOi8vd3d3LnBydWViYS5jb20vdXJsT0sucGhwIiwiRFNfTUVSQ0hBTlRfVVJMS08iOiJodHRwOi8vd3d3LnBydWViYS5jb20vdXJsS08ucGhwIn0=',
    );
    expect(signed.Ds_Signature).toBe('TyW+LIa2GZnhCPLM7JSPwbQn4ZjOvMO/KiIf4yJgwo8=');
  });

  it('signs a save-card (Ds_Merchant_Identifier=REQUIRED) request', () => {
    const signed = createPaymentRequest({
      version: 'HMAC_SHA256_V1',
      secret: TEST_KEY,
      params: {
        DS_MERCHANT_TRANSACTIONTYPE: '0',
        DS_MERCHANT_ORDER: '2681dq0KyQBo',
        DS_MERCHANT_MERCHANTCODE: '999008881',
        DS_MERCHANT_TERMINAL: '1',
        DS_MERCHANT_AMOUNT: '4999',
        DS_MERCHANT_CURRENCY: '978',
        DS_MERCHANT_MERCHANTNAME: 'MI COMERCIO',
        DS_MERCHANT_MERCHANTURL: 'http://www.prueba.com/urlNotificacion.php',
        DS_MERCHANT_URLOK: 'http://www.prueba.com/urlOK.php',
        DS_MERCHANT_URLKO: 'http://www.prueba.com/urlKO.php',
        DS_MERCHANT_IDENTIFIER: 'REQUIRED',
      },
    });
    expect(signed.Ds_Signature).toBe('UM0+V+KMduJ2q6M8r/W8P1edLm5XyIsg/y7W/JcVVg8=');
  });

  it('accepts the notifications Redsys sent back (base64url signatures)', () => {
    const authorised = readNotification(
      {
        Ds_SignatureVersion: 'HMAC_SHA256_V1',
        Ds_MerchantParameters:
          'eyJEc19EYXRlIjoiMjIlMkYxMCUyRjIwMjEiLCJEc19Ib3VyIjoiMjIlM0E1MSIsIkRzX1NlY3VyZVBheW1lbnQiOiIxIiwiRHNfQ2FyZF9OdW1iZXIiOiI0NTQ4ODEqKioqKiowMDA0IiwiRHNfQ2FyZF9Db3VudHJ5IjoiNzI0IiwiRHNfQW1vdW50IjoiNDk5OSIsIkRzX0N1cnJlbmN5IjoiOTc4IiwiRHNfT3JkZXIiOiIwNzI2cUkzSDdzWngiLCJEc19NZXJjaGFudENvZGUiOiI5OTkwMDg4ODEiLCJEc19UZXJtaW5hbCI6IjAwMSIsIkRzX1Jlc3BvbnNlIjoiMDAwMCIsIkRzX01lcmNoYW50RGF0YSI6IiIsIkRzX1RyYW5zYWN0aW9uVHlwZSI6IjAiLCJEc19Db25zdW1lckxhbmd1YWdlIjoiMSIsIkRzX0F1dGhvcmlzYXRpb25Db2RlIjoiMDUyMDI5IiwiRHNfQ2FyZF9CcmFuZCI6IjEiLCJEc19Qcm9jZXNzZWRQYXlNZXRob2QiOiIxIn0=',
        Ds_Signature: '52nPyUkyDws__OfMqDka_yN-arxzulELZC1TYTvvR0s=',
      },
      TEST_KEY,
      ['HMAC_SHA256_V1'],
    );
    expect(authorised.ok && authorised.params).toMatchObject({
      Ds_Date: '22/10/2021',
      Ds_Hour: '22:51',
      Ds_Order: '0726qI3H7sZx',
      Ds_Terminal: '001',
      Ds_Response: '0000',
      Ds_Card_Number: '454881******0004',
    });

    const withReference = readNotification(
      {
        Ds_SignatureVersion: 'HMAC_SHA256_V1',
        Ds_MerchantParameters:
          'eyJEc19EYXRlIjoiMjIlMkYxMCUyRjIwMjEiLCJEc19Ib3VyIjoiMjElM0E0MCIsIkRzX1NlY3VyZVBheW1lbnQiOiIxIiwiRHNfQ2FyZF9OdW1iZXIiOiI0NTQ4ODEqKioqKiowMDA0IiwiRHNfRXhwaXJ5RGF0ZSI6IjM0MTIiLCJEc19NZXJjaGFudF9JZGVudGlmaWVyIjoiNjIxNTc3YWI4NzYxNTBhZjY4ZmNmYTk3ZWFhYjgwODg2NTA4YzdlMyIsIkRzX0NhcmRfQ291bnRyeSI6IjcyNCIsIkRzX0Ftb3VudCI6IjQ5OTkiLCJEc19DdXJyZW5jeSI6Ijk3OCIsIkRzX09yZGVyIjoiMjY4MWRxMEt5UUJvIiwiRHNfTWVyY2hhbnRDb2RlIjoiOTk5MDA4ODgxIiwiRHNfVGVybWluYWwiOiIwMDEiLCJEc19SZXNwb25zZSI6IjAwMDAiLCJEc19NZXJjaGFudERhdGEiOiIiLCJEc19UcmFuc2FjdGlvblR5cGUiOiIwIiwiRHNfQ29uc3VtZXJMYW5ndWFnZSI6IjEiLCJEc19BdXRob3Jpc2F0aW9uQ29kZSI6IjA1MjAwMiIsIkRzX0NhcmRfQnJhbmQiOiIxIiwiRHNfTWVyY2hhbnRfQ29mX1R4bmlkIjoiMjExMDIyMjE0MDIyMCIsIkRzX1Byb2Nlc3NlZFBheU1ldGhvZCI6IjEifQ==',
        Ds_Signature: 'eujBY6YBm2u5P4FNnlsGMSbiuuBvv4POYXa-7314EDI=',
      },
      TEST_KEY,
      ['HMAC_SHA256_V1', 'HMAC_SHA512_V2'],
    );
    expect(withReference.ok && withReference.params).toMatchObject({
      Ds_Merchant_Identifier: '621577ab876150af68fcfa97eaab80886508c7e3',
      Ds_ExpiryDate: '3412',
    });
  });
});

// The worked example of Redsys' "Firmar una operación" page (pagosonline.redsys.es,
// desarrolladores-inicio/documentacion-operativa/firmar-una-operacion), also the official vector
// of nowo-tech/RedsysPhp's SignerOfficialVectorTest.
describe('HMAC_SHA512_V2, the official Redsys example', () => {
  const params =
    'eyJEU19NRVJDSEFOVF9BTU9VTlQiOiI5OTkiLCJEU19NRVJDSEFOVF9PUkRFUiI6IjEyMzQ1Njc4OTAiLCJEU19NRVJDSEFOVF9NRVJDSEFOVENPREUiOiI5OTkwMDg4ODEiLCJEU19NRVJDSEFOVF9DVVJSRU5DWSI6Ijk3OCIsIkRTX01FUkNIQU5UX1RSQU5TQUNUSU9OVFlQRSI6IjAiLCJEU19NRVJDSEFOVF9URVJNSU5BTCI6IjEiLCJEU19NRVJDSEFOVF9NRVJDSEFOVFVSTCI6Imh0dHA6XC9cL3d3dy5wcnVlYmEuY29tXC91cmxOb3RpZmljYWNpb24ucGhwIiwiRFNfTUVSQ0hBTlRfVVJMT0siOiJodHRwOlwvXC93d3cucHJ1ZWJhLmNvbVwvdXJsT0sucGhwIiwiRFNfTUVSQ0hBTlRfVVJMS08iOiJodHRwOlwvXC93d3cucHJ1ZWJhLmNvbVwvdXJsS08ucGhwIn0';
  const signature =
    'Vjo02eSWq249IeZZp3R-ArFnGLhKY0OuzDDlx1BuVtZDC2yhczA7_11uZhsYzLZBCMFAz8u8uzGDX3AErHKmmw';

  it('derives the AES order key', () => {
    expect(deriveOrderKey('HMAC_SHA512_V2', TEST_KEY, '1234567890').toString('utf8')).toBe(
      'RWt3/IPTzYRMXsQtkiGRKg==',
    );
  });

  it('signs and verifies the example', () => {
    expect(sign('HMAC_SHA512_V2', TEST_KEY, '1234567890', params)).toBe(signature);
    expect(verify('HMAC_SHA512_V2', TEST_KEY, params, signature)).toBe(true);
    // Same bytes in the standard alphabet, padded.
    const standard = Buffer.from(signature, 'base64url').toString('base64');
    expect(verify('HMAC_SHA512_V2', TEST_KEY, params, standard)).toBe(true);
  });

  it('reads the example (upper-case keys, escaped slashes) as a request', () => {
    expect(decodeMerchantParameters(params)).toMatchObject({
      DS_MERCHANT_ORDER: '1234567890',
      DS_MERCHANT_MERCHANTURL: 'http://www.prueba.com/urlNotificacion.php',
    });
  });

  it('pads a short secret with "0" and uses only the first 16 characters of a long one', () => {
    expect(deriveOrderKey('HMAC_SHA512_V2', 'sq7HjrUOBfKmC576', '1234567890')).toEqual(
      deriveOrderKey('HMAC_SHA512_V2', TEST_KEY, '1234567890'),
    );
    expect(deriveOrderKey('HMAC_SHA512_V2', 'abc', '1')).toEqual(
      deriveOrderKey('HMAC_SHA512_V2', 'abc0000000000000', '1'),
    );
  });
});

describe('encodeMerchantParameters', () => {
  it('round-trips through decodeMerchantParameters', () => {
    const params = { Ds_Merchant_Order: '1234abcd', Ds_Merchant_MerchantName: 'Ñandú & Cía' };
    expect(decodeMerchantParameters(encodeMerchantParameters(params))).toEqual(params);
  });
});
