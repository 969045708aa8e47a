import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildSimulator } from '@portal/redsys-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { createSecretBox } from '../src/lib/secret-box.ts';
import { createRedsysClient } from '../src/modules/payments/redsys-client.ts';
import { createRefunder, refundsThrough } from '../src/modules/payments/refunds.ts';
import { demoEmail } from '../src/db/seed/demo.ts';
import { adminCommand } from './admin-run.ts';
import { startGatewayProxy } from './gateway-proxy.ts';
import { payAtSimulator, startCheckout } from './checkout.ts';
import { buildTestApp, engines } from './engines.ts';
import { postNotification, signedNotification } from './redsys-notification.ts';
import { signedIn } from './session.ts';

/*
 * A refund sent to Redsys whose answer never came (a timeout, a cut connection, a sender that died
 * mid-call) may or may not have been made, and refunds of one order add up at Redsys: it is never
 * sent again blindly. Before, it waited for the operator for ever, and `overpayments retry` sent it
 * again at once, refunding twice what Redsys had already refunded. Now the outbox asks Redsys for
 * the order's refunds (consultaOperaciones, type 3) a while later: made, it is recorded refunded
 * (the customer told); none at all, it is sent again; anything else, asked again later. And the
 * operator's retry of one of unknown outcome needs --not-refunded (checked in the back office).
 */

const quiet = { warn: () => {}, error: () => {} };

