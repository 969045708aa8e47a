import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { demoEmail, demoPassword } from '../src/db/seed/demo.ts';
import { startRedis } from '../test/redis-server.ts';
import { repoRoot } from './support/api-process.ts';
import { cloneTemplate, type TestDatabase } from './support/database.ts';
import { hasHaproxy, startDeployHaproxy } from './support/haproxy.ts';
import { authed, send, signIn } from './support/http.ts';
import { freePort } from './support/ports.ts';
import { postgresUrl } from './support/private-postgres.ts';
import { serverNodeFlags } from '../src/node-flags.ts';

/**
 * The container image as production runs it (issue 22): the repository's Dockerfile built with
 * Debian's podman, then its containers against the run's PostgreSQL, Redis and SMTP server, two of
 * them behind Debian's HAProxy. Where Docker Hub is out of reach (these machines), the image it
 * starts FROM is made locally first (deploy/node-base-image.sh); nothing else differs from a
 * production build. The containers share the host's network: the services they use listen on
 * 127.0.0.1, as the compose file's do on its own network.
 */
const engine = 'podman';
/** The banner of a tenant in test mode, as the Spanish page says it. */
const testModeBanner = (
  JSON.parse(readFileSync(`${repoRoot}apps/web/src/locales/es/common.json`, 'utf8')) as {
    app: { testModeBanner: string };
  }
).app.testModeBanner;
const hasPodman = spawnSync(engine, ['--version'], { stdio: 'ignore' }).status === 0;
const image = 'localhost/oficina-online:resilience';
const { logDir, postgres, template, smtpUrl } = inject('resilience');

type Run = { code: number | null; stdout: string; stderr: string; ms: number };

/**
 * What this machine's podman needs to start a container, found by a trial run (`chooseRuntime`):
 * nothing where podman works as installed. Some sandboxes refuse its defaults: a process without
 * CAP_SYS_RESOURCE cannot raise the open-files and process limits to podman's (1048576 and more),
 * and crun refuses a hybrid cgroup layout (v1 controllers with one on the v2 tree). There runc
 * (Debian's, `.ci/run` installs it) runs the containers with this process's own open-files
 * limits and a process limit of 4096, well below any the sandbox allows. Only how the test
 * starts containers differs: the image is the same.
 */
const machine = { global: [] as string[], limits: [] as string[] };
const baseImage = 'docker.io/library/node:20.20-bookworm-slim';

function openFilesLimit(): string {
  const line = /Max open files\s+(\d+)\s+(\d+)/.exec(readFileSync('/proc/self/limits', 'utf8'));
  return line ? `nofile=${line[1]}:${line[2]}` : 'nofile=1024:4096';
}

async function chooseRuntime(): Promise<void> {
  const trial = ['run', '--rm', '--network', 'host', baseImage, 'true'];
  const plain = await podman(trial);
  if (plain.code === 0) return;
  machine.global = ['--runtime', 'runc'];
  machine.limits = ['--ulimit', openFilesLimit(), '--ulimit', 'nproc=4096:4096'];
  const fallback = await podman(trial);
  if (fallback.code !== 0)
    throw new Error(
      `podman cannot start a container here: ${plain.stderr.trim()}; nor with runc and this ` +
        `process's limits: ${fallback.stderr.trim()}`,
    );
}

/** One podman command, without holding the event loop (a build takes minutes). */
function podman(command: string[], timeoutMs = 60_000): Promise<Run> {
  const started = performance.now();
  const [verb = '', ...rest] = command;
  const limits = verb === 'run' || verb === 'build' ? machine.limits : [];
  const args = [...machine.global, verb, ...limits, ...rest];
  return new Promise((resolve, reject) => {
    const child = spawn(engine, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: performance.now() - started });
    });
  });
}

async function mustRun(args: string[], timeoutMs?: number): Promise<string> {
  const run = await podman(args, timeoutMs);
  if (run.code !== 0)
    throw new Error(`podman ${args.join(' ')}: exit ${run.code}\n${run.stderr.slice(-3000)}`);
  return run.stdout;
}

const env = (vars: Record<string, string>) =>
  Object.entries(vars).flatMap(([k, v]) => ['--env', `${k}=${v}`]);

