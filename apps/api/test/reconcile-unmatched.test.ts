import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { QueryOperation } from '@portal/redsys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { todayIso } from '../src/lib/dates.ts';
import { createSecretBox } from '../src/lib/secret-box.ts';
import { createDeclineMailSender } from '../src/modules/auto-pay/declines.ts';
import { createAutoPayMailer } from '../src/modules/auto-pay/mail.ts';
import { createAutoPayCharger } from '../src/modules/auto-pay/service.ts';
import { createReconciler } from '../src/modules/payments/reconcile.ts';
import type { RedsysClient } from '../src/modules/payments/redsys-client.ts';
import { createPaymentService } from '../src/modules/payments/service.ts';
import { buildTestApp, engines } from './engines.ts';
import { signedIn } from './session.ts';
import { startCheckout } from './checkout.ts';
import { turnOnAutoPay } from './auto-pay-fixture.ts';

/*
 * Session 34's money review: "every started checkout ends settled or released". The reconciliation releases
 * an attempt the gateway cannot settle once it is older than RECONCILE_RELEASE_AFTER_MINUTES
 * (unknown states, no answer, a forged answer) — except when the gateway's signed answer is final
 * but does not match the attempt (settle answers `mismatch`, or `unknown_order`): then
 * reconcile.ts keeps the outcome and never calls `letGoIfOld`, so the attempt stays pending on
 * every run, forever. Its instalments stay held: an auto-pay charge in that state answers every
 * manual start 409 payment_in_progress and is never retried. And `stalePending` takes the 50
 * oldest: 50 such attempts hide every newer one of the tenant from the reconciliation.
 */

const box = createSecretBox(randomBytes(32));
const quiet = { warn: () => {}, error: () => {} };