describe.each(engines())('a refund of unknown outcome on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let sim: FastifyInstance;
  let simUrl: string;
  // Between the portal and the simulator: what happens to refund calls and to queries.
  let proxy: Awaited<ReturnType<typeof startGatewayProxy>>;
  const rootSecret = randomBytes(32);

  beforeAll(async () => {
    db = await engine.open();
    sim = buildSimulator({ notificationAttempts: 1, notificationTimeoutMs: 500 });
    await sim.listen({ host: '127.0.0.1', port: 0 });
    simUrl = `http://127.0.0.1:${(sim.server.address() as { port: number }).port}`;
    proxy = await startGatewayProxy(simUrl);
    app = await buildTestApp(
      db,
      { REDSYS_SIMULATOR_URL: simUrl, NOTIFICATION_URL: 'http://127.0.0.1:9' },
      rootSecret,
    );
  });
  afterAll(async () => {
    await proxy.close();
    await app.close();
    await sim.close();
    await db.close();
  });

  const client = () =>
    createRedsysClient({
      simulatorUrl: proxy.url,
      timeoutMs: 3_000,
    });
  const refunder = () => {
    const redsys = client();
    return createRefunder({
      db,
      secretBox: createSecretBox(rootSecret),
      ...refundsThrough(redsys),
      log: quiet,
    });
  };
  const notify = (message: Record<string, string>) => postNotification(app, message);

  /** The customer paid one instalment twice (two card pages, both paid): a surplus to refund. */
  async function overpaid() {
    const customer = await signedIn(app, 'demo', demoEmail);
    const first = await startCheckout(customer);
    const second = await startCheckout(customer, first.item);
    await payAtSimulator(sim, simUrl, first.form);
    expect((await notify(signedNotification(second.p, '0000'))).statusCode).toBe(200);
    expect((await notify(signedNotification(first.p, '0000'))).statusCode).toBe(200);
    const [refund] = await refundOf(first.id);
    if (!refund) throw new Error('no refund of the surplus');
    return { attemptId: first.id, order: first.p.Ds_Merchant_Order ?? '', refund };
  }
  const refundOf = (attemptId: string) =>
    db.withOwner((sql) =>
      sql.query<{
        id: string;
        status: string;
        review_reason: string | null;
        ds_authorisation_code: string | null;
        check_due: boolean;
      }>(
        `SELECT id, status, review_reason, ds_authorisation_code, next_attempt_at <= now() AS check_due
           FROM payment_refunds WHERE attempt_id = $1`,
        [attemptId],
      ),
    );
  /** The next check is due now (it was put a quarter of an hour later). */
  const checkNow = (attemptId: string) =>
    db.withOwner((sql) =>
      sql.query(
        "UPDATE payment_refunds SET next_attempt_at = now() - interval '1 second' WHERE attempt_id = $1",
        [attemptId],
      ),
    );
  const reachedFor = (order: string) => proxy.reached.filter((o) => o === order).length;
  const refundNotices = (attemptId: string) =>
    db.withOwner((sql) =>
      sql.query(
        "SELECT 1 FROM notifications WHERE type = 'payment_refunded' AND params->>'payment_id' = $1",
        [attemptId],
      ),
    );

  it('made by Redsys though its answer was lost: recorded refunded once Redsys says so, never sent twice', async () => {
    const { attemptId, order } = await overpaid();
    proxy.route.refund = 'cut-after';
    await refunder().refundTenant('demo');
    expect(await refundOf(attemptId)).toMatchObject([
      { status: 'review', review_reason: 'outcome_unknown', check_due: false },
    ]);
    expect(reachedFor(order)).toBe(1);
    proxy.route.refund = 'pass';
    await checkNow(attemptId);
    const results = await refunder().refundTenant('demo');
    expect(results.filter((r) => r.outcome === 'refunded')).toHaveLength(1);
    // Recorded with the authorisation Redsys gave the refund; the customer is told, once.
    const [refund] = await refundOf(attemptId);
    expect(refund).toMatchObject({ status: 'refunded' });
    expect(refund?.ds_authorisation_code).toMatch(/^\w{1,12}$/);
    expect(await refundNotices(attemptId)).toHaveLength(1);
    expect(reachedFor(order), 'the surplus was refunded twice').toBe(1);
  });

  it('that never reached Redsys: sent again once Redsys says the order has no refund, once with two senders', async () => {
    const { attemptId, order } = await overpaid();
    proxy.route.refund = 'cut-before';
    await refunder().refundTenant('demo');
    expect(await refundOf(attemptId)).toMatchObject([{ review_reason: 'outcome_unknown' }]);
    proxy.route.refund = 'pass';
    await checkNow(attemptId);
    // Two instances run the outbox at the same moment: one asks, and sends it once.
    await Promise.all([refunder().refundTenant('demo'), refunder().refundTenant('demo')]);
    expect(await refundOf(attemptId)).toMatchObject([{ status: 'refunded' }]);
    expect(reachedFor(order)).toBe(1);
    expect(await refundNotices(attemptId)).toHaveLength(1);
  });

  it('with no trustworthy answer: left for the operator, asked again later, never sent', async () => {
    const { attemptId, order } = await overpaid();
    proxy.route.refund = 'cut-after';
    proxy.route.query = 'cut-after';
    try {
      await refunder().refundTenant('demo');
      await checkNow(attemptId);
      expect(await refunder().refundTenant('demo')).toContainEqual({
        refundId: (await refundOf(attemptId))[0]?.id,
        outcome: 'review',
        code: 'outcome_unknown',
      });
      expect(await refundOf(attemptId)).toMatchObject([
        { status: 'review', review_reason: 'outcome_unknown', check_due: false },
      ]);
      expect(reachedFor(order)).toBe(1);
    } finally {
      proxy.route.refund = 'pass';
      proxy.route.query = 'pass';
    }
  });

  it("the operator's retry of one of unknown outcome needs --not-refunded", async () => {
    const { attemptId, refund } = await overpaid();
    proxy.route.refund = 'cut-before';
    await refunder().refundTenant('demo');
    proxy.route.refund = 'pass';
    const admin = adminCommand(db, rootSecret);
    const retry = ['overpayments', 'retry', '--tenant', 'demo', '--id', refund.id];
    const refused = await admin(...retry);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/may already be refunded.*--not-refunded/s);
    expect(await refundOf(attemptId)).toMatchObject([{ review_reason: 'outcome_unknown' }]);
    expect((await admin(...retry, '--not-refunded')).code).toBe(0);
    expect(await refundOf(attemptId)).toMatchObject([{ status: 'pending' }]);
  });
});
