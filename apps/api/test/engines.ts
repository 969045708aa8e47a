import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { openPglite, openPostgres, type Database } from '../src/db/database.ts';
import { adminUrl, databaseUrl } from './pg-server.ts';

export type Engine = { name: 'pglite' | 'postgres'; open(): Promise<Database> };

let dump: Blob | undefined;
/** The seeded PGlite data folder (global-setup.ts), decoded once per worker: every copy reads it. */
function pgliteDump(): Blob {
  dump ??= new Blob([Buffer.from(inject('pgliteDump'), 'base64')]);
  return dump;
}

/**
 * The engines every API test runs on: the embedded PGlite always, the real PostgreSQL whenever
 * a server is reachable (always in CI). Each `open()` gives a private copy of the seeded database.
 */
export function engines(): Engine[] {
  const list: Engine[] = [
    {
      name: 'pglite',
      async open() {
        return openPglite({ loadDataDir: pgliteDump(), sharedBuffers: '16MB' });
      },
    },
  ];
  const template = inject('pgTemplate');
  if (template) {
    list.push({
      name: 'postgres',
      async open() {
        const name = `${template}_${randomBytes(4).toString('hex')}`;
        const admin = new pg.Client({ connectionString: adminUrl() });
        await admin.connect();
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
        await admin.end();
        const db = openPostgres({ connectionString: databaseUrl(name), max: 5 });
        return {
          ...db,
          async close() {
            await db.close();
            const drop = new pg.Client({ connectionString: adminUrl() });
            await drop.connect();
            await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
            await drop.end();
          },
        };
      },
    });
  }
  return list;
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: '/nonexistent-test-data',
    WEB_DIST: '/nonexistent-web-dist',
    RATE_LIMIT_PER_MINUTE: '0',
    RECONCILE_INTERVAL_SECONDS: '0',
    // Background outbox sending off: tests send by calling the dispatchers, deterministically.
    OUTBOX_INTERVAL_SECONDS: '0',
    AUTO_PAY_INTERVAL_SECONDS: '0',
    ...overrides,
  });
}

export async function buildTestApp(
  db: Database,
  overrides: Record<string, string> = {},
  rootSecret: Buffer = randomBytes(32),
  logStream?: { write(line: string): void },
  now?: () => Date,
) {
  return buildApp({
    config: testConfig(overrides),
    db,
    rootSecret,
    ...(logStream ? { logStream } : {}),
    ...(now ? { now } : {}),
  });
}

export type TestApp = {
  db: Database;
  app: Awaited<ReturnType<typeof buildTestApp>>;
  close(): Promise<void>;
};

/**
 * A private copy of the seeded database and the app on it (`overrides` to its configuration):
 * what a test that only calls the API starts from; `close` stops the app, then drops the copy.
 */
export async function openTestApp(
  engine: Engine,
  overrides: Record<string, string> = {},
): Promise<TestApp> {
  const db = await engine.open();
  const app = await buildTestApp(db, overrides);
  return {
    db,
    app,
    async close() {
      await app.close();
      await db.close();
    },
  };
}