describe.each(engines())('a reconciliation that lets go on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let service: ReturnType<typeof createPaymentService>;

  beforeAll(async () => {
    db = await engine.open();
    app = await buildTestApp(db, { NOTIFICATION_URL: 'http://127.0.0.1:9' });
    me = await signedIn(app, 'demo');
    service = createPaymentService({
      db,
      secretBox: box,
      simulatorUrl: 'http://127.0.0.1:9',
      notificationBaseUrl: 'http://127.0.0.1:9',
      onPaid: async () => {},
      log: quiet,
    });
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  /**
   * A gateway whose (signed, verified) query answers are final: authorised, for the amount
   * `amountOf(order)` says (the attempt's own unless a test says otherwise).
   */
  const gatewayAnswering = (amountOf: (order: string) => number | undefined) =>
    ({
      queryOrder: async (_gateway: unknown, order: string, query: { merchantCode?: string }) => {
        const amountCents = amountOf(order);
        if (amountCents === undefined) return { kind: 'not_found' as const };
        const operation: QueryOperation = {
          order,
          transactionType: '0',
          state: 'F',
          response: '0000',
          amountCents,
          currency: '978',
          authorisationCode: '123456',
          merchantCode: query.merchantCode ?? '',
          terminal: '001',
          date: '2026-01-10',
          hour: '10:00',
        };
        return { kind: 'ok' as const, operations: [operation] };
      },
    }) as unknown as RedsysClient;
  const reconciler = (client: RedsysClient) =>
    createReconciler({
      db,
      secretBox: box,
      service,
      client,
      afterMinutes: 15,
      releaseAfterMinutes: 120,
      log: quiet,
    });
  const attempt = async (id: string) =>
    (
      await db.withOwner((sql) =>
        sql.query<{ status: string; order_number: string; amount_cents: number }>(
          'SELECT status, order_number, amount_cents FROM payment_attempts WHERE id = $1',
          [id],
        ),
      )
    )[0];
  const age = (id: string, minutes: number) =>
    db.withOwner((sql) =>
      sql.query(
        `UPDATE payment_attempts SET created_at = now() - make_interval(mins => $2) WHERE id = $1`,
        [id, minutes],
      ),
    );

  it('releases an auto-pay charge whose final answer never matches, instead of holding its instalment forever', async () => {
    // The demo customer pays instalments by auto-pay with their saved card; one is due today.
    const [item] = await db.withOwner(async (sql) => {
      await sql.query(
        `UPDATE tenants SET auto_pay = true, auto_pay_notice_days = 0 WHERE id = 'demo'`,
      );
      await sql.query(
        `UPDATE instalments SET method = 'Domiciliación bancaria'
          WHERE tenant_id = 'demo' AND status IN ('pending', 'returned')`,
      );
      return sql.query<{ id: string; amount_cents: string }>(
        `UPDATE instalments SET status = 'pending', paid_date = NULL, method = 'Tarjeta',
                due_date = $1
          WHERE tenant_id = 'demo' AND id IN (
            SELECT e.id FROM instalments e JOIN customers c
              ON c.tenant_id = e.tenant_id AND c.id = e.customer_id
             WHERE e.tenant_id = 'demo' AND c.email = 'cliente@demo.test' AND e.status = 'paid'
               AND NOT EXISTS (SELECT 1 FROM payment_attempt_items x WHERE x.instalment_id = e.id)
             ORDER BY e.due_date DESC LIMIT 1)
          RETURNING id::text, amount_cents`,
        [todayIso()],
      );
    });
    if (!item) throw new Error('no instalment');
    const cardId = (await me.get('/payment-methods'))
      .json<{ methods: { id: string; kind: string }[] }>()
      .methods.find((m) => m.kind === 'card')?.id;
    await turnOnAutoPay(app, me, String(cardId));
    // The charge goes out; its answer is lost (a timeout): left for the reconciliation.
    const mail = createAutoPayMailer(db, { send: async () => {} });
    const charger = createAutoPayCharger({
      db,
      payments: service,
      send: async () => ({ kind: 'unknown', reason: 'timeout' }),
      mail,
      declineMails: createDeclineMailSender({ db, mail, log: quiet }),
      log: quiet,
    });
    expect(await charger.charge({ tenantId: 'demo', instalmentId: item.id, attemptNo: 1 })).toBe(
      'unknown',
    );
    const [charge] = await db.withOwner((sql) =>
      sql.query<{ id: string }>(
        `SELECT payment_attempt_id::text AS id FROM auto_pay_charges WHERE instalment_id::text = $1`,
        [item.id],
      ),
    );
    if (!charge) throw new Error('no charge');
    const order = (await attempt(charge.id))?.order_number;
    // Three hours later (past the 120-minute bound), the gateway's signed query answer is final
    // but is not the attempt's (here: one cent more).
    await age(charge.id, 180);
    const client = gatewayAnswering((o) =>
      o === order ? Number(item.amount_cents) + 1 : undefined,
    );
    const runs = [
      await reconciler(client).reconcileTenant('demo'),
      await reconciler(client).reconcileTenant('demo'),
    ];
    const manual = await me.post('/redsys/init-payment', {
      amount: Number(item.amount_cents) / 100,
      payment_ids: [item.id],
    });
    // Before the fix: 'mismatch' on every run, the charge pending for ever, and the customer's own
    // payment of the instalment refused 409 payment_in_progress for ever (auto-pay never retries
    // it either: its last charge is not 'failed').
    expect({
      outcomes: runs.map((r) => r.map((x) => x.outcome)),
      attempt: (await attempt(charge.id))?.status,
      manualStart: manual.statusCode,
    }).toEqual({
      outcomes: expect.anything(),
      attempt: expect.not.stringMatching(/^pending$/),
      manualStart: 200,
    });
  });

  it('50 attempts it cannot match do not hide a newer, authorised one from the reconciliation', async () => {
    // Nothing left open by the test before.
    await db.withOwner(async (sql) => {
      await sql.query(
        `UPDATE payment_attempts SET status = 'failed', settled_at = now()
          WHERE tenant_id = 'demo' AND status = 'pending'`,
      );
      await sql.query(
        "UPDATE payment_attempt_items SET active = false WHERE tenant_id = 'demo' AND active",
      );
    });
    // 50 old checkouts whose gateway answers never match (as above), and one real payment made
    // after them that Redsys authorised but never notified.
    const stuck = await db.withOwner((sql) =>
      sql.query<{ order_number: string }>(
        `INSERT INTO payment_attempts (tenant_id, customer_id, order_number, merchant_code, terminal,
                amount_cents, save_card, signature_version, language, created_at)
         SELECT a.tenant_id, a.customer_id, lpad(g::text, 4, '0') || 'stuck' || lpad(g::text, 3, '0'),
                a.merchant_code, a.terminal, 1000, false, 'HMAC_SHA256_V1', 'es',
                now() - make_interval(hours => 10, mins => g)
           FROM generate_series(1, 50) g,
                (SELECT t.id AS tenant_id, c.id AS customer_id, t.redsys_merchant_code AS merchant_code,
                        t.redsys_terminal AS terminal
                   FROM tenants t JOIN customers c ON c.tenant_id = t.id
                  WHERE t.id = 'demo' AND c.email = 'cliente@demo.test') a
         RETURNING order_number`,
      ),
    );
    expect(stuck).toHaveLength(50);
    const healthy = await startCheckout(me);
    const healthyOrder = healthy.p.Ds_Merchant_Order;
    await age(healthy.id, 30);
    const stuckOrders = new Set(stuck.map((s) => s.order_number));
    const client = gatewayAnswering((o) =>
      o === healthyOrder
        ? Math.round(healthy.item.amount * 100)
        : stuckOrders.has(o)
          ? 999
          : undefined,
    );
    // Several runs of the job (it runs every few minutes).
    for (let i = 0; i < 3; i++) await reconciler(client).reconcileTenant('demo');
    // Before the fix: the 50 old ones were asked about on every run and never let go; the healthy
    // payment was never asked about, stayed pending, and its instalment stayed unpaid.
    expect.soft((await attempt(healthy.id))?.status).toBe('paid');
    // Control (the healthy answer is right): with the 50 out of the way, one run pays it.
    await db.withOwner((sql) =>
      sql.query(
        `UPDATE payment_attempts SET status = 'failed', settled_at = now()
          WHERE tenant_id = 'demo' AND order_number LIKE '____stuck%'`,
      ),
    );
    await reconciler(client).reconcileTenant('demo');
    expect((await attempt(healthy.id))?.status).toBe('paid');
  });
});
