import type { FastifyInstance } from 'fastify';
import { buildSimulator } from '@portal/redsys-sim';
import type { Database } from '../src/db/database.ts';
import { buildTestApp, type Engine } from './engines.ts';
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
