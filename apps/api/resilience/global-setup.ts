import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPostgres } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { seedDemo } from '../src/db/seed/demo.ts';
import { startSmtp } from '../../../tools/test-smtp.ts';
import {
  postgresUrl,
  startPrivatePostgres,
  stopPrivatePostgres,
  type PrivatePostgresInfo,
} from './support/private-postgres.ts';

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  export interface ProvidedContext {
    resilience: {
      /** Every API and gateway process of the run writes its log here; the PAN scan reads it. */
      logDir: string;
      postgres: PrivatePostgresInfo;
      /** A migrated, seeded database each test file copies. */
      template: string;
      /** A real SMTP server the API processes send their e-mail to (production needs one). */
      smtpUrl: string;
    };
  }
}

export const templateName = 'portal_resilience_tpl';

/**
 * One private PostgreSQL cluster for the whole resilience run (the fault test restarts it, so it
 * is never the machine's shared server), with a seeded template database (its tenants in test
 * mode, as the demo seed makes them), a local SMTP server, and one folder for the logs. Both are removed at the end, whatever happened; KEEP_RESILIENCE_LOGS=1 keeps the logs.
 */
export default async function setup(project: TestProject) {
  // The API processes run compiled, as production runs them.
  if (!existsSync(fileURLToPath(new URL('../dist/server.js', import.meta.url))))
    throw new Error('The API is not built: run `npm run test:resilience` (it builds it first)');
  const logDir = mkdtempSync(join(tmpdir(), 'portal-resilience-logs-'));
  const postgres = await startPrivatePostgres();
  try {
    const admin = new pg.Client({ connectionString: postgresUrl(postgres, 'postgres') });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${templateName}`);
    await admin.end();
    const db = openPostgres({ connectionString: postgresUrl(postgres, templateName), max: 2 });
    await migrate(db);
    await db.withOwner((sql) => seedDemo(sql, { publicUrl: 'http://localhost:3000' }));
    await db.close();
  } catch (error) {
    await stopPrivatePostgres(postgres);
    throw error;
  }
  const smtp = await startSmtp();
  project.provide('resilience', { logDir, postgres, template: templateName, smtpUrl: smtp.url });
  console.log(`resilience: logs in ${logDir}, private PostgreSQL on port ${postgres.port}`);

  return async () => {
    await smtp.close();
    await stopPrivatePostgres(postgres);
    if (process.env.KEEP_RESILIENCE_LOGS) console.log(`resilience: logs kept in ${logDir}`);
    else rmSync(logDir, { recursive: true, force: true });
  };
}
