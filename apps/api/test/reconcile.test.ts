import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { decodeMerchantParameters } from '@portal/redsys';
import { buildSimulator } from '@portal/redsys-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { createSecretBox } from '../src/lib/secret-box.ts';
import { createPaymentService } from '../src/modules/payments/service.ts';
import { createReconciler } from '../src/modules/payments/reconcile.ts';
import { buildTestApp, engines } from './engines.ts';
import { signedIn } from './session.ts';

/** The seeded keys are plaintext (sealed only at a server's start), which any box opens. */
const box = createSecretBox(randomBytes(32));
const range = { datefrom: '20000101', dateto: '20991231' };

/**
 * A payment whose notification never arrives (the merchant URL is unreachable) is settled by
 * asking the gateway: the real local simulator answers for the order.
 */
describe.each(engines())('reconciliation of stale payments on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let sim: FastifyInstance;
  let simUrl: string;
  let me: Awaited<ReturnType<typeof signedIn>>;

  beforeAll(async () => {
    db = await engine.open();
    sim = buildSimulator({ notificationAttempts: 1, notificationTimeoutMs: 500 });
    await sim.listen({ host: '127.0.0.1', port: 0 });
    simUrl = `http://127.0.0.1:${(sim.server.address() as { port: number }).port}`;
    // Port 9 (discard) refuses: the simulator's notification is lost, as when the API is down.
    app = await buildTestApp(db, {
      REDSYS_SIMULATOR_URL: simUrl,
      NOTIFICATION_URL: 'http://127.0.0.1:9',
    });
    me = await signedIn(app, 'demo');
  });
  afterAll(async () => {
    await app.close();
    await sim.close();
    await db.close();
  });

  const reconciler = () =>
    createReconciler({
      db,
      secretBox: box,
      service: createPaymentService({
        db,
        secretBox: box,
        simulatorUrl: simUrl,
        notificationBaseUrl: 'http://127.0.0.1:9',
        onPaid: async () => {},
        log: { warn: () => {}, error: () => {} },
      }),
      simulatorUrl: simUrl,
      afterMinutes: 1,
      log: { warn: () => {} },
    });
  const age = (id: string) =>
    db.withOwner((sql) =>
      sql.query(
        "UPDATE payment_attempts SET created_at = now() - interval '2 minutes' WHERE id = $1",
        [id],
      ),
    );
  const statusOf = async (id: string) =>
    (await me.get(`/redsys/payment/${id}/status`)).json<{ status: string }>().status;

  it('pays an attempt the gateway authorised but never notified', async () => {
    const [first] = (
      await me.post('/payments', { ...range, page: '1', pending: true, overdue: true })
    ).json<{
      payments: { payment_id: string; amount: number }[];
    }>().payments;
    const res = await me.post('/redsys/init-payment', {
      amount: first?.amount,
      payment_ids: [first?.payment_id],
    });
    const { payment_id: id, redsys_params: form } = res.json<{
      payment_id: string;
      redsys_params: Record<string, string>;
    }>();
    // The browser posts the signed form to the gateway, then pays with the authorised test card.
    const page = await sim.inject({
      method: 'POST',
      url: '/sis/realizarPago',
      payload: new URLSearchParams(form).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(page.statusCode).toBe(200);
    const action = /action="([^"]*tarjeta)"/.exec(page.body)?.[1] ?? '';
    const paid = await sim.inject({
      method: 'POST',
      url: new URL(action, simUrl).pathname,
      payload: new URLSearchParams({
        card_number: '4548812049400004',
        expiry: '12/30',
        cvc: '123',
        action: 'pay',
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect([200, 302, 303]).toContain(paid.statusCode);
    expect(await statusOf(id)).toBe('pending');

    // Too young: left alone. Old enough: the gateway's answer settles it.
    expect(await reconciler().reconcileTenant('demo')).toEqual([]);
    await age(id);
    expect(await reconciler().reconcileTenant('demo')).toEqual([
      { attemptId: id, outcome: 'paid' },
    ]);
    expect(await statusOf(id)).toBe('paid');
    expect(
      decodeMerchantParameters(form.Ds_MerchantParameters ?? '').Ds_Merchant_Order,
    ).toBeTruthy();
  });

  it('frees the instalments of an attempt the gateway never received', async () => {
    const [first] = (
      await me.post('/payments', { ...range, page: '1', pending: true, overdue: true })
    ).json<{
      payments: { payment_id: string; amount: number }[];
    }>().payments;
    const body = { amount: first?.amount, payment_ids: [first?.payment_id] };
    const id = (await me.post('/redsys/init-payment', body)).json<{ payment_id: string }>()
      .payment_id;
    await age(id);
    expect(await reconciler().reconcileTenant('demo')).toEqual([
      { attemptId: id, outcome: 'released' },
    ]);
    expect(await statusOf(id)).toBe('failed');
    expect((await me.post('/redsys/init-payment', body)).statusCode).toBe(200);
  });

  it('asks the gateway about a superseded attempt: paid on the old card page, it pays', async () => {
    const [first] = (
      await me.post('/payments', { ...range, page: '1', pending: true, overdue: true })
    ).json<{
      payments: { payment_id: string; amount: number }[];
    }>().payments;
    const body = { amount: first?.amount, payment_ids: [first?.payment_id] };
    const old = (await me.post('/redsys/init-payment', body)).json<{
      payment_id: string;
      redsys_params: Record<string, string>;
    }>();
    // The customer opened the card page, went Back and started again (the old one is superseded)...
    const again = (await me.post('/redsys/init-payment', body)).json<{ payment_id: string }>();
    expect(await statusOf(old.payment_id)).toBe('superseded');
    // ...but then paid on the old page after all, and its notification was lost.
    const page = await sim.inject({
      method: 'POST',
      url: '/sis/realizarPago',
      payload: new URLSearchParams(old.redsys_params).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const action = /action="([^"]*tarjeta)"/.exec(page.body)?.[1] ?? '';
    await sim.inject({
      method: 'POST',
      url: new URL(action, simUrl).pathname,
      payload: new URLSearchParams({
        card_number: '4548812049400004',
        expiry: '12/30',
        cvc: '123',
        action: 'pay',
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    await age(old.payment_id);
    await age(again.payment_id);
    const results = await reconciler().reconcileTenant('demo');
    // The old attempt's money is recorded and pays the instalment; the new one was never paid.
    expect(results).toContainEqual({ attemptId: old.payment_id, outcome: 'paid' });
    expect(results).toContainEqual({ attemptId: again.payment_id, outcome: 'released' });
    expect(await statusOf(old.payment_id)).toBe('paid');
    // Settled: neither is asked about again.
    const later = await reconciler().reconcileTenant('demo');
    expect(later.map((r) => r.attemptId)).not.toContain(old.payment_id);
    expect(later.map((r) => r.attemptId)).not.toContain(again.payment_id);
  });
});
