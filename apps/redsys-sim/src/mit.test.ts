import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  PUBLIC_TEST_MERCHANT,
  createMitChargeRequest,
  createPaymentRequest,
  createRefundRequest,
  decodeMerchantParameters,
  newOrderNumber,
  readMitChargeAnswer,
  readRefundAnswer,
} from '@portal/redsys';
import { buildSimulator } from './app.ts';
import { TEST_CARDS } from './cards.ts';
import { startNotificationReceiver } from './testing/notification-receiver.ts';
import {
  formAction,
  formBody,
  paymentParams,
  present,
  signedForm,
} from './testing/payment-form.ts';

// Redsys' public test key (merchant 999008881): public test data, not a secret.
const KEY: string = PUBLIC_TEST_MERCHANT.secretKey;
const OTHER_KEY = 'Mk9m98IfEblmPfrpsawt7BmxObt98Jev';
let app: FastifyInstance;
let receiver: Awaited<ReturnType<typeof startNotificationReceiver>>;

beforeEach(async () => {
  receiver = await startNotificationReceiver();
  app = buildSimulator({ inspect: true, demoReferencePrefix: 'demo' });
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

/** Saves `card` with a customer-present payment (Ds_Merchant_Identifier=REQUIRED). */
async function saveCard(card: string) {
  const params = paymentParams(receiver.url, { Ds_Merchant_Identifier: 'REQUIRED' });
  const page = await post('/sis/realizarPago', signedForm(params));
  await post(formAction(page.body), {
    card_number: card,
    expiry: '12/34',
    cvc: '123',
    action: 'pay',
  });
  const notification = present(receiver.received.at(-1), 'notification');
  const p = decodeMerchantParameters(present(notification.body.Ds_MerchantParameters));
  return {
    identifier: present(p.Ds_Merchant_Identifier, 'identifier'),
    cofTxnid: present(p.Ds_Merchant_Cof_Txnid, 'COF transaction id'),
    response: p.Ds_Response,
  };
}

async function charge(
  fields: { identifier: string; cofTxnid: string },
  change?: (params: Record<string, string>) => void,
  secret = KEY,
) {
  const order = newOrderNumber();
  const signed = createMitChargeRequest({
    secret: KEY,
    order,
    merchantCode: '999008881',
    terminal: '1',
    amountCents: 4990,
    ...fields,
  });
  let body: Record<string, string> = { ...signed };
  if (change !== undefined) {
    const params = decodeMerchantParameters(signed.Ds_MerchantParameters);
    change(params);
    body = { ...createPaymentRequest({ version: 'HMAC_SHA256_V1', secret, params }) };
  }
  const reply = await app.inject({
    method: 'POST',
    url: '/sis/rest/trataPeticionREST',
    payload: body,
  });
  expect(reply.statusCode).toBe(200);
  return { order, answer: readMitChargeAnswer(reply.json(), { secret: KEY, order }) };
}

describe('merchant-initiated charges of a saved card (trataPeticionREST, notes §4.2)', () => {
  it('returns the COF transaction id when a card is saved, and charges it without the customer', async () => {
    const saved = await saveCard(TEST_CARDS.authorised);
    expect(saved.response).toBe('0000');
    expect(saved.cofTxnid).toMatch(/^\d{13}$/);
    const { order, answer } = await charge(saved);
    expect(answer).toMatchObject({ kind: 'authorised', code: '0000' });
    const charges = (await app.inject('/__sim/mit-charges')).json<{ charges: unknown[] }>().charges;
    expect(charges).toEqual([
      expect.objectContaining({ order, amountCents: 4990, dsResponse: '0000' }),
    ]);
    // The order is the gateway's like a paid one: the refund service refunds it.
    const refund = await app.inject({
      method: 'POST',
      url: '/sis/rest/trataPeticionREST',
      payload: createRefundRequest({
        secret: KEY,
        order,
        merchantCode: '999008881',
        terminal: '1',
        amountCents: 4990,
      }),
    });
    expect(readRefundAnswer(refund.json(), { secret: KEY, order }).kind).toBe('refunded');
  });

  it('declines every charge of the MIT-declined test card (0190), though it saved', async () => {
    const saved = await saveCard(TEST_CARDS.mitDeclined);
    expect(saved.response).toBe('0000');
    expect((await charge(saved)).answer).toMatchObject({ kind: 'declined', code: '0190' });
  });

  it('treats demo references as saved cards; "demodecline..." declines', async () => {
    const ok = await charge({ identifier: 'demo0123abcd', cofTxnid: '1234567890123' });
    expect(ok.answer.kind).toBe('authorised');
    const no = await charge({ identifier: 'demodecline0123', cofTxnid: '1234567890123' });
    expect(no.answer).toMatchObject({ kind: 'declined', code: '0190' });
  });

  it('refuses what Redsys refuses, unsigned', async () => {
    const saved = await saveCard(TEST_CARDS.authorised);
    const code = async (change: (p: Record<string, string>) => void, secret = KEY) => {
      const { answer } = await charge(saved, change, secret);
      return answer.kind === 'error' ? answer.code : answer.kind;
    };
    expect(await code((p) => (p.DS_MERCHANT_EXCEP_SCA = 'TRA'))).toBe('SIS0616');
    expect(await code((p) => delete p.DS_MERCHANT_IDENTIFIER)).toBe('SIS0617');
    expect(await code((p) => (p.DS_MERCHANT_DIRECTPAYMENT = 'false'))).toBe('SIS0617');
    expect(await code((p) => (p.DS_MERCHANT_COF_TXNID = '999'))).toBe('SIS0617');
    expect(await code((p) => (p.DS_MERCHANT_IDENTIFIER = 'ffff0000'))).toBe('SIS0466');
    expect(await code(() => undefined, OTHER_KEY)).toBe('SIS0042');
    const charges = (await app.inject('/__sim/mit-charges')).json<{ charges: unknown[] }>().charges;
    expect(charges).toHaveLength(0);
  });

  it('refuses a repeated order', async () => {
    const saved = await saveCard(TEST_CARDS.authorised);
    const order = newOrderNumber();
    const request = createMitChargeRequest({
      secret: KEY,
      order,
      merchantCode: '999008881',
      terminal: '1',
      amountCents: 100,
      ...saved,
    });
    const send = () =>
      app.inject({ method: 'POST', url: '/sis/rest/trataPeticionREST', payload: request });
    expect(readMitChargeAnswer((await send()).json(), { secret: KEY, order }).kind).toBe(
      'authorised',
    );
    expect((await send()).json()).toEqual({ errorCode: 'SIS0051' });
  });
});
