import type { FastifyInstance } from 'fastify';
import { createNotification, decodeMerchantParameters, PUBLIC_TEST_MERCHANT } from '@portal/redsys';
import { notificationParams } from './redsys-notification.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { secondEmail } from '../src/db/seed/demo.ts';
import { isoToApi, todayIso } from '../src/lib/dates.ts';
import { buildTestApp, engines } from './engines.ts';
import { signedIn } from './session.ts';
import { startSmtp } from '../../../tools/test-smtp.ts';

const today = isoToApi(todayIso());
const range = { datefrom: '20000101', dateto: '20991231' };
type Item = { invoice_id: string; status: number; amount: number; total: number };
type Payment = { payment_id: string; invoice_id: string; amount: number; status: string };

/** A notification as Redsys (or the simulator) would sign it, with the public test key. */
function notification(
  params: Record<string, string>,
  secret: string = PUBLIC_TEST_MERCHANT.secretKey,
) {
  return createNotification({ version: 'HMAC_SHA256_V1', secret, params });
}

describe.each(engines())('card payments through Redsys on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let other: Awaited<ReturnType<typeof signedIn>>;

  beforeAll(async () => {
    db = await engine.open();
    smtp = await startSmtp();
    app = await buildTestApp(db, { SMTP_URL: smtp.url, PUBLIC_URL: 'http://localhost:3000' });
    me = await signedIn(app, 'demo');
    other = await signedIn(app, 'demo', secondEmail);
  });
  afterAll(async () => {
    await app.close();
    await db.close();
    await smtp.close();
  });

  const unpaidPayments = async (who = me) => {
    const res = await who.post('/payments', { ...range, page: '1', pending: true, overdue: true });
    return res.json<{ payments: Payment[] }>().payments;
  };
  const init = (body: object, who = me) => who.post('/redsys/init-payment', body);
  const notify = (tenant: string, message: object) =>
    app.inject({
      method: 'POST',
      url: `/${tenant}/api/1.0/redsys/notification`,
      payload: new URLSearchParams(message as Record<string, string>).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  const paramsOf = (res: { json: () => unknown }) => {
    const body = res.json() as { redsys_params: { Ds_MerchantParameters: string } };
    return decodeMerchantParameters(body.redsys_params.Ds_MerchantParameters);
  };
  /** The notification Redsys sends for an init answer, with the given response code. */
  const answerFor = notificationParams;
  const stateOf = (tenant: string, order: string) =>
    db.withTenant(tenant, async (sql) => {
      const [attempt] = await sql.query<{ id: string; status: string }>(
        'SELECT id, status FROM payment_attempts WHERE order_number = $1',
        [order],
      );
      const items = await sql.query<{ status: string; paid_date: string | null }>(
        `SELECT e.status, e.paid_date FROM instalments e JOIN payment_attempt_items i
            ON i.tenant_id = e.tenant_id AND i.instalment_id = e.id WHERE i.attempt_id = $1`,
        [attempt?.id],
      );
      return { attempt, items };
    });

  it('computes the amount of an invoice from its unpaid instalments and signs the request', async () => {
    const pending = (await me.post('/invoices', { ...range, page: '1', pending: true })).json<{
      invoices: Item[];
    }>().invoices;
    const invoice = pending.find((i) => i.amount < i.total) ?? pending[0];
    const res = await init({
      amount: invoice?.amount,
      invoice_id: invoice?.invoice_id,
      save_card: true,
      language: 'en',
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<{
      success: boolean;
      url: string;
      redsys_params: { Ds_SignatureVersion: string };
    }>();
    expect(body.success).toBe(true);
    expect(body.url).toMatch(/\/sis\/realizarPago$/);
    const p = paramsOf(res);
    expect(p).toMatchObject({
      Ds_Merchant_Amount: String(Math.round((invoice?.amount ?? 0) * 100)),
      Ds_Merchant_Currency: '978',
      Ds_Merchant_TransactionType: '0',
      Ds_Merchant_MerchantCode: '999008881',
      Ds_Merchant_Terminal: '1',
      Ds_Merchant_Identifier: 'REQUIRED',
      Ds_Merchant_ConsumerLanguage: '002',
      Ds_Merchant_MerchantURL: 'http://localhost:3000/demo/api/1.0/redsys/notification',
    });
    expect(p.Ds_Merchant_Order).toMatch(/^\d{4}[0-9A-Za-z]{8}$/);
    expect(p.Ds_Merchant_UrlOK).toMatch(
      /^http:\/\/demo\.localhost:3000\/payment\/success\?payment_id=/,
    );
    // The customer cancels on the gateway's page: the attempt fails and frees the instalments.
    expect((await notify('demo', notification(answerFor(p, '9915')))).statusCode).toBe(200);
  });

  it('refuses a client amount that differs, a paid instalment and foreign ones', async () => {
    const [first] = await unpaidPayments();
    const wrong = await init({
      amount: (first?.amount ?? 0) + 0.01,
      payment_ids: [first?.payment_id],
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject({ errors: { amount: ['amount_mismatch'] } });

    const all = (await me.post('/payments', { ...range, page: '1' })).json<{
      payments: Payment[];
    }>().payments;
    const paid = all.find((p) => p.status === 'paid');
    const paidRes = await init({ amount: paid?.amount, payment_ids: [paid?.payment_id] });
    expect(paidRes.statusCode).toBe(422);
    expect(paidRes.json()).toMatchObject({ errors: { payment_ids: ['not_payable'] } });

    const [foreign] = await unpaidPayments(other);
    expect(
      (await init({ amount: foreign?.amount, payment_ids: [foreign?.payment_id] })).statusCode,
    ).toBe(404);
    expect(
      (await init({ amount: foreign?.amount, invoice_id: foreign?.invoice_id })).statusCode,
    ).toBe(404);
    expect((await init({ amount: 1, payment_ids: ['not-a-uuid'] })).statusCode).toBe(404);
    for (const amount of [-5, 0, 1.234, 'x']) {
      expect((await init({ amount, payment_ids: [first?.payment_id] })).statusCode).toBe(422);
    }
  });

  /** The attempts of the instalment `id` and whether each still holds it. */
  const holdersOf = (id: string | undefined) =>
    db.withTenant('demo', (sql) =>
      sql.query<{ id: string; status: string; active: boolean }>(
        `SELECT a.id, a.status, i.active FROM payment_attempt_items i JOIN payment_attempts a
            ON a.tenant_id = i.tenant_id AND a.id = i.attempt_id
          WHERE i.instalment_id = $1 ORDER BY a.created_at, a.id`,
        [id],
      ),
    );

  it('lets a customer back from the gateway start again at once: the first attempt is superseded', async () => {
    const [, second] = await unpaidPayments(other);
    const body = { amount: second?.amount, payment_ids: [second?.payment_id] };
    const first = await init(body, other);
    expect(first.statusCode).toBe(200);
    const firstId = first.json<{ payment_id: string }>().payment_id;
    // Back from the card page, "Pay" again right away: no 409, a new attempt.
    const again = await init(body, other);
    expect(again.statusCode, again.body).toBe(200);
    const againId = again.json<{ payment_id: string }>().payment_id;
    expect(againId).not.toBe(firstId);
    expect(paramsOf(again).Ds_Merchant_Order).not.toBe(paramsOf(first).Ds_Merchant_Order);
    expect((await other.get(`/redsys/payment/${firstId}/status`)).json()).toMatchObject({
      status: 'superseded',
      settled_at: null,
      refund: null,
    });
    expect((await other.get(`/redsys/payment/${againId}/status`)).json()).toMatchObject({
      status: 'pending',
    });
    expect(await holdersOf(second?.payment_id)).toEqual([
      { id: firstId, status: 'superseded', active: false },
      { id: againId, status: 'pending', active: true },
    ]);
    // The customer cancels on the gateway's page: the second fails, nothing stays locked.
    await notify('demo', notification(answerFor(paramsOf(again), '9915')));
  });

  it('leaves one open attempt when three starts of one instalment arrive at once', async () => {
    const [, second] = await unpaidPayments(other);
    const body = { amount: second?.amount, payment_ids: [second?.payment_id] };
    const results = await Promise.all([init(body, other), init(body, other), init(body, other)]);
    // Each start supersedes the one before it (or, at worst, is refused): never two open.
    for (const r of results) expect([200, 409]).toContain(r.statusCode);
    const started = results
      .filter((r) => r.statusCode === 200)
      .map((r) => r.json<{ payment_id: string }>().payment_id);
    expect(started.length).toBeGreaterThanOrEqual(1);
    const holders = (await holdersOf(second?.payment_id)).filter((h) => started.includes(h.id));
    expect(holders.map((h) => h.status).sort()).toEqual([
      'pending',
      ...started.slice(1).map(() => 'superseded'),
    ]);
    expect(holders.filter((h) => h.active).map((h) => h.status)).toEqual(['pending']);
    const open = holders.find((h) => h.status === 'pending');
    const answer = results.find((r) => r.json<{ payment_id?: string }>().payment_id === open?.id);
    if (answer) await notify('demo', notification(answerFor(paramsOf(answer), '9915')));
  });

  it('marks instalments paid only on a valid notification, once, and sends a receipt', async () => {
    const unpaid = await unpaidPayments();
    const chosen = unpaid.slice(0, 3);
    const total = Math.round(chosen.reduce((s, p) => s + p.amount * 100, 0)) / 100;
    const res = await init({
      amount: total,
      payment_ids: chosen.map((p) => p.payment_id),
      save_card: true,
    });
    expect(res.statusCode).toBe(200);
    const p = paramsOf(res);
    const order = p.Ds_Merchant_Order ?? '';
    const paymentId = res.json<{ payment_id: string }>().payment_id;

    // The browser coming back to UrlOK changes nothing: the status stays pending.
    expect((await me.get(`/redsys/payment/${paymentId}/status`)).json()).toMatchObject({
      status: 'pending',
    });

    const ok = notification(
      answerFor(p, '0000', {
        Ds_Merchant_Identifier: 'a'.repeat(40),
        Ds_ExpiryDate: '3012',
        Ds_Card_Number: '454881******0004',
        Ds_Card_Brand: '1',
      }),
    );
    // Twenty identical notifications at once: exactly one state change.
    const answers = await Promise.all(Array.from({ length: 20 }, () => notify('demo', ok)));
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    const { attempt, items } = await stateOf('demo', order);
    expect(attempt?.status).toBe('paid');
    expect(items).toHaveLength(3);
    expect(items.every((i) => i.status === 'paid' && i.paid_date)).toBe(true);
    const outcomes = await db.withTenant('demo', (sql) =>
      sql.query<{ outcome: string; n: number }>(
        'SELECT outcome, count(*)::int AS n FROM redsys_notifications WHERE attempt_id = $1 GROUP BY outcome ORDER BY 1',
        [attempt?.id],
      ),
    );
    expect(outcomes).toEqual([
      { outcome: 'duplicate', n: 19 },
      { outcome: 'paid', n: 1 },
    ]);

    const status = (await me.get(`/redsys/payment/${paymentId}/status`)).json();
    expect(status).toMatchObject({
      status: 'paid',
      amount: total,
      card_saved: true,
      order_id: order,
    });
    // The card is saved from the token: brand, masked number, expiry; never a full number.
    const cards = await db.withTenant('demo', (sql) =>
      sql.query<{ card_masked: string; card_expiry: string; card_brand: string }>(
        'SELECT card_masked, card_expiry, card_brand FROM payment_methods WHERE redsys_reference = $1',
        ['a'.repeat(40)],
      ),
    );
    expect(cards).toEqual([
      { card_masked: '454881******0004', card_expiry: '1230', card_brand: 'VISA' },
    ]);
    const mail = await smtp.waitFor('cliente@demo.test');
    expect(mail.raw).toContain(order);
    // Its button signs the customer in once (sent to the address they sign in with) and opens
    // what was paid (issue 24).
    const token = /\/sign-in-link\?token=([\w-]+)/.exec(mail.raw)?.[1] ?? '';
    expect(token).toHaveLength(43);
    const redeemed = await app.inject({
      method: 'POST',
      url: '/demo/api/1.0/sign-in-link/redeem',
      payload: { token },
    });
    expect(redeemed.statusCode, redeemed.body).toBe(200);
    expect(redeemed.json<{ next: string }>().next).toMatch(/^\/(invoice-detail\/.+|mis-pagos)$/);
    const notes = await db.withTenant('demo', (sql) =>
      sql.query(
        "SELECT 1 FROM notifications WHERE type = 'payment_succeeded' AND params->>'payment_id' = $1",
        [paymentId],
      ),
    );
    expect(notes).toHaveLength(1);

    // A denial arriving after the authorisation changes nothing.
    expect((await notify('demo', notification(answerFor(p, '0190')))).statusCode).toBe(200);
    expect((await stateOf('demo', order)).attempt?.status).toBe('paid');
  });

  it('fails the attempt on a denial and frees its instalments for a new payment', async () => {
    const [first] = await unpaidPayments();
    const body = { amount: first?.amount, payment_ids: [first?.payment_id] };
    const res = await init(body);
    const p = paramsOf(res);
    await notify('demo', notification(answerFor(p, '0190')));
    const { attempt, items } = await stateOf('demo', p.Ds_Merchant_Order ?? '');
    expect(attempt?.status).toBe('failed');
    expect(items.every((i) => i.status !== 'paid')).toBe(true);
    expect((await init(body)).statusCode).toBe(200);
  });

  it('changes nothing for a tampered, mismatching or foreign notification', async () => {
    const [, third] = await unpaidPayments();
    const res = await init({ amount: third?.amount, payment_ids: [third?.payment_id] });
    const p = paramsOf(res);
    const order = p.Ds_Merchant_Order ?? '';
    const good = notification(answerFor(p, '0000'));

    // One character changed for another, so the signature differs whatever it was (a fixed
    // ending such as 'AA=' was the signature itself once in about a thousand orders).
    const flipped = good.Ds_Signature[0] === 'A' ? 'B' : 'A';
    const tampered = { ...good, Ds_Signature: `${flipped}${good.Ds_Signature.slice(1)}` };
    expect((await notify('demo', tampered)).statusCode).toBe(400);
    const otherKey = notification(answerFor(p, '0000'), 'Mk9m98IfEblmPfrpsawt7BmxObt98Jev');
    expect((await notify('demo', otherKey)).statusCode).toBe(400);
    for (const change of <Record<string, string>[]>[
      { Ds_Amount: '1' },
      { Ds_Terminal: '002' },
      { Ds_Currency: '840' },
      { Ds_MerchantCode: '999008882' },
      { Ds_TransactionType: '3' },
    ]) {
      expect(
        (await notify('demo', notification({ ...answerFor(p, '0000'), ...change }))).statusCode,
      ).toBe(200);
    }
    // The same public test key signs tenant 1's notifications: posted there, the order is unknown.
    expect((await notify('1', good)).statusCode).toBe(200);
    expect((await notify('demo', { Ds_SignatureVersion: 'HMAC_SHA256_V1' })).statusCode).toBe(400);
    expect((await stateOf('demo', order)).attempt?.status).toBe('pending');
    expect((await stateOf('1', order)).attempt).toBeUndefined();
    // The four verified but mismatching ones are kept; the unverifiable ones are never stored.
    // (Another merchant code names another merchant's order, none of this tenant's: unknown.)
    const outcomes = await db.withTenant('demo', (sql) =>
      sql.query<{ outcome: string; n: number }>(
        `SELECT n.outcome, count(*)::int AS n FROM redsys_notifications n
           JOIN payment_attempts a ON a.tenant_id = n.tenant_id AND a.id = n.attempt_id
          WHERE a.order_number = $1 GROUP BY n.outcome`,
        [order],
      ),
    );
    expect(outcomes).toEqual([{ outcome: 'mismatch', n: 4 }]);
    const refused = await db.withTenant('demo', (sql) =>
      sql.query("SELECT id FROM redsys_notifications WHERE outcome = 'bad_signature'"),
    );
    expect(refused).toEqual([]);

    // The genuine one still completes it.
    await notify('demo', good);
    expect((await stateOf('demo', order)).attempt?.status).toBe('paid');
  });

  it("answers a payment's state to its owner only", async () => {
    const [first] = await unpaidPayments(other);
    const res = await init({ amount: first?.amount, payment_ids: [first?.payment_id] }, other);
    const id = res.json<{ payment_id: string }>().payment_id;
    expect((await other.get(`/redsys/payment/${id}/status`)).statusCode).toBe(200);
    expect((await me.get(`/redsys/payment/${id}/status`)).statusCode).toBe(404);
    expect((await me.get('/redsys/payment/nope/status')).statusCode).toBe(404);
    expect(today).toMatch(/^\d{8}$/);
  });

  it('saves a card through a tokenisation (type 7, 0 EUR) with no card data on our side', async () => {
    const res = await me.post('/payment-methods/card', { alias: 'Tarjeta del gimnasio' });
    expect(res.statusCode).toBe(200);
    const p = paramsOf(res);
    expect(p).toMatchObject({
      Ds_Merchant_Amount: '0',
      Ds_Merchant_TransactionType: '7',
      Ds_Merchant_Identifier: 'REQUIRED',
    });
    expect(p.Ds_Merchant_UrlOK).toMatch(/\/metodos-de-pago\?card_attempt=/);
    const id = res.json<{ payment_id: string }>().payment_id;
    const answer = {
      ...answerFor(p, '0000', {
        Ds_Merchant_Identifier: 'b'.repeat(40),
        Ds_ExpiryDate: '2811',
        Ds_Card_Number: '557644******8500',
        Ds_Card_Brand: '2',
      }),
      Ds_Amount: '0',
      Ds_TransactionType: '7',
    };
    expect((await notify('demo', notification(answer))).statusCode).toBe(200);
    expect((await me.get(`/redsys/payment/${id}/status`)).json()).toMatchObject({
      status: 'paid',
      card_saved: true,
      amount: 0,
    });
    const cards = (await me.get('/payment-methods')).json<{
      methods: { alias: string; card_masked: string; card_expiry: string }[];
    }>().methods;
    expect(cards).toContainEqual(
      expect.objectContaining({
        alias: 'Tarjeta del gimnasio',
        card_masked: '557644******8500',
        card_expiry: '11/28',
      }),
    );
    // A type 0 answer for a tokenisation is a mismatch and changes nothing.
    const other = await me.post('/payment-methods/card', {});
    const q = paramsOf(other);
    await notify(
      'demo',
      notification({
        ...answerFor(q, '0000', { Ds_Merchant_Identifier: 'c'.repeat(40) }),
        Ds_Amount: '0',
        Ds_TransactionType: '0',
      }),
    );
    expect(
      (
        await me.get(`/redsys/payment/${other.json<{ payment_id: string }>().payment_id}/status`)
      ).json(),
    ).toMatchObject({
      status: 'pending',
    });
  });
});
