import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from '@playwright/test';
import { startSmtp } from '../../tools/test-smtp.ts';

/**
 * A portal of a spec's own, for what the main e2e server cannot give: an API key of the
 * integration API (the admin CLI cannot open the embedded database while that server runs) or a
 * tenant made with the CLI. The operator's order: the CLI first on a fresh embedded database in a
 * throw-away folder, then the server (which owns the folder while it runs), and a test SMTP server
 * the portal sends its mail to. Registers the spec's beforeAll and afterAll; the afterAll stops
 * whatever was started, also when the start or a test failed. The key never leaves this file.
 */
export type OwnPortalOptions = {
  port: number;
  smtpPort: number;
  tenant: string;
  /** `admin tenant create` options after `--id` and `--url`; none when the seed makes the tenant. */
  tenantArgs?: readonly string[];
  /** What `admin tenant create` reads on its standard input (a `--redsys-key-stdin` key). */
  tenantInput?: string;
  /**
   * The demo seed: the portal starts once to seed its database and stops while the CLI makes the
   * key, then starts again.
   */
  seedDemo?: boolean;
  /** The server's environment beyond the common one (port, data folder, SMTP, no simulator). */
  env?: Readonly<Record<string, string>>;
};

export type TestSmtp = Awaited<ReturnType<typeof startSmtp>>;

/** What a spec sees of its portal; `call` and `smtp` are there from its beforeAll on. */
export type OwnPortal = {
  tenant: string;
  /** The tenant's web origin, `http://<tenant>.localhost:<port>`. */
  origin: string;
  /** The tenant's API root, `http://localhost:<port>/<tenant>/api/1.0`. */
  api: string;
  /** A call of the organisation's software to the API, with the key the admin CLI made. */
  call: (
    method: 'GET' | 'PUT' | 'POST',
    path: string,
    body?: unknown,
  ) => Promise<{ status: number; json: Record<string, unknown> }>;
  readonly smtp: TestSmtp;
};

const repo = fileURLToPath(new URL('../..', import.meta.url));
/**
 * The compiled server and CLI that `npm run test:e2e` builds first, as the main e2e server runs
 * (`npm run serve`) and production does. Under tsx, from the TypeScript source, the four specs that
 * start a portal took 124 s of the machine's CPU instead of 106 s.
 */
const compiledServer = join(repo, 'apps/api/dist/server.js');
const compiledCli = join(repo, 'apps/api/dist/admin.js');
const apiKeyShape = /^ptk_[\w-]{43}$/;

export function useOwnPortal(options: OwnPortalOptions): OwnPortal {
  const { port, smtpPort, tenant } = options;
  const origin = `http://${tenant}.localhost:${port}`;
  const api = `http://localhost:${port}/${tenant}/api/1.0`;
  const dataDir = join(tmpdir(), `portal-e2e-${tenant}-${port}`);
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    APP_SECRET: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'warn',
  };
  let server: ChildProcess | undefined;
  let smtp: TestSmtp | undefined;
  let apiKey = '';

  /**
   * Runs the admin CLI as an operator of a production install does (`node apps/api/dist/admin.js`,
   * docs/operations.md); fails with its stderr (never its output).
   */
  function admin(args: readonly string[], input?: string): string {
    const run = spawnSync(process.execPath, [compiledCli, ...args], {
      cwd: repo,
      env,
      encoding: 'utf8',
      ...(input === undefined ? {} : { input }),
    });
    if (run.status !== 0) throw new Error(`admin ${args.join(' ')} failed:\n${run.stderr}`);
    return run.stdout;
  }

  async function startServer(): Promise<void> {
    // node itself, not npm: SIGTERM must reach the server, not a wrapper. With the flags
    // `npm start` gives it (apps/api/package.json).
    const child = spawn(process.execPath, ['--single-threaded-gc', compiledServer], {
      cwd: repo,
      env: {
        ...env,
        PORT: String(port),
        // The embedded database of a trial, not production (which refuses it).
        NODE_ENV: 'test',
        SEED_DEMO: options.seedDemo ? 'true' : 'false',
        REDSYS_SIMULATOR: 'false',
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        ...options.env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    server = child;
    const deadline = Date.now() + 120_000;
    for (;;) {
      const ok = await fetch(`${api}/visual-config`)
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) return;
      if (child.exitCode !== null) throw new Error('the portal stopped while starting');
      if (Date.now() > deadline) throw new Error('the portal did not start');
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  }

  async function stopServer(): Promise<void> {
    const child = server;
    server = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }

  test.beforeAll(async () => {
    test.setTimeout(300_000);
    rmSync(dataDir, { recursive: true, force: true });
    smtp = await startSmtp({ port: smtpPort });
    if (options.seedDemo) {
      await startServer();
      await stopServer();
    }
    if (options.tenantArgs) {
      admin(
        ['tenant', 'create', '--id', tenant, '--url', origin, ...options.tenantArgs],
        options.tenantInput,
      );
    }
    apiKey = admin(['api-key', 'create', '--tenant', tenant, '--name', 'ERP']).trim();
    if (!apiKeyShape.test(apiKey)) throw new Error('the admin CLI answered no API key (ptk_…)');
    await startServer();
  });

  test.afterAll(async () => {
    await stopServer();
    await smtp?.close();
    smtp = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  });

  return {
    tenant,
    origin,
    api,
    async call(method, path, body) {
      const res = await fetch(`${api}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${apiKey}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, json: (await res.json()) as Record<string, unknown> };
    },
    get smtp() {
      if (!smtp) throw new Error('the portal has not started');
      return smtp;
    },
  };
}
