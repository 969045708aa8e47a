import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openPostgres, type Database } from '../src/db/database.ts';
import { demoEmail, demoPassword } from '../src/db/seed/demo.ts';
import { buildTestApp } from './engines.ts';
import { adminUrl, databaseUrl } from './pg-server.ts';

const pgbouncerBin = '/usr/sbin/pgbouncer';
const hasPgbouncer = spawnSync(pgbouncerBin, ['--version'], { stdio: 'ignore' }).status === 0;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * Debian's PgBouncer in transaction mode in front of the test PostgreSQL, with fewer server
 * connections (2) than the API's pool (10): consecutive transactions of one API connection reach
 * different server connections, as in production behind a pooler (issue 22; docs/operations.md).
 */
describe.runIf(hasPgbouncer && inject('pgTemplate'))('behind PgBouncer in transaction mode', () => {
  const name = `${inject('pgTemplate')}_bouncer_${randomBytes(4).toString('hex')}`;
  const dir = mkdtempSync(join(tmpdir(), 'pgbouncer-'));
  let bouncer: ChildProcess;
  let db: Database;
  let app: FastifyInstance;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('pgTemplate')}`);
    await admin.end();
    const server = new URL(databaseUrl(name));
    const port = await freePort();
    chmodSync(dir, 0o777);
    writeFileSync(
      join(dir, 'pgbouncer.ini'),
      [
        '[databases]',
        `portal = host=${server.hostname} port=${server.port || 5432} dbname=${name} user=${server.username || 'postgres'}`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${port}`,
        "unix_socket_dir = ''",
        'auth_type = any',
        'pool_mode = transaction',
        'default_pool_size = 2',
        'max_client_conn = 100',
        // The API's pool sets statement_timeout at connect; a pooler cannot pass it on (set it on
        // the role instead: docs/operations.md).
        'ignore_startup_parameters = statement_timeout,extra_float_digits',
        'server_reset_query =',
      ].join('\n'),
      { mode: 0o644 },
    );
    // PgBouncer refuses to run as root: as the postgres system user when the tests are root.
    const asUser = process.getuid?.() === 0 ? ['-u', 'postgres'] : [];
    bouncer = spawn(pgbouncerBin, [...asUser, join(dir, 'pgbouncer.ini')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    bouncer.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    bouncer.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const url = `postgres://${server.username || 'postgres'}@127.0.0.1:${port}/portal`;
    for (let i = 0; ; i++) {
      const probe = new pg.Client({ connectionString: url });
      try {
        await probe.connect();
        await probe.end();
        break;
      } catch (error) {
        if (i > 50) throw new Error(`PgBouncer did not start:\n${output}`, { cause: error });
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    db = openPostgres({ connectionString: url, max: 10, preparedStatements: false });
    app = await buildTestApp(db);
  });

  afterAll(async () => {
    await app?.close();
    await db?.close();
    bouncer?.kill('SIGTERM');
    const admin = new pg.Client({ connectionString: adminUrl() });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves sign-in, reads and writes of two tenants at once, each seeing only its own rows', async () => {
    const signIn = async (tenant: string) => {
      const res = await app.inject({
        method: 'POST',
        url: `/${tenant}/api/1.0/login`,
        payload: { email: demoEmail, password: demoPassword },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ access_token: string; user: { id: string } }>();
    };
    const sessions = { demo: await signIn('demo'), '1': await signIn('1') };
    const invoices = (tenant: 'demo' | '1') =>
      app.inject({
        method: 'POST',
        url: `/${tenant}/api/1.0/invoices`,
        headers: { authorization: `Bearer ${sessions[tenant].access_token}` },
        payload: { page: 1, datefrom: '20200101', dateto: '20261231' },
      });
    const expected = {
      demo: (await invoices('demo')).json<{ invoices: { invoice_id: string }[] }>(),
      '1': (await invoices('1')).json<{ invoices: { invoice_id: string }[] }>(),
    };
    expect(expected.demo.invoices.length).toBeGreaterThan(0);
    // 200 reads interleaved over 10 API connections and 2 server connections.
    const tenants = Array.from({ length: 200 }, (_, i) => (i % 2 ? 'demo' : '1') as 'demo' | '1');
    const answers = await Promise.all(tenants.map((t) => invoices(t)));
    answers.forEach((res, i) => {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual(expected[tenants[i] as 'demo' | '1']);
    });
    // A write in a transaction (mark notifications read) and a read of the same in another.
    const list = await app.inject({
      method: 'POST',
      url: '/demo/api/1.0/notifications',
      headers: { authorization: `Bearer ${sessions.demo.access_token}` },
      payload: { page: 1 },
    });
    expect(list.statusCode, list.body).toBe(200);
  });
});
