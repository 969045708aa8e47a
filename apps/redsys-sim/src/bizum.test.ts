import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  PUBLIC_TEST_MERCHANT,
  createRefundRequest,
  readNotification,
  readRefundAnswer,
} from '@portal/redsys';
import { buildSimulator } from './app.ts';
import { MESSAGES, type Language } from './i18n.ts';
import { escapeHtml } from './pages/html.ts';
import { startNotificationReceiver } from './testing/notification-receiver.ts';
import {
  URL_KO,
  URL_OK,
  formAction,
  formBody,
  paymentParams,
  present,
  signedForm,
} from './testing/payment-form.ts';

/** Bizum through redirection (redsys-notes §3): Ds_Merchant_PayMethods=z on the same form. */
let receiver: Awaited<ReturnType<typeof startNotificationReceiver>>;
let app: FastifyInstance;
let logs: string;

beforeEach(async () => {
  receiver = await startNotificationReceiver([]);
  logs = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs += chunk.toString();
      callback();
    },
  });
  app = buildSimulator({
    inspect: true,
    notificationRetryDelayMs: 20,
    logger: { level: 'trace', stream },
  });
});
afterEach(async () => {
  await app.close();
  await receiver.close();
});

const post = (url: string, fields: Readonly<Record<string, string>>) =>
  app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: formBody(fields),
  });

const bizumParams = (overrides: Record<string, string> = {}) =>
  paymentParams(receiver.url, { Ds_Merchant_PayMethods: 'z', ...overrides });

async function openBizum(params = bizumParams()) {
  const page = await post('/sis/realizarPago', signedForm(params));
  expect(page.statusCode).toBe(200);
  return page;
}

async function toTheApp(phone = '612 345 678', params = bizumParams()) {
  const page = await openBizum(params);
  const app = await post(formAction(page.body), { phone, action: 'pay' });
  expect(app.statusCode).toBe(200);
  return app;
}

function onlyNotification() {
  expect(receiver.received).toHaveLength(1);
  const notification = present(receiver.received[0], 'notification');
  const read = readNotification(notification.body, PUBLIC_TEST_MERCHANT.secretKey, [
    'HMAC_SHA256_V1',
  ]);
  if (!read.ok) throw new Error(`notification rejected: ${read.reason}`);
  return { read, raw: notification.raw };
}

