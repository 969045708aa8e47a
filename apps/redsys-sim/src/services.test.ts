import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  PUBLIC_TEST_MERCHANT,
  createPaymentRequest,
  createQueryRequest,
  createRefundRequest,
  newOrderNumber,
  readQueryAnswer,
  readRefundAnswer,
} from '@portal/redsys';
import type { QueryMessage } from '@portal/redsys';
import { buildSimulator } from './app.ts';
import { CHALLENGE_CODE, TEST_CARDS } from './cards.ts';
import { startNotificationReceiver } from './testing/notification-receiver.ts';
import { formAction, formBody, paymentParams, signedForm } from './testing/payment-form.ts';

// Redsys' public test key (merchant 999008881): public test data, not a secret.
const KEY = PUBLIC_TEST_MERCHANT.secretKey;
const OTHER_KEY = 'Mk9m98IfEblmPfrpsawt7BmxObt98Jev';
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

/** Opens the card page for a new order of 123,45 €; answers the order and the page. */
async function open(overrides: Record<string, string> = {}) {
  const params = paymentParams(receiver.url, overrides);
  const page = await post('/sis/realizarPago', signedForm(params));
  expect(page.statusCode).toBe(200);
  return { order: params.Ds_Merchant_Order, page };
}

async function pay(card: string = TEST_CARDS.authorised) {
  const opened = await open();
  const next = await post(formAction(opened.page.body), {
    card_number: card,
    expiry: '12/34',
    cvc: '123',
    action: 'pay',
  });
  return { ...opened, next };
}

/** Asks the SOAP query service, as the portal's client does; answers the raw reply too. */
async function query(
  order: string,
  message: QueryMessage = 'Transaction',
  {
    transactionType = '0',
    secret = KEY,
    merchantCode = '999008881',
  }: { transactionType?: string; secret?: string; merchantCode?: string } = {},
) {
  const request = createQueryRequest({
    message,
    merchantCode,
    terminal: '1',
    order,
    transactionType,
    secret,
  });
  const reply = await app.inject({
    method: 'POST',
    url: '/apl02/services/SerClsWSConsulta',
    headers: request.headers,
    payload: request.body,
  });
  expect(reply.statusCode).toBe(200);
  expect(reply.headers['content-type']).toMatch(/^text\/xml/);
  return readQueryAnswer(reply.body, { secret: KEY, order });
}

async function refund(order: string, amountCents: number, secret: string = KEY) {
  const reply = await app.inject({
    method: 'POST',
    url: '/sis/rest/trataPeticionREST',
    payload: createRefundRequest({
      secret,
      order,
      merchantCode: '999008881',
      terminal: '1',
      amountCents,
    }),
  });
  expect(reply.statusCode).toBe(200);
  return readRefundAnswer(reply.json(), { secret: KEY, order });
}

describe('POST /apl02/services/SerClsWSConsulta (consultaOperaciones)', () => {
  it('answers XML0024 for an order it never received, for both message types', async () => {
    const order = newOrderNumber();
    expect(await query(order)).toEqual({ kind: 'not_found' });
    expect(await query(order, 'Monitor')).toEqual({ kind: 'not_found' });
  });

  it('answers S while the card page is open, then F with the final code, signed', async () => {
    const { order, page } = await open();
    expect(await query(order)).toMatchObject({
      kind: 'ok',
      operations: [{ order, state: 'S', transactionType: '0' }],
    });
    const answer = await query(order);
    expect(answer.kind === 'ok' && answer.operations[0]?.response).toBeFalsy();

    await post(formAction(page.body), {
      card_number: TEST_CARDS.authorised,
      expiry: '12/34',
      cvc: '123',
      action: 'pay',
    });
    const settled = await query(order);
    expect(settled).toEqual({
      kind: 'ok',
      operations: [
        {
          order,
          transactionType: '0',
          state: 'F',
          response: '0000',
          amountCents: 12345,
          currency: '978',
          authorisationCode: expect.stringMatching(/^\d{6}$/) as unknown as string,
          merchantCode: '999008881',
          terminal: '001',
          date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) as unknown as string,
          hour: expect.stringMatching(/^\d{2}:\d{2}:\d{2}$/) as unknown as string,
        },
      ],
    });
  });

  it('answers A during the 3DS challenge, then F; F 0190 for a decline, 9915 for a cancel', async () => {
    const challenged = await pay(TEST_CARDS.challenge);
    expect(await query(challenged.order)).toMatchObject({
      kind: 'ok',
      operations: [{ state: 'A' }],
    });
    await post(formAction(challenged.next.body), { code: CHALLENGE_CODE, action: 'pay' });
    expect(await query(challenged.order)).toMatchObject({
      operations: [{ state: 'F', response: '0000' }],
    });

    const declined = await pay(TEST_CARDS.declined);
    expect(await query(declined.order)).toMatchObject({
      operations: [{ state: 'F', response: '0190' }],
    });

    const cancelled = await open();
    await post(formAction(cancelled.page.body), { action: 'cancel' });
    expect(await query(cancelled.order)).toMatchObject({
      operations: [{ state: 'F', response: '9915' }],
    });
  });

  it('answers XML0023 for a bad signature or a merchant it does not know', async () => {
    const { order } = await pay();
    expect(await query(order, 'Transaction', { secret: OTHER_KEY })).toEqual({
      kind: 'error',
      code: 'XML0023',
    });
    expect(await query(order, 'Monitor', { merchantCode: '111111111' })).toEqual({
      kind: 'error',
      code: 'XML0023',
    });
  });

  it('answers XML0015 for an order not starting with 4 digits, XML0000 for junk', async () => {
    const request = createQueryRequest({
      message: 'Monitor',
      merchantCode: '999008881',
      terminal: '1',
      order: '1234abcd',
      secret: KEY,
    });
    const ask = async (payload: string) =>
      readQueryAnswer(
        (
          await app.inject({
            method: 'POST',
            url: '/apl02/services/SerClsWSConsulta',
            headers: { 'content-type': 'text/xml; charset=utf-8' },
            payload,
          })
        ).body,
        { secret: KEY, order: '1234abcd' },
      );
    expect(await ask(request.body.replaceAll('1234abcd', 'abcd1234'))).toEqual({
      kind: 'error',
      code: 'XML0015',
    });
    expect(await ask('<html/>')).toEqual({ kind: 'error', code: 'XML0000' });
    const huge = await app.inject({
      method: 'POST',
      url: '/apl02/services/SerClsWSConsulta',
      headers: { 'content-type': 'text/xml' },
      payload: `<a>${'x'.repeat(100_000)}</a>`,
    });
    expect(huge.statusCode).toBe(413);
  });
});

