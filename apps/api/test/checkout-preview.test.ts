import type { FastifyInstance } from 'fastify';
import { decodeMerchantParameters } from '@portal/redsys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { secondEmail } from '../src/db/seed/demo.ts';
import { isoToApi, todayIso } from '../src/lib/dates.ts';
import { merchantName } from '../src/modules/payments/service.ts';
import { buildTestApp, engines } from './engines.ts';
import { signedNotification } from './redsys-notification.ts';
import { signedIn } from './session.ts';

const range = { datefrom: '20000101', dateto: '20991231' };
type Payment = { payment_id: string; invoice_id: string; amount: number; status: string };
type Preview = {
  amount: number;
  currency: string;
  instalments: {
    payment_id: string;
    invoice_id: string;
    seq: number;
    due_date: string;
    amount: number;
    overdue: boolean;
    status: string;
  }[];
  methods: string[];
  date: string;
  time: string;
};
const cents = (n: number) => Math.round(n * 100);

describe.each(engines())('the payment confirmation preview on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let other: Awaited<ReturnType<typeof signedIn>>;

  beforeAll(async () => {
    db = await engine.open();
    app = await buildTestApp(db, { PUBLIC_URL: 'http://localhost:3000' });
    me = await signedIn(app, 'demo');
    other = await signedIn(app, 'demo', secondEmail);
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  const preview = (body: object, who = me) => who.post('/redsys/checkout-preview', body);
  const payments = async (who = me, filter: object = { pending: true, overdue: true }) =>
    (await who.post('/payments', { ...range, page: '1', ...filter })).json<{
      payments: Payment[];
    }>().payments;
  const notify = (message: object) =>
    app.inject({
      method: 'POST',
      url: '/demo/api/1.0/redsys/notification',
      payload: new URLSearchParams(message as Record<string, string>).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });

  it("answers an invoice's unpaid instalments and their total, whatever amount the address said", async () => {
    const unpaid = await payments();
    const invoiceId = unpaid[0]?.invoice_id ?? '';
    const ofInvoice = unpaid.filter((p) => p.invoice_id === invoiceId);
    const res = await preview({ invoice_id: invoiceId });
    expect(res.statusCode).toBe(200);
    const body = res.json<Preview>();
    expect(cents(body.amount)).toBe(ofInvoice.reduce((sum, p) => sum + cents(p.amount), 0));
    expect(body.currency).toBe('EUR');
    expect(body.instalments.map((i) => i.payment_id).sort()).toEqual(
      ofInvoice.map((p) => p.payment_id).sort(),
    );
    const today = isoToApi(todayIso());
    for (const item of body.instalments) {
      expect(item.invoice_id).toBe(invoiceId);
      expect(item.due_date).toMatch(/^\d{8}$/);
      expect(item.overdue).toBe(item.due_date < today);
      expect(item.status).toBe(item.due_date < today ? 'overdue' : 'pending');
      expect(item.seq).toBeGreaterThan(0);
    }
    // The demo tenant takes cards and Bizum (issue 23): no PayPal until a tenant configures it.
    expect(body.methods).toEqual(['credit_card', 'bizum']);
    expect(body.date).toBe(todayIso());
    expect(body.time).toMatch(/^([01]\d|2[0-3]):[0-5]\d$/);
  });

  it('answers chosen instalments of several invoices, in due-date order', async () => {
    const unpaid = await payments();
    const chosen = unpaid.slice(0, 3);
    const res = await preview({ payment_ids: chosen.map((p) => p.payment_id) });
    expect(res.statusCode).toBe(200);
    const body = res.json<Preview>();
    expect(cents(body.amount)).toBe(chosen.reduce((sum, p) => sum + cents(p.amount), 0));
    expect(body.instalments).toHaveLength(chosen.length);
    const dues = body.instalments.map((i) => i.due_date);
    expect(dues).toEqual([...dues].sort());
    for (const item of body.instalments) {
      const match = chosen.find((p) => p.payment_id === item.payment_id);
      expect(cents(item.amount)).toBe(cents(match?.amount ?? 0));
      expect(item.overdue).toBe(match?.status === 'overdue');
      // The same status as the payments list's, derived in one place.
      expect(item.status).toBe(match?.status);
    }
  });

  it('refuses paid, unknown and foreign instalments and invoices, and bad input, with a 4xx', async () => {
    const paid = (await payments(me, {})).find((p) => p.status === 'paid');
    const res = await preview({ payment_ids: [paid?.payment_id] });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ errors: { payment_ids: ['not_payable'] } });

    const [foreign] = await payments(other);
    expect((await preview({ payment_ids: [foreign?.payment_id] })).statusCode).toBe(404);
    expect((await preview({ invoice_id: foreign?.invoice_id })).statusCode).toBe(404);
    expect((await preview({ multiple_invoices: [foreign?.invoice_id] })).statusCode).toBe(404);
    expect((await preview({ payment_ids: ['not-a-uuid'] })).statusCode).toBe(404);
    expect((await preview({ invoice_id: 'F-NOPE' })).statusCode).toBe(404);
    const [mine] = await payments();
    // One of mine and one of theirs: nothing of it is shown.
    expect(
      (await preview({ payment_ids: [mine?.payment_id, foreign?.payment_id] })).statusCode,
    ).toBe(404);

    const empty = await preview({});
    expect(empty.statusCode).toBe(422);
    expect(empty.json()).toMatchObject({ errors: { invoice_id: ['required'] } });
    for (const bad of [
      { payment_ids: 'x' },
      { payment_ids: ['x'.repeat(65)] },
      { invoice_id: '' },
      { invoice_id: 7 },
      { multiple_invoices: Array.from({ length: 201 }, (_, i) => `F-${i}`) },
    ]) {
      const answer = await preview(bad);
      expect(answer.statusCode, JSON.stringify(bad).slice(0, 60)).toBe(422);
    }
    expect(
      (
        await app.inject({
          method: 'POST',
          url: '/demo/api/1.0/redsys/checkout-preview',
          payload: {},
        })
      ).statusCode,
    ).toBe(401);
  });

  it('says so when what a stale tab shows was paid meanwhile', async () => {
    const [item] = await payments();
    const body = { payment_ids: [item?.payment_id] };
    expect((await preview(body)).statusCode).toBe(200);
    const started = await me.post('/redsys/init-payment', { ...body, amount: item?.amount });
    expect(started.statusCode).toBe(200);
    const { redsys_params: signed, order_id: orderId } = started.json<{
      order_id: string;
      redsys_params: { Ds_MerchantParameters: string };
    }>();
    const p = decodeMerchantParameters(signed.Ds_MerchantParameters);
    expect(orderId).toBe(p.Ds_Merchant_Order);
    expect((await notify(signedNotification(p, '0000'))).statusCode).toBe(200);
    const stale = await preview(body);
    expect(stale.statusCode).toBe(422);
    expect(stale.json()).toMatchObject({ errors: { payment_ids: ['not_payable'] } });
  });

  it('lists PayPal only for a tenant that configures it, and refuses it elsewhere', async () => {
    const [item] = await payments();
    const paypal = { payment_ids: [item?.payment_id], amount: item?.amount, method: 'paypal' };
    const refused = await me.post('/redsys/init-payment', paypal);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ errors: { method: ['invalid_value'] } });

    await db.withOwner((sql) =>
      sql.query(`UPDATE tenants SET redsys_pay_methods = ARRAY['C', 'z', 'p'] WHERE id = 'demo'`),
    );
    try {
      const body = (await preview({ payment_ids: [item?.payment_id] })).json<Preview>();
      expect(body.methods).toEqual(['credit_card', 'bizum', 'paypal']);
      const started = await me.post('/redsys/init-payment', paypal);
      expect(started.statusCode).toBe(200);
      const params = decodeMerchantParameters(
        started.json<{ redsys_params: { Ds_MerchantParameters: string } }>().redsys_params
          .Ds_MerchantParameters,
      );
      expect(params.Ds_Merchant_PayMethods).toBe('p');
    } finally {
      await db.withOwner((sql) =>
        // Back to the seed's: the demo tenant takes Bizum (issue 23).
        sql.query(`UPDATE tenants SET redsys_pay_methods = ARRAY['C', 'z'] WHERE id = 'demo'`),
      );
    }
  });

  it("words a failed payment's cause from the gateway's answer, with its time in Madrid", async () => {
    const cases: [string, string][] = [
      ['0190', 'declined'],
      ['9915', 'cancelled'],
      ['0909', 'error'],
    ];
    for (const [response, failure] of cases) {
      const [item] = await payments();
      const started = await me.post('/redsys/init-payment', {
        payment_ids: [item?.payment_id],
        amount: item?.amount,
      });
      const { payment_id: id, redsys_params: signed } = started.json<{
        payment_id: string;
        redsys_params: { Ds_MerchantParameters: string };
      }>();
      const pending = (await me.get(`/redsys/payment/${id}/status`)).json();
      expect(pending).toMatchObject({ status: 'pending', failure: null });
      const p = decodeMerchantParameters(signed.Ds_MerchantParameters);
      expect((await notify(signedNotification(p, response))).statusCode).toBe(200);
      const status = (await me.get(`/redsys/payment/${id}/status`)).json<{
        status: string;
        failure: string;
        date: string;
        time: string;
      }>();
      expect(status).toMatchObject({ status: 'failed', failure });
      expect(status.date).toBe(todayIso());
      expect(status.time).toMatch(/^\d{2}:\d{2}$/);
    }
  });
});

describe("the club's name on the gateway's page", () => {
  it('is whole on the simulator, and cut at a word within Redsys 25 characters elsewhere', () => {
    const name = 'Club Deportivo Polideportivo Municipal de Valdemoro';
    expect(merchantName(name, 'simulator')).toBe(name);
    expect(merchantName(name, 'production')).toBe('Club Deportivo');
    expect(merchantName(name, 'test').length).toBeLessThanOrEqual(25);
    expect(merchantName('Gimnasio Sol', 'production')).toBe('Gimnasio Sol');
    expect(merchantName('Supercalifragilisticoespialidoso', 'test')).toBe(
      'Supercalifragilisticoespi',
    );
  });
});