describe('the Bizum pages', () => {
  it('ask for the mobile number, not a card, with the amount and the merchant', async () => {
    const page = await openBizum();
    expect(page.body).toContain('Pago con Bizum');
    expect(page.body).toContain('name="phone"');
    expect(page.body).toContain('type="tel"');
    expect(page.body).not.toContain('name="card_number"');
    expect(page.body).toContain('123,45');
    expect(page.body).toContain('Gestoría Ejemplo');
    expect(page.body).toMatch(/\/sis\/operaciones\/[0-9a-f]{32}\/bizum"/);
  });

  // Each step speaks the language the merchant sent, as Redsys' pages do: the number page, its
  // error and the bank app's page, with no text left in another language.
  it.each([
    ['001', 'es'],
    ['002', 'en'],
    ['003', 'ca'],
    ['013', 'eu'],
    ['13', 'eu'],
  ] as const)('speak the language of Ds_Merchant_ConsumerLanguage %s (%s)', async (code, lang) => {
    const t = MESSAGES[lang];
    const others = (Object.keys(MESSAGES) as Language[]).filter((l) => l !== lang);
    const ownWords = (body: string, keys: readonly (keyof typeof t)[]) => {
      expect(body).toContain(`<html lang="${lang}">`);
      for (const key of keys) {
        expect(body, `${lang} ${key}`).toContain(escapeHtml(t[key]));
        for (const other of others) {
          // Shared words, and one inside the other ('Cancel' in 'Cancelar'), prove nothing.
          if (t[key].includes(MESSAGES[other][key])) continue;
          expect(body, `${other} ${key} on a ${lang} page`).not.toContain(
            escapeHtml(MESSAGES[other][key]),
          );
        }
      }
    };
    const params = bizumParams({ Ds_Merchant_ConsumerLanguage: code });
    const page = await openBizum(params);
    ownWords(page.body, [
      'banner',
      'bizumTitle',
      'bizumPhone',
      'bizumPhoneHint',
      'bizumContinue',
      'cancel',
      'bizumTestTitle',
      'bizumTestHint',
      'amount',
      'merchant',
      'order',
    ]);
    expect(page.body).toContain(`<title>${escapeHtml(t.bizumTitle)} · Redsys (${t.simulator})`);
    const invalid = await post(formAction(page.body), { phone: '912345678', action: 'pay' });
    ownWords(invalid.body, ['bizumTitle', 'bizumInvalidPhone']);
    const app = await post(formAction(page.body), { phone: '612 345 678', action: 'pay' });
    ownWords(app.body, [
      'bizumAppTitle',
      'bizumAppText',
      'bizumAppHint',
      'bizumAppConfirm',
      'bizumAppReject',
      'cancel',
    ]);
    const done = await post(formAction(app.body), { action: 'pay' });
    expect(done.headers.location).toBe(URL_OK);
  });

  it('keep the page with an error on a number that is not a Spanish mobile', async () => {
    const page = await openBizum();
    for (const phone of ['', '912345678', '61234567', '+44 612345678', 'abc']) {
      const again = await post(formAction(page.body), { phone, action: 'pay' });
      expect(again.body, phone).toContain('aria-invalid="true"');
      expect(again.body).toContain('name="phone"');
    }
    expect(receiver.received).toHaveLength(0);
  });

  it('accepted in the app: one signed notification with Ds_ProcessedPayMethod 68 and no card data', async () => {
    const params = bizumParams({ Ds_Merchant_MerchantData: 'payment=42' });
    const confirm = await toTheApp('+34 612 345 678', params);
    // The "app" step shows the number masked, as a bank does.
    expect(confirm.body).toContain('+34 *** *** 678');
    expect(confirm.body).not.toContain('612345678');
    const done = await post(formAction(confirm.body), { action: 'pay' });
    expect(done.statusCode).toBe(302);
    expect(done.headers.location).toBe(URL_OK);
    const { read, raw } = onlyNotification();
    expect(read.params).toMatchObject({
      Ds_Amount: '12345',
      Ds_Order: params.Ds_Merchant_Order,
      Ds_Response: '0000',
      Ds_TransactionType: '0',
      Ds_ProcessedPayMethod: '68',
      Ds_MerchantData: 'payment=42',
    });
    expect(read.params.Ds_AuthorisationCode).toMatch(/^\d{6}$/);
    for (const cardField of ['Ds_Card_Number', 'Ds_Card_Brand', 'Ds_Card_Country']) {
      expect(read.params[cardField], cardField).toBeUndefined();
    }
    // The phone number is never notified nor logged.
    expect(raw).not.toContain('612345678');
    expect(logs).not.toContain('612345678');
    expect(logs).not.toContain('612 345 678');
  });

  it('rejected in the app: 9966 (Bizum KO) and UrlKO', async () => {
    const confirm = await toTheApp();
    const done = await post(formAction(confirm.body), { action: 'reject' });
    expect(done.headers.location).toBe(URL_KO);
    const { read } = onlyNotification();
    expect(read.params).toMatchObject({ Ds_Response: '9966', Ds_ProcessedPayMethod: '68' });
    expect(read.params.Ds_AuthorisationCode).toBe('');
  });

  it('cancelled on either page: 9915 and UrlKO', async () => {
    const page = await openBizum();
    const cancelled = await post(formAction(page.body), { action: 'cancel' });
    expect(cancelled.headers.location).toBe(URL_KO);
    expect(onlyNotification().read.params.Ds_Response).toBe('9915');
    receiver.received.length = 0;
    const confirm = await toTheApp();
    const fromApp = await post(formAction(confirm.body), { action: 'cancel' });
    expect(fromApp.headers.location).toBe(URL_KO);
    expect(onlyNotification().read.params.Ds_Response).toBe('9915');
  });

  it('the testing toggle declines a Bizum payment accepted in the app', async () => {
    const confirm = await toTheApp(
      '700000000',
      bizumParams({ Ds_Merchant_MerchantData: 'simulate=decline' }),
    );
    const done = await post(formAction(confirm.body), { action: 'pay' });
    expect(done.headers.location).toBe(URL_KO);
    expect(onlyNotification().read.params.Ds_Response).toBe('9966');
  });

  it('only type 0 is simulated with Bizum; a refund type is SIS0023', async () => {
    const page = await post(
      '/sis/realizarPago',
      signedForm(bizumParams({ Ds_Merchant_TransactionType: '1' })),
    );
    expect(page.body).toContain('SIS0023');
  });

  it('a Bizum page cannot be answered twice, and the order is paid once', async () => {
    const confirm = await toTheApp();
    const action = formAction(confirm.body);
    await post(action, { action: 'pay' });
    const again = await post(action, { action: 'pay' });
    expect(again.body).toContain('SIS0081');
    expect(receiver.received).toHaveLength(1);
  });

  it('can be refunded like a card payment (type 3 on the same order)', async () => {
    const params = bizumParams();
    const confirm = await toTheApp('612345678', params);
    await post(formAction(confirm.body), { action: 'pay' });
    const request = createRefundRequest({
      secret: PUBLIC_TEST_MERCHANT.secretKey,
      merchantCode: PUBLIC_TEST_MERCHANT.merchantCode,
      terminal: '1',
      order: params.Ds_Merchant_Order,
      amountCents: 12345,
    });
    const answer = await app.inject({
      method: 'POST',
      url: '/sis/rest/trataPeticionREST',
      payload: request,
    });
    const read = readRefundAnswer(answer.json(), {
      secret: PUBLIC_TEST_MERCHANT.secretKey,
      order: params.Ds_Merchant_Order,
    });
    expect(read).toMatchObject({ kind: 'refunded' });
  });
});