describe('POST /sis/rest/trataPeticionREST (refunds, type 3)', () => {
  it('refunds an authorised order; refunds add up and show in a later Monitor query', async () => {
    const { order } = await pay();
    expect(await refund(order, 2345)).toMatchObject({
      kind: 'refunded',
      authorisationCode: expect.stringMatching(/^\d{6}$/) as unknown as string,
    });
    expect(await refund(order, 10_000)).toMatchObject({ kind: 'refunded' });
    // 123,45 € paid, 123,45 € refunded: nothing is left.
    expect(await refund(order, 1)).toEqual({ kind: 'error', code: 'SIS0057' });

    const monitor = await query(order, 'Monitor');
    expect(monitor).toMatchObject({
      kind: 'ok',
      operations: [
        { transactionType: '0', state: 'F', response: '0000', amountCents: 12345 },
        { transactionType: '3', state: 'F', response: '0900', amountCents: 2345 },
        { transactionType: '3', state: 'F', response: '0900', amountCents: 10_000 },
      ],
    });
    // A Transaction query of type 3 lists only the refunds.
    expect(await query(order, 'Transaction', { transactionType: '3' })).toMatchObject({
      operations: [{ amountCents: 2345 }, { amountCents: 10_000 }],
    });
  });

  it('refuses a refund above the amount paid with SIS0057 and refunds nothing', async () => {
    const { order } = await pay();
    expect(await refund(order, 12_346)).toEqual({ kind: 'error', code: 'SIS0057' });
    expect(await query(order, 'Transaction', { transactionType: '3' })).toEqual({
      kind: 'not_found',
    });
  });

  it('answers SIS0054 for an order it never received, 0950 for an unpaid one', async () => {
    expect(await refund(newOrderNumber(), 100)).toEqual({ kind: 'error', code: 'SIS0054' });
    const declined = await pay(TEST_CARDS.declined);
    expect(await refund(declined.order, 100)).toMatchObject({ kind: 'refused', code: '0950' });
    const pending = await open();
    expect(await refund(pending.order, 100)).toMatchObject({ kind: 'refused', code: '0950' });
  });

  it('refuses a bad signature (SIS0042) and anything but a type 3 (SIS0023)', async () => {
    const { order } = await pay();
    const bad = await app.inject({
      method: 'POST',
      url: '/sis/rest/trataPeticionREST',
      payload: createRefundRequest({
        secret: OTHER_KEY,
        order,
        merchantCode: '999008881',
        terminal: '1',
        amountCents: 100,
      }),
    });
    expect(bad.json()).toEqual({ errorCode: 'SIS0042' });
    const payment = await app.inject({
      method: 'POST',
      url: '/sis/rest/trataPeticionREST',
      payload: createPaymentRequest({
        version: 'HMAC_SHA256_V1',
        secret: KEY,
        params: {
          DS_MERCHANT_ORDER: order,
          DS_MERCHANT_MERCHANTCODE: '999008881',
          DS_MERCHANT_TERMINAL: '1',
          DS_MERCHANT_CURRENCY: '978',
          DS_MERCHANT_TRANSACTIONTYPE: '0',
          DS_MERCHANT_AMOUNT: '100',
        },
      }),
    });
    expect(payment.json()).toEqual({ errorCode: 'SIS0023' });
    const junk = await app.inject({
      method: 'POST',
      url: '/sis/rest/trataPeticionREST',
      payload: {},
    });
    expect(junk.json()).toMatchObject({ errorCode: expect.stringMatching(/^SIS\d{4}$/) });
    expect(await query(order, 'Transaction', { transactionType: '3' })).toEqual({
      kind: 'not_found',
    });
  });

  it('no longer answers the simulator-only /sis/rest/query', async () => {
    const old = await app.inject({ method: 'POST', url: '/sis/rest/query', payload: {} });
    expect(old.statusCode).toBe(404);
  });
});
