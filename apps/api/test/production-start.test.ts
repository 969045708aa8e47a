import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PUBLIC_TEST_MERCHANT } from '@portal/redsys';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createSecretBox } from '../src/lib/secret-box.ts';
import { publishedAppSecrets } from '../src/production-checks.ts';
import { adminUrl, databaseUrl } from './pg-server.ts';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

type Run = { code: number | null; stdout: string; stderr: string; started: boolean };

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Runs the real server (`apps/api/src/server.ts`, as `npm run serve` does) with only `env`, and
 * waits for it to exit. A server that starts instead (it prints its banner) is stopped, and the
 * run says so: `started`.
 */
function runServer(env: Record<string, string>, ms = 60_000): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? tmpdir(),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      WEB_DIST: '/nonexistent-web-dist',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let started = false;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (!started && stdout.includes('is running')) {
      started = true;
      child.kill('SIGTERM');
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  return new Promise((resolve) => {
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, started });
    });
  });
}

const problemLines = (stderr: string) =>
  stderr
    .split('\n')
    .filter((l) => l.startsWith('  - '))
    .map((l) => l.slice(4));

/**
 * NODE_ENV=production refuses an unsafe set-up at start, one line per problem, all at once, with
 * exit status 1 (SECURITY.md, README "Run in production"). Process-level: the real entry point.
 */