describe.skipIf(!hasPodman || !hasHaproxy)('the container image (Dockerfile, podman)', () => {
  const names: string[] = [];
  let db: TestDatabase | undefined;
  let redis: { url: string; stop(): Promise<void> } | undefined;
  let proxy: { url: string; stop(): void } | undefined;

  beforeAll(async () => {
    const base = spawnSync('bash', ['deploy/node-base-image.sh', engine], {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: 300_000,
    });
    if (base.status !== 0) throw new Error(`the base image: ${base.stderr}${base.stdout}`);
    await chooseRuntime();
    // `--format docker` keeps the HEALTHCHECK (the OCI format has none); the build's RUN steps
    // reach the npm registry through the host's network.
    await mustRun(['build', '--format', 'docker', '--network', 'host', '-t', image, '.'], 900_000);
  }, 1_200_000);

  afterAll(async () => {
    proxy?.stop();
    // What each container logged joins the run's API logs, which the last file scans.
    for (const name of names) {
      const out = await podman(['logs', name]);
      writeFileSync(join(logDir, `api-container-${name}.log`), out.stdout + out.stderr);
    }
    if (names.length) await podman(['rm', '--force', '--time', '0', ...names]);
    await redis?.stop();
    await db?.drop();
  });

  it('runs as an unprivileged user, compiled, with production dependencies only', async () => {
    const [config] = JSON.parse(await mustRun(['image', 'inspect', image])) as {
      Config: {
        User: string;
        Cmd: string[];
        StopSignal: string;
        Healthcheck?: { Test: string[] };
      };
      /** Where podman shows it (docker: under Config). */
      Healthcheck?: { Test: string[] };
    }[];
    expect(config?.Config.User).toBe('node');
    expect(config?.Config.Cmd).toEqual(['node', ...serverNodeFlags, 'apps/api/dist/server.js']);
    expect(config?.Config.StopSignal).toBe('SIGTERM');
    const healthcheck = config?.Config.Healthcheck ?? config?.Healthcheck;
    expect(healthcheck?.Test.join(' ')).toContain('/livez');

    const inside = await mustRun([
      'run',
      '--rm',
      image,
      'sh',
      '-c',
      'id -u; command -v chrt; ls apps/api; ls node_modules; ls apps/api/node_modules; ls node_modules/@portal',
    ]);
    const [uid, chrt, ...entries] = inside.trim().split('\n');
    expect(uid).toBe('1000');
    // The heavy-work processes put themselves under SCHED_IDLE with util-linux's chrt (priority.ts).
    expect(chrt).toBe('/usr/bin/chrt');
    // The compiled API and the built web app; no TypeScript source, no test.
    expect(entries).toContain('dist');
    expect(entries).not.toContain('src');
    expect(entries).not.toContain('test');
    // Tools of the build and the tests, and the web app's own packages (it is built into
    // apps/web/dist), are not installed.
    const devOnly = [
      // No TypeScript loader: production runs the compiled server (issue 22).
      'tsx',
      'esbuild',
      'vitest',
      'typescript',
      'eslint',
      'prettier',
      'vite',
      'react',
      'react-dom',
      '@playwright',
      'fast-check',
      'oidc-provider',
      'smtp-server',
      'pdf-parse',
    ];
    for (const name of devOnly) expect(entries, name).not.toContain(name);
    // Every runtime dependency of the API is there, nested ones included.
    const api = JSON.parse(readFileSync(`${repoRoot}apps/api/package.json`, 'utf8')) as {
      dependencies: Record<string, string>;
    };
    for (const name of Object.keys(api.dependencies)) {
      const top = name.startsWith('@') ? (name.split('/')[0] as string) : name;
      expect(entries, name).toContain(top);
    }
  });

  it('migrates an empty database once, then finds it up to date', async () => {
    const name = `portal_container_${randomBytes(3).toString('hex')}`;
    const admin = new pg.Client({ connectionString: postgresUrl(postgres, 'postgres') });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${name}`);
      const migrate = (label: string) =>
        mustRun([
          'run',
          '--rm',
          '--name',
          `portal-migrate-${label}-${process.pid}`,
          '--network',
          'host',
          ...env({ DATABASE_URL: postgresUrl(postgres, name) }),
          image,
          'node',
          'apps/api/dist/migrate.js',
        ]);
      expect(await migrate('first')).toMatch(/^Applied: 001-schema\.sql, /m);
      expect(await migrate('again')).toContain('The database is up to date.');
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });

  it('serves two instances behind HAProxy in production mode and stops cleanly on SIGTERM', async () => {
    db = await cloneTemplate(postgres, template, 'container');
    redis = await startRedis();
    const appSecret = randomBytes(32).toString('base64');
    const metricsToken = randomBytes(24).toString('hex');
    const ports = [await freePort(), await freePort()];
    for (const [i, port] of ports.entries()) {
      const name = `portal-${'ab'[i]}-${process.pid}`;
      names.push(name);
      await mustRun([
        'run',
        '--detach',
        '--name',
        name,
        '--network',
        'host',
        ...env({
          // NODE_ENV=production comes from the image: a missing secret or SMTP stops it.
          DATABASE_URL: db.url,
          REDIS_URL: redis.url,
          APP_SECRET: appSecret,
          SMTP_URL: smtpUrl,
          HOST: '127.0.0.1',
          PORT: String(port),
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          TRUST_PROXY: 'true',
          SEED_DEMO: 'false',
          REDSYS_SIMULATOR: 'false',
          RECONCILE_INTERVAL_SECONDS: '0',
          METRICS_TOKEN: metricsToken,
          SHUTDOWN_DRAIN_SECONDS: '2',
        }),
        image,
      ]);
    }
    const logs = async (name: string) => {
      const run = await podman(['logs', name]);
      return (run.stdout + run.stderr).slice(-3000);
    };
    for (const [i, port] of ports.entries()) {
      for (let tries = 0; ; tries++) {
        const ready = await send(`http://127.0.0.1:${port}/readyz`, { timeoutMs: 2000 });
        if (ready.status === 200) {
          expect(JSON.parse(ready.body)).toMatchObject({ status: 'ready' });
          break;
        }
        if (tries > 300) throw new Error(`not ready: ${await logs(names[i] as string)}`);
        await sleep(200);
      }
    }
    // The image's own health check, run inside the container (on the PORT it was given).
    for (const name of names) {
      const health = await podman(['healthcheck', 'run', name]);
      expect(health.code, health.stdout + health.stderr).toBe(0);
    }
    // The load balancer as compose runs it: deploy/haproxy.cfg, its addresses made this machine's.
    proxy = await startDeployHaproxy({
      'portal-a': ports[0] as number,
      'portal-b': ports[1] as number,
    });
    const lb = proxy.url;

    // The operator's CLI in the image, as the compose file documents it (`run --rm migrate node
    // apps/api/dist/admin.js ...`): it reads the tenants with the instances' secret.
    const tenants = JSON.parse(
      await mustRun([
        'run',
        '--rm',
        '--network',
        'host',
        ...env({ DATABASE_URL: db.url, APP_SECRET: appSecret, SMTP_URL: smtpUrl }),
        image,
        'node',
        'apps/api/dist/admin.js',
        'tenant',
        'list',
        '--json',
      ]),
    ) as { id: string }[];
    expect(tenants.map((t) => t.id).sort()).toEqual(['1', 'demo']);

    // The web app from the image, and a customer's session across both instances.
    const page = await send(`${lb}/`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<div id="root">');
    // /login as the server renders it (the web app's server build is in the image): the screen
    // before any script, saying the tenant is in test mode (tenant 1: an address has no tenant
    // label, spec §1).
    const login = await send(`${lb}/login`, { headers: { 'accept-language': 'es' } });
    expect(login.status).toBe(200);
    expect(login.body).toContain('data-prerendered');
    expect(login.body).toContain(testModeBanner);
    const token = await signIn(lb, 'demo', demoEmail, demoPassword);
    const api = authed(lb, 'demo', token);
    const range = { datefrom: '20000101', dateto: '20991231', page: '1' };
    const reads = await Promise.all(
      Array.from({ length: 20 }, () => api('POST', '/invoices', range)),
    );
    expect(reads.map((r) => r.status)).toEqual(reads.map(() => 200));
    for (const port of ports) {
      const metrics = await send(`http://127.0.0.1:${port}/metrics`, {
        headers: { authorization: `Bearer ${metricsToken}` },
      });
      expect(metrics.status).toBe(200);
      expect(metrics.body, `instance on ${port} answered no /invoices`).toMatch(
        /portal_http_request_duration_seconds_count\{[^}]*route="[^"]*\/invoices"[^}]*status="200"[^}]*\} [1-9]/,
      );
    }

    // SIGTERM (podman stop): drains and exits 0 well before podman's 30 s would turn to SIGKILL;
    // the other instance goes on answering through the proxy.
    const stop = await podman(['stop', '--time', '30', names[0] as string], 60_000);
    expect(stop.code, stop.stderr).toBe(0);
    expect(stop.ms).toBeLessThan(20_000);
    const state = await mustRun(['inspect', names[0] as string, '--format', '{{.State.ExitCode}}']);
    expect(state.trim(), await logs(names[0] as string)).toBe('0');
    expect(await logs(names[0] as string)).toContain('shutting down: draining requests');
    await sleep(1000);
    const after = await Promise.all(
      Array.from({ length: 10 }, () => api('POST', '/invoices', range)),
    );
    expect(after.map((r) => r.status)).toEqual(after.map(() => 200));
  });
});
