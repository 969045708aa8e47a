import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { demoEmail, demoPassword } from '../src/db/seed/demo.ts';
import { startApi, startGateway, type ApiProcess } from './support/api-process.ts';
import { cloneTemplate, type TestDatabase } from './support/database.ts';
import { authed, form, send, signIn } from './support/http.ts';
import { findPans } from './support/pan.ts';

const { logDir, postgres, template } = inject('resilience');
/** Redsys' public test card that is always authorised. */
export const testCard = '4548812049400004';

/** The gateway's card page, as a browser submits it; answers where the gateway sent it back. */
async function payOnGateway(init: {
  url: string;
  redsys_params: Record<string, string>;
}): Promise<string> {
  const page = await send(init.url, { ...form(init.redsys_params), timeoutMs: 20_000 });
  expect(page.status, page.body.slice(0, 300)).toBe(200);
  const action = /<form[^>]*action="([^"]+)"/.exec(page.body)?.[1];
  expect(action, 'the card page has a form').toBeTruthy();
  const done = await send(action ?? '', {
    ...form({ card_number: testCard, expiry: '12/34', cvc: '123', action: 'pay' }),
    redirect: 'manual',
    timeoutMs: 20_000,
  });
  expect(done.status, done.body.slice(0, 300)).toBe(302);
  return done.headers.get('location') ?? '';
}

/**
 * The flows where a card number is typed (on the gateway's page, never ours), run with both
 * processes logging at info level: the log scan (logs.resilience.ts) then proves our logs hold
 * no card number.
 */
describe('card payments through the gateway, logged at info level', () => {
  let db: TestDatabase;
  let gateway: ApiProcess | undefined;
  let api: ApiProcess | undefined;
  beforeAll(async () => {
    db = await cloneTemplate(postgres, template, 'cards');
    gateway = await startGateway({ logDir });
    api = await startApi({
      name: 'card-flow',
      logDir,
      databaseUrl: db.url,
      env: {
        REDSYS_SIMULATOR_URL: gateway.url,
        LOG_LEVEL: 'info',
      },
    });
  });
  afterAll(async () => {
    await api?.stop();
    await gateway?.stop();
    await db?.drop();
  });

  it('saves a card and pays an instalment with it typed on the gateway, keeping only the masked number', async () => {
    const server = api as ApiProcess;
    const token = await signIn(server.url, 'demo', demoEmail, demoPassword);
    const call = authed(server.url, 'demo', token);
    const maskedCards = async () => {
      const methods = await call('GET', '/payment-methods');
      expect(findPans(methods.body)).toEqual([]);
      return (
        JSON.parse(methods.body) as { methods: { card_masked?: string | null }[] }
      ).methods.filter((m) => m.card_masked === '454881******0004').length;
    };
    const cardsBefore = await maskedCards();

    // Saving a card: a tokenisation, the number typed on the gateway's page.
    const add = await call('POST', '/payment-methods/card', { alias: 'Tarjeta de prueba' });
    expect(add.status, add.body).toBe(200);
    const tokenisation = JSON.parse(add.body) as {
      payment_id: string;
      url: string;
      redsys_params: Record<string, string>;
    };
    expect(tokenisation.url.startsWith(gateway?.url ?? '-')).toBe(true);
    expect(await payOnGateway(tokenisation)).toContain(`card_attempt=${tokenisation.payment_id}`);
    const saved = await call('GET', `/redsys/payment/${tokenisation.payment_id}/status`);
    expect(JSON.parse(saved.body)).toMatchObject({ status: 'paid', card_saved: true });

    // Paying an instalment with a card typed on the gateway, kept for later.
    const list = await call('POST', '/payments', {
      datefrom: '20000101',
      dateto: '20991231',
      page: '1',
      pending: true,
      overdue: true,
    });
    const [unpaid] = (
      JSON.parse(list.body) as { payments: { payment_id: string; amount: number }[] }
    ).payments;
    const init = await call('POST', '/redsys/init-payment', {
      amount: unpaid?.amount,
      payment_ids: [unpaid?.payment_id],
      save_card: true,
    });
    expect(init.status, init.body).toBe(200);
    const payment = JSON.parse(init.body) as typeof tokenisation;
    expect(await payOnGateway(payment)).toContain(
      `/payment/success?payment_id=${payment.payment_id}`,
    );
    const paid = await call('GET', `/redsys/payment/${payment.payment_id}/status`);
    expect(JSON.parse(paid.body)).toMatchObject({ status: 'paid', card_saved: true });

    // Both cards are kept as Redsys masks them, never more.
    expect(await maskedCards()).toBe(cardsBefore + 2);

    // Neither does the database keep it: the notifications as received carry the masked number.
    const stored = await db.query<{ merchant_parameters: string }>(
      'SELECT merchant_parameters FROM redsys_notifications',
    );
    expect(stored.length).toBeGreaterThanOrEqual(2);
    for (const row of stored) {
      const decoded = Buffer.from(row.merchant_parameters, 'base64').toString('utf8');
      expect(decoded).toContain('454881******0004');
      expect(findPans(decodeURIComponent(decoded))).toEqual([]);
    }
  });
});