describe('a production server refuses to start unsafe', { timeout: 120_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-production-start-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('without a database, secret or SMTP, with the demo seed and the simulator: one line each, exit 1', async () => {
    const run = await runServer({
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      SEED_DEMO: 'true',
      REDSYS_SIMULATOR: 'true',
    });
    expect(run.started, run.stdout).toBe(false);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain(
      'The server refuses to start in production (NODE_ENV=production): 6 problems.',
    );
    expect(problemLines(run.stderr)).toEqual([
      expect.stringMatching(/^DATABASE_URL is not set: production runs on PostgreSQL/),
      expect.stringMatching(/^APP_SECRET is not set: generate one with `openssl rand -base64 32`/),
      expect.stringMatching(/^PUBLIC_URL is not set: production needs the https:\/\/ address/),
      expect.stringMatching(/^SMTP_URL is not set/),
      expect.stringMatching(/^SEED_DEMO=true: the demo data .* is never loaded in production/),
      expect.stringMatching(/^REDSYS_SIMULATOR=true: the local Redsys simulator does not run/),
    ]);
    // Nothing was opened, generated or seeded: no embedded database, no secret file.
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('with a too short APP_SECRET', async () => {
    const run = await runServer({
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      APP_SECRET: randomBytes(16).toString('base64'),
      SMTP_URL: 'smtp://127.0.0.1:1',
      // Plain http on a public host: the refresh cookie would travel in clear.
      PUBLIC_URL: 'http://portal.example.com',
    });
    expect(run.code, run.stderr).toBe(1);
    expect(problemLines(run.stderr)).toEqual([
      expect.stringMatching(/^DATABASE_URL is not set/),
      expect.stringMatching(/^APP_SECRET holds 16 bytes, at least 32 are needed/),
      expect.stringMatching(
        /^PUBLIC_URL is http:\/\/portal\.example\.com: production is served over https/,
      ),
    ]);
  });

  const template = inject('pgTemplate');
  describe.skipIf(!template)('on PostgreSQL', () => {
    const made: string[] = [];
    /** A copy of the seeded database; `change` runs on it as the owner. */
    async function databaseWith(change?: (client: pg.Client) => Promise<void>): Promise<string> {
      const name = `${template}_prod_${randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: adminUrl() });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
      await admin.end();
      made.push(name);
      if (change) {
        const client = new pg.Client({ connectionString: databaseUrl(name) });
        await client.connect();
        try {
          await change(client);
        } finally {
          await client.end();
        }
      }
      return databaseUrl(name);
    }
    afterAll(async () => {
      const admin = new pg.Client({ connectionString: adminUrl() });
      await admin.connect();
      for (const name of made) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    });

    it('names each live tenant on a test gateway or with the public test merchant or key, and a published secret', async () => {
      const appSecret = publishedAppSecrets[0] ?? '';
      const box = createSecretBox(Buffer.from(appSecret, 'base64'));
      const url = await databaseWith(async (client) => {
        // demo: left live on the simulator. 1: live on the production host with the public test
        // merchant, its key sealed as the server seals it.
        await client.query("UPDATE tenants SET test_mode = false WHERE id = 'demo'");
        await client.query(
          `UPDATE tenants SET test_mode = false, redsys_environment = 'production',
                  redsys_merchant_code = $1, redsys_secret_key = $2 WHERE id = '1'`,
          [
            PUBLIC_TEST_MERCHANT.merchantCode,
            box.seal(PUBLIC_TEST_MERCHANT.secretKey, { tenantId: '1', field: 'redsys_secret_key' }),
          ],
        );
      });
      const run = await runServer({
        NODE_ENV: 'production',
        DATABASE_URL: url,
        APP_SECRET: appSecret,
        DATA_DIR: dataDir,
        PORT: String(await freePort()),
        PUBLIC_URL: 'https://portal.example.com',
      });
      expect(run.started, run.stdout).toBe(false);
      expect(run.code, run.stderr).toBe(1);
      expect(problemLines(run.stderr)).toEqual([
        expect.stringMatching(/^APP_SECRET is a value published in this repository/),
        expect.stringMatching(/^SMTP_URL is not set/),
        expect.stringMatching(/^tenant 1: live with Redsys' public test merchant 999008881/),
        expect.stringMatching(/^tenant 1: live with Redsys' public test key/),
        expect.stringMatching(
          /^tenant demo: live but paying through the local Redsys simulator, .*`npm run admin -- tenant update --id demo --test-mode`/,
        ),
        // demo keeps the public merchant and key of the seed: two more problems of its own.
        expect.stringMatching(/^tenant demo: live with Redsys' public test merchant/),
        expect.stringMatching(/^tenant demo: live with Redsys' public test key/),
      ]);
    });

    /** The real server from source in production mode on `url`, with what production needs. */
    function startProduction(
      port: number,
      url: string,
      env: Record<string, string> = {},
      nodeArgs: string[] = [],
    ) {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', ...nodeArgs, 'apps/api/src/server.ts'],
        {
          cwd: repoRoot,
          env: {
            PATH: process.env.PATH ?? '/usr/bin:/bin',
            NODE_ENV: 'production',
            HOST: '127.0.0.1',
            PORT: String(port),
            LOG_LEVEL: 'warn',
            WEB_DIST: '/nonexistent-web-dist',
            DATA_DIR: dataDir,
            DATABASE_URL: url,
            APP_SECRET: randomBytes(32).toString('base64'),
            SMTP_URL: 'smtp://127.0.0.1:1',
            PUBLIC_URL: `http://127.0.0.1:${port}`,
            RECONCILE_INTERVAL_SECONDS: '0',
            ...env,
          },
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      const output = { text: '' };
      child.stderr.on('data', (chunk: Buffer) => (output.text += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      return { child, stderr: output, exited };
    }

    it('starts with what production needs, the demo tenants in test mode, and serves the flag', async () => {
      const port = await freePort();
      const url = await databaseWith();
      // Every module the server resolves while it starts, written down by a resolve hook.
      const resolved = join(dataDir, 'resolved.txt');
      writeFileSync(
        join(dataDir, 'hooks.mjs'),
        `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(${JSON.stringify(resolved)}, result.url + '\\n');
  return result;
}`,
      );
      writeFileSync(
        join(dataDir, 'register.mjs'),
        `import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n`,
      );
      const { child, stderr, exited } = startProduction(port, url, {}, [
        '--import',
        pathToFileURL(join(dataDir, 'register.mjs')).href,
      ]);
      try {
        let body: { test_mode?: boolean } | null = null;
        for (let i = 0; i < 600 && !body && child.exitCode === null; i++) {
          body = await fetch(`http://127.0.0.1:${port}/demo/api/1.0/visual-config`)
            .then((r) => (r.ok ? (r.json() as Promise<{ test_mode: boolean }>) : null))
            .catch(() => null);
          if (!body) await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(body, stderr.text).toMatchObject({ test_mode: true });
      } finally {
        child.kill('SIGTERM');
      }
      expect(await exited, stderr.text).toBe(0);
      expect(existsSync(join(dataDir, 'pglite'))).toBe(false);
      // What only a passkey, a second factor or a Redsys query answer needs, and the embedded engine,
      // wait for their first use: a server starts without them (bench/service.ts, start to ready).
      const modules = readFileSync(resolved, 'utf8');
      expect(modules).toContain('/node_modules/fastify/');
      for (const lazy of [
        '@simplewebauthn/server',
        'otplib',
        '@electric-sql/pglite',
        'fast-xml-parser',
      ])
        expect(modules, lazy).not.toContain(`/node_modules/${lazy}/`);
    });

    it('refuses a database that lacks a migration of this release (migrations are their own step)', async () => {
      const url = await databaseWith(async (client) => {
        await client.query(
          `DELETE FROM schema_migrations WHERE version = (SELECT max(version) FROM schema_migrations)`,
        );
      });
      const run = await runServer({
        NODE_ENV: 'production',
        DATABASE_URL: url,
        APP_SECRET: randomBytes(32).toString('base64'),
        SMTP_URL: 'smtp://127.0.0.1:1',
        DATA_DIR: dataDir,
        PORT: String(await freePort()),
        PUBLIC_URL: 'https://portal.example.com',
      });
      expect(run.started, run.stdout).toBe(false);
      expect(run.code, run.stderr).toBe(1);
      expect(problemLines(run.stderr)).toEqual([
        expect.stringMatching(
          /^The database lacks 1 migration\(s\) of this release \(\d{3}-.*npm run db:migrate/,
        ),
      ]);
    });

    it('on SIGTERM: not ready at once, still answering during the drain, then exit 0', async () => {
      const port = await freePort();
      const url = await databaseWith();
      // A drain long enough that a busy machine still asks within it.
      const { child, stderr, exited } = startProduction(port, url, { SHUTDOWN_DRAIN_SECONDS: '5' });
      const readyz = () =>
        fetch(`http://127.0.0.1:${port}/readyz`)
          .then(async (r) => ({ status: r.status, body: (await r.json()) as unknown }))
          .catch(() => null);
      try {
        let ready = null;
        for (let i = 0; i < 600 && ready?.status !== 200 && child.exitCode === null; i++) {
          ready = await readyz();
          if (ready?.status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(ready?.status, stderr.text).toBe(200);
        child.kill('SIGTERM');
        // Draining: readiness says no as soon as the signal is handled, and the rest is still
        // served until the drain time is over.
        let draining = ready;
        for (let i = 0; i < 60 && draining?.status === 200; i++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          draining = await readyz();
        }
        expect(draining).toEqual({
          status: 503,
          body: expect.objectContaining({ status: 'not_ready' }),
        });
        const live = await fetch(`http://127.0.0.1:${port}/livez`);
        expect(live.status).toBe(200);
      } finally {
        child.kill('SIGTERM');
      }
      expect(await exited).toBe(0);
    });
  });
});
