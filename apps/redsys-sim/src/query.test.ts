import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  PUBLIC_TEST_MERCHANT,
  createPaymentRequest,
  newOrderNumber,
  readNotification,
} from '@portal/redsys';
import type { SignatureVersion } from '@portal/redsys';
import { buildSimulator } from './app.ts';
import { startNotificationReceiver } from './testing/notification-receiver.ts';
import { formAction, formBody, paymentParams, signedForm } from './testing/payment-form.ts';

const KEY = PUBLIC_TEST_MERCHANT.secretKey;
let app: FastifyInstance;
let receiver: Awaited<ReturnType<typeof startNotificationReceiver>>;

beforeEach(async () => {
  receiver = await startNotificationReceiver();
  app = buildSimulator();
});
afterEach(async () => {
  await app.close();
  await receiver.close();
});

function post(url: string, fields: Readonly<Record<string, string>>) {
  return app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: formBody(fields),
  });
}

function query(order: string, version: SignatureVersion = 'HMAC_SHA512_V2', terminal = '1') {
  return app.inject({
    method: 'POST',
    url: '/sis/rest/query',
    payload: createPaymentRequest({
      version,
      secret: KEY,
      params: {
        Ds_Merchant_Order: order,
        Ds_Merchant_MerchantCode: '999008881',
        Ds_Merchant_Terminal: terminal,
      },
    }),
  });
}

function readAnswer(body: unknown, version: SignatureVersion = 'HMAC_SHA512_V2') {
  const read = readNotification(body as Record<string, unknown>, KEY, [version]);
  if (!read.ok) throw new Error(`answer rejected: ${read.reason}`);
  return read.params;
}

describe('POST /sis/rest/query', () => {
  it('answers XML0024 for an order it never received', async () => {
    const response = await query(newOrderNumber());
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ errorCode: 'XML0024' });
  });

  it('answers 9998 while the card page is open, then the final outcome, signed', async () => {
    const params = paymentParams(receiver.url);
    const page = await post('/sis/realizarPago', signedForm(params));
    expect(readAnswer((await query(params.Ds_Merchant_Order)).json()).Ds_Response).toBe('9998');

    await post(formAction(page.body), {
      card_number: '4548812049400004',
      expiry: '12/34',
      cvc: '123',
      action: 'pay',
    });
    const answer = readAnswer(
      (await query(params.Ds_Merchant_Order, 'HMAC_SHA256_V1', '001')).json(),
      'HMAC_SHA256_V1',
    );
    expect(answer).toMatchObject({
      Ds_Order: params.Ds_Merchant_Order,
      Ds_MerchantCode: '999008881',
      Ds_Terminal: '001',
      Ds_Amount: '12345',
      Ds_Currency: '978',
      Ds_Response: '0000',
      Ds_TransactionType: '0',
    });
    expect(answer.Ds_AuthorisationCode).toMatch(/^\d{6}$/);
  });

  it('answers 9999 during the 3DS challenge and 0190 for a decline', async () => {
    const challenged = paymentParams(receiver.url);
    const page = await post('/sis/realizarPago', signedForm(challenged));
    await post(formAction(page.body), {
      card_number: '4548814479727229',
      expiry: '12/34',
      cvc: '123',
      action: 'pay',
    });
    expect(readAnswer((await query(challenged.Ds_Merchant_Order)).json()).Ds_Response).toBe('9999');

    const declined = paymentParams(receiver.url);
    const declinedPage = await post('/sis/realizarPago', signedForm(declined));
    await post(formAction(declinedPage.body), {
      card_number: '5576440022788500',
      expiry: '12/34',
      cvc: '123',
      action: 'pay',
    });
    expect(readAnswer((await query(declined.Ds_Merchant_Order)).json()).Ds_Response).toBe('0190');
  });

  it('refuses a bad signature or an unknown merchant with an SIS code', async () => {
    const request = createPaymentRequest({
      version: 'HMAC_SHA256_V1',
      secret: 'Mk9m98IfEblmPfrpsawt7BmxObt98Jev',
      params: {
        Ds_Merchant_Order: '1234abcd',
        Ds_Merchant_MerchantCode: '999008881',
        Ds_Merchant_Terminal: '1',
      },
    });
    const bad = await app.inject({ method: 'POST', url: '/sis/rest/query', payload: request });
    expect(bad.json()).toEqual({ errorCode: 'SIS0042' });

    const unknown = await app.inject({
      method: 'POST',
      url: '/sis/rest/query',
      payload: createPaymentRequest({
        version: 'HMAC_SHA256_V1',
        secret: KEY,
        params: {
          Ds_Merchant_Order: '1234abcd',
          Ds_Merchant_MerchantCode: '111111111',
          Ds_Merchant_Terminal: '1',
        },
      }),
    });
    expect(unknown.json()).toEqual({ errorCode: 'SIS0026' });

    const empty = await app.inject({ method: 'POST', url: '/sis/rest/query', payload: {} });
    expect(empty.json()).toEqual({ errorCode: 'SIS0429' });
  });
});
