import type { FastifyInstance } from 'fastify';
import type { Database } from '../src/db/database.ts';
import { startSmtp } from '../../../tools/test-smtp.ts';
import { buildTestApp, type Engine } from './engines.ts';

export type MailingApp = {
  db: Database;
  app: FastifyInstance;
  smtp: Awaited<ReturnType<typeof startSmtp>>;
  close(): Promise<void>;
};

/**
 * A private copy of the seeded database, a local SMTP server and the app sending to it, its links
 * built from http://localhost:3000: what the account tests (sign-in, sessions, password) need.
 */
export async function openMailingApp(engine: Engine): Promise<MailingApp> {
  const db = await engine.open();
  const smtp = await startSmtp();
  const app = await buildTestApp(db, { PUBLIC_URL: 'http://localhost:3000', SMTP_URL: smtp.url });
  return {
    db,
    app,
    smtp,
    async close() {
      await app.close();
      await db.close();
      await smtp.close();
    },
  };
}

/** The demo tenant's web origin (from its canonical URL): where its passkeys are made and used. */
export async function demoOrigin(db: Pick<Database, 'withOwner'>): Promise<string> {
  const [tenant] = await db.withOwner((sql) =>
    sql.query<{ canonical_url: string }>("SELECT canonical_url FROM tenants WHERE id = 'demo'"),
  );
  return new URL(tenant?.canonical_url ?? '').origin;
}
