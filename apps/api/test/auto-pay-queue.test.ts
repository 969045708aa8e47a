import type { FastifyInstance } from 'fastify';
import { buildSimulator } from '@portal/redsys-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { openQueue } from '../src/db/job-queue.ts';
import { todayIso } from '../src/lib/dates.ts';
import { autoPayChargeQueue, chargeKey } from '../src/modules/auto-pay/jobs.ts';
import { createAutoPayMailer } from '../src/modules/auto-pay/mail.ts';
import { createDeclineMailSender } from '../src/modules/auto-pay/declines.ts';
import { createAutoPayCharger, type AutoPayJob } from '../src/modules/auto-pay/service.ts';
import { workPeriodicJobs, type PeriodicJob } from '../src/modules/jobs/periodic.ts';
import { createRedsysClient } from '../src/modules/payments/redsys-client.ts';
import { engines } from './engines.ts';
import { quiet, testPaymentService } from './lost-notifications.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Auto-pay on the real job queue: two instances sweep every second and work the charge queue
 * (pg-boss, singleton key per instalment and charge number); each instalment due is charged once
 * at the gateway, whatever the overlap.
 */
describe.each(engines())('auto-pay on the job queue ($name)', (engine) => {
  let db: Database;
  let sim: FastifyInstance;
  let simUrl: string;
  const stops: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    db = await engine.open();
    sim = buildSimulator({ inspect: true, demoReferencePrefix: 'demo' });
    await sim.listen({ host: '127.0.0.1', port: 0 });
    simUrl = `http://127.0.0.1:${(sim.server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    for (const stop of stops) await stop().catch(() => {});
    await sim.close();
    await db.close();
  });

  /** One "instance": its pg-boss, the auto-pay sweep every second and the charge queue's worker. */
  async function instance(worked: AutoPayJob[]) {
    const charger = createAutoPayCharger({
      db,
      payments: testPaymentService(db, simUrl),
      send: (gateway, input) =>
        createRedsysClient({ simulatorUrl: simUrl }).mitCharge(gateway, input),
      mail: createAutoPayMailer(db, { send: async () => {} }),
      declineMails: createDeclineMailSender({
        db,
        mail: createAutoPayMailer(db, { send: async () => {} }),
        log: quiet,
      }),
      log: quiet,
    });
    const job: PeriodicJob = {
      name: 'test-auto-pay',
      everySeconds: 1,
      run: (queue) =>
        charger.sweep(async (due) => {
          await queue?.send(autoPayChargeQueue, due, chargeKey(due));
        }),
      workers: [
        {
          name: autoPayChargeQueue,
          work: async (data) => {
            const due = data as AutoPayJob;
            worked.push(due);
            await charger.charge(due);
          },
        },
      ],
    };
    const boss = openQueue(db, { migrate: false, supervise: true });
    boss.on('error', () => {});
    await boss.start();
    const stopOffers = await workPeriodicJobs(boss, [job], {
      log: quiet,
      metrics: { countJob: () => {} },
      retries: { limit: 0, delaySeconds: 1 },
    });
    const stop = async () => {
      stopOffers();
      await boss.stop({ graceful: true, wait: true, timeout: 5000, close: false });
    };
    stops.push(stop);
    return stop;
  }

  it('charges each instalment due once with two instances sweeping and working at once', async () => {
    const today = todayIso();
    const due = await db.withOwner(async (sql) => {
      await sql.query(
        "UPDATE instalments SET method = 'Domiciliación bancaria' WHERE status IN ('pending', 'returned')",
      );
      const [card] = await sql.query<{ id: string; customer_id: string }>(
        `SELECT m.id, m.customer_id FROM payment_methods m JOIN customers c
            ON c.tenant_id = m.tenant_id AND c.id = m.customer_id
          WHERE m.tenant_id = 'demo' AND c.email = 'cliente@demo.test' AND m.kind = 'card'`,
      );
      await sql.query(
        `INSERT INTO auto_pay_cards (tenant_id, customer_id, payment_method_id, since)
         VALUES ('demo', $1, $2, $3::date)`,
        [card?.customer_id, card?.id, today],
      );
      return sql.query<{ id: string }>(
        `UPDATE instalments SET status = 'pending', paid_date = NULL, method = 'Tarjeta', due_date = $2
          WHERE tenant_id = 'demo' AND id IN (
            SELECT id FROM instalments WHERE tenant_id = 'demo' AND customer_id = $1
               AND status = 'paid' ORDER BY due_date DESC LIMIT 3)
          RETURNING id`,
        [card?.customer_id, today],
      );
    });
    expect(due).toHaveLength(3);

    const worked: AutoPayJob[] = [];
    const a = await instance(worked);
    const b = await instance(worked);
    const ids = due.map((d) => d.id);
    const paid = async () =>
      (
        await db.withOwner((sql) =>
          sql.query("SELECT 1 FROM instalments WHERE id::text = ANY($1) AND status = 'paid'", [
            ids,
          ]),
        )
      ).length;
    for (let i = 0; i < 100 && (await paid()) < 3; i += 1) await sleep(100);
    // A few more periods of both instances sweeping: nothing more is charged.
    await sleep(2500);
    await a();
    await b();

    expect(await paid()).toBe(3);
    const charges = (await sim.inject('/__sim/mit-charges')).json<{
      charges: { order: string }[];
    }>().charges;
    expect(charges).toHaveLength(3);
    const rows = await db.withOwner((sql) =>
      sql.query('SELECT attempt_no FROM auto_pay_charges WHERE instalment_id::text = ANY($1)', [
        ids,
      ]),
    );
    expect(rows).toHaveLength(3);
    expect(worked.length).toBeGreaterThanOrEqual(3);
  });
});
