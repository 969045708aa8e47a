import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { decodeMerchantParameters } from '@portal/redsys';
import { PDFParse } from 'pdf-parse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { secondEmail } from '../src/db/seed/demo.ts';
import { startSmtp } from '../../../tools/test-smtp.ts';
import { buildTestApp, engines } from './engines.ts';
import { signedNotification } from './redsys-notification.ts';
import { signedIn } from './session.ts';

/**
 * Bizum through Redsys (issue 23, item 5; redsys-notes §3): offered where the tenant's
 * `redsys-pay-methods` include `z` (the demo's tenant `demo` does, `1` does not), started with
 * Ds_Merchant_PayMethods=z, settled by the same signed notification as a card.
 */
const range = { datefrom: '20000101', dateto: '20991231' };
type Payment = {
  payment_id: string;
  invoice_id: string;
  amount: number;
  status: string;
  method: string;
};
type Started = {
  payment_id: string;
  order_id: string;
  redsys_params: { Ds_MerchantParameters: string };
};

describe.each(engines())('Bizum on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let other: Awaited<ReturnType<typeof signedIn>>;
  let cardsOnly: Awaited<ReturnType<typeof signedIn>>;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;

  beforeAll(async () => {
    db = await engine.open();
    smtp = await startSmtp();
    app = await buildTestApp(db, { SMTP_URL: smtp.url, PUBLIC_URL: 'http://localhost:3000' });
    me = await signedIn(app, 'demo');
    other = await signedIn(app, 'demo', secondEmail);
    cardsOnly = await signedIn(app, '1');
  });
  afterAll(async () => {
    await app.close();
    await db.close();
    await smtp.close();
  });

  const unpaid = async (who = me) =>
    (await who.post('/payments', { ...range, page: '1', pending: true, overdue: true })).json<{
      payments: Payment[];
    }>().payments;
  const allPayments = async (who = me) =>
    (await who.post('/payments', { ...range, page: '1' })).json<{ payments: Payment[] }>().payments;
  const notify = (tenant: string, message: object) =>
    app.inject({
      method: 'POST',
      url: `/${tenant}/api/1.0/redsys/notification`,
      payload: new URLSearchParams(message as Record<string, string>).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  const startBizum = async (item: Payment | undefined, who = me, extra: object = {}) =>
    who.post('/redsys/init-payment', {
      payment_ids: [item?.payment_id],
      amount: item?.amount,
      method: 'bizum',
      ...extra,
    });
  const paramsOf = (started: { json: <T>() => T }) =>
    decodeMerchantParameters(started.json<Started>().redsys_params.Ds_MerchantParameters);
  const bizumPaid = { Ds_ProcessedPayMethod: '68' };

  it('offers Bizum after the card where the tenant takes it, and not where it does not', async () => {
    const [item] = await unpaid();
    const offered = await me.post('/redsys/checkout-preview', { payment_ids: [item?.payment_id] });
    expect(offered.json<{ methods: string[] }>().methods).toEqual(['credit_card', 'bizum']);
    const [theirs] = await unpaid(cardsOnly);
    const notOffered = await cardsOnly.post('/redsys/checkout-preview', {
      payment_ids: [theirs?.payment_id],
    });
    expect(notOffered.json<{ methods: string[] }>().methods).toEqual(['credit_card']);
  });

  it('refuses Bizum (422 method invalid_value) for a tenant that does not take it', async () => {
    const [item] = await unpaid(cardsOnly);
    const refused = await startBizum(item, cardsOnly);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ errors: { method: ['invalid_value'] } });
    // Nothing was started: the instalment is still free to pay by card.
    const card = await cardsOnly.post('/redsys/init-payment', {
      payment_ids: [item?.payment_id],
      amount: item?.amount,
    });
    expect(card.statusCode).toBe(200);
  });

  it('keeps no card with Bizum: saving one or paying with a saved one is a 422', async () => {
    const [item] = await unpaid();
    const save = await startBizum(item, me, { save_card: true });
    expect(save.statusCode).toBe(422);
    expect(save.json()).toMatchObject({ errors: { save_card: ['invalid_value'] } });
    const saved = await startBizum(item, me, { card_id: 'a-saved-card' });
    expect(saved.statusCode).toBe(422);
    expect(saved.json()).toMatchObject({ errors: { card_id: ['invalid_value'] } });
  });

  it('refuses a saved card that is no longer saved with its own code, not as a missing payment', async () => {
    // Session 39: a plain not_found, which the confirmation read as "what you are paying was not
    // found". Still a 404 with the bare body, as for any id not the customer's (isolation.test.ts).
    const [item] = await unpaid();
    const res = await me.post('/redsys/init-payment', {
      payment_ids: [item?.payment_id],
      amount: item?.amount,
      card_id: 'a-removed-card',
    });
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json()).toEqual({ code: 'card_not_found', message: 'Card not found' });
  });

  it('keeps no card with PayPal either: a saved one is a 422, not charged and recorded as PayPal', async () => {
    // Session 39: the saved card was charged at the gateway and the payment written "PayPal".
    await db.withOwner((sql) =>
      sql.query(`UPDATE tenants SET redsys_pay_methods = '{C,z,p}' WHERE id = 'demo'`),
    );
    try {
      const [item] = await unpaid();
      for (const extra of [{ card_id: 'a-saved-card' }, { save_card: true }]) {
        const res = await startBizum(item, me, { ...extra, method: 'paypal' });
        expect(res.statusCode, res.body).toBe(422);
        expect(res.json()).toMatchObject({
          errors: { [Object.keys(extra)[0] ?? '']: ['invalid_value'] },
        });
      }
    } finally {
      await db.withOwner((sql) =>
        sql.query(`UPDATE tenants SET redsys_pay_methods = '{C,z}' WHERE id = 'demo'`),
      );
    }
  });

  it('starts with Ds_Merchant_PayMethods=z, type 0 and no card reference', async () => {
    const [item] = await unpaid();
    const started = await startBizum(item);
    expect(started.statusCode).toBe(200);
    const p = paramsOf(started);
    expect(p.Ds_Merchant_PayMethods).toBe('z');
    expect(p.Ds_Merchant_TransactionType).toBe('0');
    expect(p.Ds_Merchant_Identifier).toBeUndefined();
    // A card start of the same tenant sends no PayMethods at all.
    const card = await me.post('/redsys/init-payment', {
      payment_ids: [item?.payment_id],
      amount: item?.amount,
    });
    expect(paramsOf(card).Ds_Merchant_PayMethods).toBeUndefined();
  });

  it('settles the instalments on a Bizum notification; the status and the list say Bizum', async () => {
    const [item] = await unpaid();
    const started = await startBizum(item);
    const { payment_id: id } = started.json<Started>();
    const pending = (await me.get(`/redsys/payment/${id}/status`)).json<{ method: string }>();
    expect(pending.method).toBe('bizum');
    const p = paramsOf(started);
    expect((await notify('demo', signedNotification(p, '0000', bizumPaid))).statusCode).toBe(200);
    const status = (await me.get(`/redsys/payment/${id}/status`)).json<{
      status: string;
      method: string;
      card_saved: boolean;
    }>();
    expect(status).toMatchObject({ status: 'paid', method: 'bizum', card_saved: false });
    const paid = (await allPayments()).find((x) => x.payment_id === item?.payment_id);
    expect(paid).toMatchObject({ status: 'paid', method: 'Bizum' });

    // Its receipt names Bizum as the way it was paid, and no card.
    const link = await me.post('/documents/receipt', { payment_id: id });
    expect(link.statusCode, link.body).toBe(200);
    const pdf = await app.inject({ method: 'GET', url: link.json<{ url: string }>().url });
    expect(pdf.statusCode).toBe(200);
    const parser = new PDFParse({ data: new Uint8Array(pdf.rawPayload) });
    const { text } = await parser.getText();
    await parser.destroy();
    expect(text).toContain('Forma de pago');
    expect(text).toContain('Bizum');
    expect(text).not.toContain('Tarjeta');
    // So does the receipt e-mail (it said "con tarjeta" for every payment).
    const mail = await smtp.waitFor('cliente@demo.test', 10_000, undefined, p.Ds_Merchant_Order);
    const body = mail.raw.replace(/=\r?\n/g, '');
    expect(body).toContain('Hemos recibido tu pago con Bizum.');
    expect(body).not.toContain('pago con tarjeta');

    // The same notification again (a Redsys retry) changes nothing, like a card's.
    expect((await notify('demo', signedNotification(p, '0000', bizumPaid))).statusCode).toBe(200);
    const rows = await db.withOwner((sql) =>
      sql.query<{ outcome: string }>(
        `SELECT n.outcome FROM redsys_notifications n JOIN payment_attempts a
            ON a.tenant_id = n.tenant_id AND a.id = n.attempt_id
          WHERE a.id::text = $1 ORDER BY n.received_at`,
        [id],
      ),
    );
    expect(rows.map((r) => r.outcome)).toEqual(['paid', 'duplicate']);
  });

  it('a Bizum KO (9966) fails the attempt as declined and frees the instalment', async () => {
    const [item] = await unpaid();
    const started = await startBizum(item);
    const { payment_id: id } = started.json<Started>();
    await notify('demo', signedNotification(paramsOf(started), '9966', bizumPaid));
    const status = (await me.get(`/redsys/payment/${id}/status`)).json<{
      status: string;
      failure: string;
    }>();
    expect(status).toMatchObject({ status: 'failed', failure: 'declined', method: 'bizum' });
    expect((await unpaid()).some((x) => x.payment_id === item?.payment_id)).toBe(true);
    // A late authorisation after the KO is still honoured, as for a card.
    await notify('demo', signedNotification(paramsOf(started), '0000', bizumPaid));
    expect((await me.get(`/redsys/payment/${id}/status`)).json()).toMatchObject({ status: 'paid' });
  });

  it('a card attempt that Redsys says was paid with Bizum (Ds_ProcessedPayMethod 68) reads Bizum', async () => {
    const [item] = await unpaid();
    const started = await me.post('/redsys/init-payment', {
      payment_ids: [item?.payment_id],
      amount: item?.amount,
      save_card: true,
    });
    const { payment_id: id } = started.json<Started>();
    await notify(
      'demo',
      signedNotification(paramsOf(started), '0000', {
        ...bizumPaid,
        Ds_Merchant_Identifier: 'a-bizum-reference',
      }),
    );
    expect((await me.get(`/redsys/payment/${id}/status`)).json()).toMatchObject({
      status: 'paid',
      method: 'bizum',
      card_saved: false,
    });
  });

  it("another customer cannot read a Bizum payment, nor another tenant's key settle it", async () => {
    const [item] = await unpaid();
    const started = await startBizum(item);
    const { payment_id: id } = started.json<Started>();
    expect((await other.get(`/redsys/payment/${id}/status`)).statusCode).toBe(404);
    expect((await cardsOnly.get(`/redsys/payment/${id}/status`)).statusCode).toBe(404);
    // Signed with a key that is not the tenant's: refused, nothing paid.
    const forged = signedNotification(
      paramsOf(started),
      '0000',
      bizumPaid,
      randomBytes(24).toString('base64'),
    );
    await notify('demo', forged);
    expect((await me.get(`/redsys/payment/${id}/status`)).json()).toMatchObject({
      status: 'pending',
    });
    // The right notification posted to the other tenant's address pays nothing either.
    await notify('1', signedNotification(paramsOf(started), '0000', bizumPaid));
    expect((await me.get(`/redsys/payment/${id}/status`)).json()).toMatchObject({
      status: 'pending',
    });
  });

  it('two Bizum starts of the same instalment at once leave one open attempt', async () => {
    const [item] = await unpaid();
    const answers = await Promise.all([startBizum(item), startBizum(item), startBizum(item)]);
    expect(answers.every((a) => a.statusCode === 200 || a.statusCode === 409)).toBe(true);
    const open = await db.withOwner((sql) =>
      sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM payment_attempt_items
          WHERE tenant_id = 'demo' AND active AND instalment_id::text = $1`,
        [item?.payment_id],
      ),
    );
    expect(open[0]?.n).toBe(1);
  });
});
