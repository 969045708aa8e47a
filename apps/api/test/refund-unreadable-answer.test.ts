import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { decodeMerchantParameters } from '@portal/redsys';
import { buildSimulator } from '@portal/redsys-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { createSecretBox } from '../src/lib/secret-box.ts';
import { createRedsysClient } from '../src/modules/payments/redsys-client.ts';
import { createPaymentRepository } from '../src/modules/payments/repository.ts';
import { createRefunder, refundsThrough } from '../src/modules/payments/refunds.ts';
import { demoEmail } from '../src/db/seed/demo.ts';
import { adminCommand } from './admin-run.ts';
import { firstUnpaid, payAtSimulator } from './checkout.ts';
import { buildTestApp, engines } from './engines.ts';
import { startGatewayProxy } from './gateway-proxy.ts';
import { postNotification, signedNotification } from './redsys-notification.ts';
import { signedIn } from './session.ts';

/*
 * Money review: a refund that REACHED Redsys and was made, but whose HTTP 200 answer cannot be read
 * (an HTML page of a proxy or of the gateway's maintenance, a body that is not Redsys' signed JSON,
 * an answer that does not verify), is recorded as REFUSED by Redsys ("refused", code `malformed` or
 * `bad_signature`), not as of unknown outcome.
 *
 * Scenario. The customer paid two instalments in one card payment after one of them had been paid
 * by another page: the surplus (one instalment) is refunded through Redsys. The refund request
 * reaches Redsys, which refunds it, but the 200 answer that comes back is not a readable signed
 * JSON. The refunds outbox leaves it for the operator as `review / refused`. The new check of
 * unknown outcomes (checkUnknown) never asks Redsys about it (it only takes `outcome_unknown`),
 * and `overpayments retry` needs no `--not-refunded` for it. The operator, told it was refused and
 * that `overpayments retry` sends it again (what `overpayments list` says), retries: Redsys
 * refunds it a second time (refunds of one order add up, and the surplus is under the amount paid).
 *
 * Should: an unreadable answer to a request that went out is an unknown outcome like a cut
 * connection or a 500/502/504 (refunds.ts `ambiguousCodes`): `outcome_unknown`, so Redsys is asked
 * (here it finds the refund and records it refunded) and the CLI's retry is guarded.
 */

const quiet = { warn: () => {}, error: () => {} };

describe.each(engines())('a refund whose answer cannot be read on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let sim: FastifyInstance;
  let simUrl: string;
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

  const refunder = () =>
    createRefunder({
      db,
      secretBox: createSecretBox(rootSecret),
      ...refundsThrough(createRedsysClient({ simulatorUrl: proxy.url, timeoutMs: 3_000 })),
      log: quiet,
    });
  const refundOf = (attemptId: string) =>
    db.withOwner((sql) =>
      sql.query<{ id: string; status: string; review_reason: string | null; amount_cents: number }>(
        'SELECT id, status, review_reason, amount_cents FROM payment_refunds WHERE attempt_id = $1',
        [attemptId],
      ),
    );
  /** What the gateway itself has refunded on the order (a Monitor query, straight to it). */
  const refundedAtGateway = async (order: string) => {
    const gateway = await db.withTenant('demo', (sql) =>
      createPaymentRepository(createSecretBox(rootSecret)).gateway(sql),
    );
    if (!gateway) throw new Error('no gateway');
    const answer = await createRedsysClient({ simulatorUrl: simUrl }).queryOrder(gateway, order, {
      message: 'Monitor',
    });
    if (answer.kind !== 'ok') throw new Error(`query: ${JSON.stringify(answer)}`);
    return answer.operations
      .filter((o) => o.transactionType === '3')
      .reduce((sum, o) => sum + o.amountCents, 0);
  };

  it('is never refunded twice: the unreadable answer is asked about, not taken as a refusal', async () => {
    const customer = await signedIn(app, 'demo', demoEmail);
    // Two unpaid instalments paid together on one page (A); the second one also alone on
    // another page (B), which is notified first: A's charge for it is a surplus to refund.
    const u1 = await firstUnpaid(customer);
    const start = async (items: { payment_id: string; amount: number }[]) => {
      const res = await customer.post('/redsys/init-payment', {
        amount: Math.round(items.reduce((s, i) => s + i.amount * 100, 0)) / 100,
        payment_ids: items.map((i) => i.payment_id),
      });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json<{ payment_id: string; redsys_params: Record<string, string> }>();
      return {
        id: body.payment_id,
        form: body.redsys_params,
        p: decodeMerchantParameters(body.redsys_params.Ds_MerchantParameters ?? ''),
      };
    };
    const unpaid = (
      await customer.post('/payments', {
        datefrom: '20000101',
        dateto: '20991231',
        page: '1',
        pending: true,
        overdue: true,
      })
    ).json<{ payments: { payment_id: string; amount: number }[] }>().payments;
    const u2 = unpaid.find((u) => u.payment_id !== u1.payment_id);
    if (!u2) throw new Error('needs two unpaid instalments');
    const a = await start([u1, u2]);
    const b = await start([u2]);
    await payAtSimulator(sim, simUrl, a.form);
    expect((await postNotification(app, signedNotification(b.p, '0000'))).statusCode).toBe(200);
    expect((await postNotification(app, signedNotification(a.p, '0000'))).statusCode).toBe(200);
    const order = a.p.Ds_Merchant_Order ?? '';
    const [refund] = await refundOf(a.id);
    if (!refund) throw new Error('no refund of the surplus');
    const surplus = Number(refund.amount_cents);
    expect(surplus).toBe(Math.round(u2.amount * 100));

    // The refund goes out; Redsys makes it; the answer that comes back cannot be read.
    proxy.route.refund = 'junk-after';
    await refunder().refundTenant('demo');
    proxy.route.refund = 'pass';
    expect(await refundedAtGateway(order)).toBe(surplus);
    const left = (await refundOf(a.id))[0];

    // A quarter of an hour later the outbox asks Redsys about refunds of unknown outcome.
    await db.withOwner((sql) =>
      sql.query(
        "UPDATE payment_refunds SET next_attempt_at = now() - interval '1 second' WHERE attempt_id = $1",
        [a.id],
      ),
    );
    await refunder().refundTenant('demo');

    // The operator follows `overpayments list`: one that waits for them is sent again with
    // `overpayments retry` (no --not-refunded is asked of a "refused" one).
    const admin = adminCommand(db, rootSecret);
    await admin('overpayments', 'retry', '--tenant', 'demo', '--id', refund.id);
    await refunder().refundTenant('demo');

    expect(
      {
        refundCalls: proxy.reached.filter((o) => o === order).length,
        refundedAtGateway: await refundedAtGateway(order),
      },
      `a refund Redsys made was left as ${left?.status}/${left?.review_reason} and sent again`,
    ).toEqual({ refundCalls: 1, refundedAtGateway: surplus });
  });
});
