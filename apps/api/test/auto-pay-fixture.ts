import type { FastifyInstance } from 'fastify';
import { buildSimulator } from '@portal/redsys-sim';
import { expect } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { createDeclineMailSender } from '../src/modules/auto-pay/declines.ts';
import { createAutoPayMailer } from '../src/modules/auto-pay/mail.ts';
import { createAutoPayCharger, type AutoPayJob } from '../src/modules/auto-pay/service.ts';
import type { Mailer } from '../src/modules/mail/mailer.ts';
import { createRedsysClient, type MitChargeResult } from '../src/modules/payments/redsys-client.ts';
import { buildTestApp, type Engine } from './engines.ts';
import { quiet, testPaymentService } from './lost-notifications.ts';
import { signedIn } from './session.ts';

export type AutoPayFixture = {
  db: Database;
  app: FastifyInstance;
  simUrl: string;
  me: Awaited<ReturnType<typeof signedIn>>;
  /** The demo customer's saved card. */
  cardId: string;
  close(): Promise<void>;
};

/**
 * A private copy of the seeded database, the Redsys simulator (one notification attempt) and the
 * app on it, the demo customer signed in and its saved card: what the auto-pay tests start from.
 */
export async function openAutoPayFixture(engine: Engine): Promise<AutoPayFixture> {
  const db = await engine.open();
  const sim = buildSimulator({
    inspect: true,
    demoReferencePrefix: 'demo',
    notificationAttempts: 1,
  });
  await sim.listen({ host: '127.0.0.1', port: 0 });
  const simUrl = `http://127.0.0.1:${(sim.server.address() as { port: number }).port}`;
  const app = await buildTestApp(db, {
    PUBLIC_URL: 'http://localhost:3000',
    REDSYS_SIMULATOR_URL: simUrl,
    NOTIFICATION_URL: 'http://127.0.0.1:9',
  });
  const me = await signedIn(app, 'demo');
  const methods = (await me.get('/payment-methods')).json<{
    methods: { id: string; kind: string }[];
  }>().methods;
  return {
    db,
    app,
    simUrl,
    me,
    cardId: methods.find((m) => m.kind === 'card')?.id ?? '',
    async close() {
      await app.close();
      await sim.close();
      await db.close();
    },
  };
}

/**
 * Before each test: no auto-pay card, the tenant offering auto-pay (no notice, 2 retries every 2
 * days), and nothing else due by card (every other unpaid instalment a direct debit).
 */
export async function resetAutoPay(db: Database): Promise<void> {
  await db.withOwner(async (sql) => {
    await sql.query("DELETE FROM auto_pay_cards WHERE tenant_id = 'demo'");
    await sql.query(
      `UPDATE tenants SET auto_pay = true, auto_pay_notice_days = 0, auto_pay_retries = 2,
              auto_pay_retry_days = 2 WHERE id = 'demo'`,
    );
    await sql.query(
      `UPDATE instalments SET method = 'Domiciliación bancaria'
        WHERE tenant_id = 'demo' AND status IN ('pending', 'returned')`,
    );
  });
}

/**
 * One of the demo customer's paid instalments (never charged by auto-pay nor paid through an
 * attempt) owed again: pending, paid by card, due on `dueDate`.
 */
export async function oweByCard(
  db: Database,
  dueDate: string,
): Promise<{ id: string; amountCents: number }> {
  const [row] = await db.withOwner((sql) =>
    sql.query<{ id: string; amount_cents: string }>(
      `UPDATE instalments SET status = 'pending', paid_date = NULL, method = 'Tarjeta', due_date = $1
        WHERE tenant_id = 'demo' AND id IN (
          SELECT e.id FROM instalments e JOIN customers c
            ON c.tenant_id = e.tenant_id AND c.id = e.customer_id
           WHERE e.tenant_id = 'demo' AND c.email = 'cliente@demo.test' AND e.status = 'paid'
             AND NOT EXISTS (SELECT 1 FROM auto_pay_charges x WHERE x.instalment_id = e.id)
             AND NOT EXISTS (SELECT 1 FROM payment_attempt_items x WHERE x.instalment_id = e.id)
           ORDER BY e.due_date DESC LIMIT 1)
        RETURNING id, amount_cents`,
      [dueDate],
    ),
  );
  if (!row) throw new Error('no instalment to owe');
  return { id: row.id, amountCents: Number(row.amount_cents) };
}

/** The customer `who` turns auto-pay on (or off) for their card `cardId`: the API's answer. */
export const putAutoPay = (
  app: Pick<FastifyInstance, 'inject'>,
  who: { token: string },
  cardId: string,
  enabled: boolean,
) =>
  app.inject({
    method: 'PUT',
    url: `/demo/api/1.0/payment-methods/${cardId}/auto-pay`,
    headers: { authorization: `Bearer ${who.token}` },
    payload: { enabled },
  });

/** The customer turns auto-pay on for their card `cardId`: answered 200. */
export async function turnOnAutoPay(
  app: Pick<FastifyInstance, 'inject'>,
  me: { token: string },
  cardId: string,
): Promise<void> {
  const on = await putAutoPay(app, me, cardId, true);
  expect(on.statusCode, on.body).toBe(200);
}

/**
 * Auto-pay's charger as its jobs build it, charging at the simulator `simUrl`, paying through
 * `testPaymentService` and mailing through `mailer`; `lose` drops the gateway's answer (a timeout
 * after Redsys got the charge).
 */
export function testCharger(db: Database, simUrl: string, mailer: Mailer, lose = false) {
  const redsys = createRedsysClient({ simulatorUrl: simUrl });
  const mail = createAutoPayMailer(db, mailer);
  return createAutoPayCharger({
    db,
    payments: testPaymentService(db, simUrl),
    send: async (gateway, input): Promise<MitChargeResult> => {
      const answer = await redsys.mitCharge(gateway, input);
      return lose ? { kind: 'unknown', reason: 'timeout' } : answer;
    },
    mail,
    declineMails: createDeclineMailSender({ db, mail, log: quiet }),
    log: quiet,
  });
}

/** One sweep of auto-pay by `run` at `now`, each job charged at once: the jobs and their outcomes. */
export async function sweepOnce(run: ReturnType<typeof testCharger>, now = new Date()) {
  const jobs: AutoPayJob[] = [];
  await run.sweep(async (job) => {
    jobs.push(job);
  }, now);
  const outcomes = await Promise.all(jobs.map((job) => run.charge(job, now)));
  return { jobs, outcomes };
}
