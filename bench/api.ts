import { cpSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { seededRandom } from '../apps/api/src/db/seed/random.ts';
import {
  loadCustomerEmail,
  loadPassword,
  loadTenantId,
  type LoadShape,
} from '../apps/api/src/db/seed/generate.ts';
import { summariseProfile, type ProfileSummary } from './lib/cpu-profile.ts';
import { postgresCpuSeconds, processCpuSeconds } from './lib/cpu-time.ts';
import { ensurePgliteDataset, ensurePostgresDataset } from './lib/dataset.ts';
import { startGeneratorProcess } from './lib/generator-process.ts';
import { runLoad, type FixedRateClient, type LoadRequest, type LoadResult } from './lib/load.ts';
import { freePort } from './lib/ports.ts';
import { bundledServer, compiledApi } from './lib/build.ts';
import { repoRoot, startServer, type Server } from './lib/processes.ts';
import { median, round } from './lib/stats.ts';
import { diagnoseApi, type ApiDiagnosis } from './api-diagnosis.ts';
import { serverNodeFlags } from '../apps/api/src/node-flags.ts';

export type ApiOptions = {
  adminUrl: string;
  database: string;
  shape: LoadShape;
  /** The embedded data set: the same shape by default. */
  pgliteShape: LoadShape;
  seconds: number;
  warmupSeconds: number;
  rounds: number;
  connections: number;
  /** Requests per second of the fixed-rate latency runs. */
  rate: number;
  /** Customers signed in per tenant (sign-in allows 30 a minute per address and tenant). */
  customersPerTenant: number;
  pglite: boolean;
  log: (line: string) => void;
};

export type Throughput = { runs: number[]; median: number };
export type FixedRate = {
  p50: number[];
  p99: number[];
  medianP50: number;
  medianP99: number;
  /** p99 of the generator's own lateness in each run (LoadResult.lateP99). */
  lateP99: number[];
  medianLateP99: number;
};

/** Microseconds of CPU per request, one value per round, and their medians. */
export type CpuPerRequest = {
  server: number[];
  postgres: number[] | null;
  generator: number[];
  medianServer: number;
  medianPostgres: number | null;
  medianGenerator: number;
};

/** The targets whose CPU per request is measured: the prepared floor, the ladder's rungs, the portal. */
export const cpuTargets = [
  'fastify + pg prepared',
  'fastify + pg /tx',
  'fastify + pg /tx-auth-zod',
  '/invoices',
] as const;

export type ApiResults = {
  dataset: {
    database: string;
    shape: LoadShape;
    reused: boolean;
    generateSeconds: number;
    invoices: number;
  };
  settings: { seconds: number; rounds: number; connections: number; rate: number };
  throughput: Record<string, Throughput>;
  fixedRate: Record<string, FixedRate>;
  /**
   * CPU time one request costs each process, at the fixed rate, below saturation
   * (lib/cpu-time.ts), by target; `postgres` is null where PostgreSQL runs on another machine.
   */
  cpuPerRequest: Record<string, CpuPerRequest>;
  /**
   * The same accounting during the throughput runs, saturated (the generator is this process,
   * autocannon in it): whether a target serves fewer requests than its CPU below saturation says
   * because each costs more there, or because the machine's time went elsewhere.
   */
  saturatedCpuPerRequest?: Record<string, CpuPerRequest>;
  pglite?: {
    shape: LoadShape;
    reused: boolean;
    generateSeconds: number;
    throughput: Throughput;
    /** The minimal Fastify route on PGlite (servers/fastify-pglite.ts), interleaved with it. */
    floor: Throughput;
    /** The embedded portal against its own floor: the figure issue 22 asks for. */
    ratioToFloor: number;
    /** For information: against the portal on PostgreSQL (another engine, another data size). */
    ratioToPostgres: number;
  };
  diagnosis: ApiDiagnosis;
};

type CpuReading = { server: number; postgres: number | undefined; generator: number };

/** CPU seconds so far of a server, PostgreSQL, and this process (the in-process generator). */
function cpuNow(serverPid: number): CpuReading {
  const own = process.cpuUsage();
  return {
    server: processCpuSeconds(serverPid),
    postgres: postgresCpuSeconds(),
    generator: (own.user + own.system) / 1e6,
  };
}

function emptyCpuPerRequest(): CpuPerRequest {
  return {
    server: [],
    postgres: postgresCpuSeconds() === undefined ? null : [],
    generator: [],
    medianServer: 0,
    medianPostgres: null,
    medianGenerator: 0,
  };
}

/** Adds one run's µs per request, between two readings, to `entry` and its medians. */
function addCpuPerRequest(
  entry: CpuPerRequest,
  before: CpuReading,
  after: CpuReading,
  requests: number,
): void {
  const perRequest = (seconds: number) => round((seconds * 1e6) / requests, 0);
  entry.server.push(perRequest(after.server - before.server));
  entry.generator.push(perRequest(after.generator - before.generator));
  if (entry.postgres && after.postgres !== undefined && before.postgres !== undefined)
    entry.postgres.push(perRequest(after.postgres - before.postgres));
  entry.medianServer = median(entry.server);
  entry.medianGenerator = median(entry.generator);
  entry.medianPostgres = entry.postgres ? median(entry.postgres) : null;
}

/** Key of the fixed-rate floor: the bare node:http server's `GET /health`, no database. */
export const fixedRateFloor = 'floor: node:http GET /health';
/** Suffix of the fixed-rate keys measured with node:http's client. */
export const nodeHttpClientSuffix = ', node:http client';

/** The portal's answer to a sign-in. */
export type Session = { tenant: string; customerId: string; token: string; invoiceIds: string[] };

const apiDate = (d: Date) => d.toISOString().slice(0, 10).replace(/-/g, '');

/** The web app's default ranges (spec §9), taken relative to the data set's newest month. */
export function benchRanges(shape: LoadShape) {
  const anchor = new Date(`${shape.anchorDate.slice(0, 7)}-01T00:00:00Z`);
  const endOfMonth = new Date(Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth() + 1, 0));
  const fiveYearsAgo = new Date(
    Date.UTC(endOfMonth.getUTCFullYear() - 5, endOfMonth.getUTCMonth(), endOfMonth.getUTCDate()),
  );
  const yearAhead = new Date(
    Date.UTC(endOfMonth.getUTCFullYear() + 1, endOfMonth.getUTCMonth(), endOfMonth.getUTCDate()),
  );
  return {
    invoices: { datefrom: apiDate(fiveYearsAgo), dateto: apiDate(endOfMonth) },
    payments: { datefrom: apiDate(fiveYearsAgo), dateto: apiDate(yearAhead) },
  };
}

/** APP_SECRET of the bench's servers: a public value, for the generated data sets only. */
export const benchAppSecret = Buffer.from('portal-bench-app-secret-not-for-production!').toString(
  'base64',
);

/** Portal server environment shared by the PostgreSQL and the embedded runs. */
export function portalEnv(port: number, appSecret: string): Record<string, string> {
  return {
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_SECRET: appSecret,
    // Not NODE_ENV=production: that refuses the bench's published APP_SECRET, its missing SMTP and
    // the embedded runs (README "Run in production"); the mode changes nothing measured here.
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '0',
    REDSYS_SIMULATOR: 'false',
    SEED_DEMO: 'false',
    // The bench outlasts the default 15 minutes of an access token.
    ACCESS_TOKEN_TTL_SECONDS: '3600',
  };
}

/** The portal as production starts it; `server`, another build's entry (a diagnosis compares two). */
export async function startPortal(
  name: string,
  env: Record<string, string>,
  server = compiledApi(),
): Promise<Server> {
  return startServer({
    name,
    command: process.execPath,
    // As production starts it (node-flags.ts), with the options a diagnosis adds.
    args: [
      // BENCH_WITHOUT_SERVER_FLAGS=1: Node's defaults, as the floors run (a diagnosis).
      ...(process.env.BENCH_WITHOUT_SERVER_FLAGS === '1' ? [] : serverNodeFlags),
      ...(process.env.BENCH_PORTAL_NODE_ARGS?.split(' ') ?? []),
      server,
    ],
    port: Number(env.PORT),
    env,
    readyPath: `/${loadTenantId(0)}/api/1.0/visual-config`,
    timeoutMs: 180_000,
  });
}

/** A floor of `bench/servers/`, bundled as the API is (lib/build.ts), ready at its `/health`. */
export async function startBaseline(
  name: string,
  file: string,
  port: number,
  env: Record<string, string>,
): Promise<Server> {
  return startServer({
    name,
    command: process.execPath,
    args: [await bundledServer(file)],
    port,
    env: { PORT: String(port), ...env },
    readyPath: '/health',
  });
}

/** Signs `perTenant` random customers of every tenant in through the portal's `/login`. */
export async function signIn(
  server: Server,
  shape: LoadShape,
  perTenant: number,
  onlyTenants?: readonly number[],
): Promise<Session[]> {
  const random = seededRandom(6);
  const sessions: Session[] = [];
  for (let t = 0; t < shape.tenants; t++) {
    if (onlyTenants && !onlyTenants.includes(t)) continue;
    const tenant = loadTenantId(t);
    const chosen = new Set<number>();
    while (chosen.size < Math.min(perTenant, shape.customersPerTenant)) {
      chosen.add(Math.floor(random() * shape.customersPerTenant));
    }
    for (const c of chosen) {
      const res = await fetch(`${server.url}/${tenant}/api/1.0/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: loadCustomerEmail(c), password: loadPassword }),
      });
      if (res.status !== 200) {
        throw new Error(
          `sign-in of ${loadCustomerEmail(c)} on ${tenant}: ${res.status} ${await res.text()}`,
        );
      }
      const body = (await res.json()) as { access_token: string; user: { id: string } };
      sessions.push({ tenant, customerId: body.user.id, token: body.access_token, invoiceIds: [] });
    }
  }
  return sessions;
}

/**
 * At most `most` tenants spread evenly over all of them (undefined: every tenant): the 1,000-tenant
 * shape signs in a customer of each of 200 tenants rather than 20 of every tenant (20,000 argon2
 * verifications).
 */
export function spreadTenants(tenants: number, most: number): number[] | undefined {
  const count = Math.max(1, Math.floor(most));
  if (tenants <= count) return undefined;
  return Array.from({ length: count }, (_, i) => Math.floor((i * tenants) / count));
}

/** A few invoice ids of each signed-in customer, for `/invoice`. */
async function pickInvoices(databaseUrl: string, sessions: Session[]): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (const s of sessions) {
      const { rows } = await client.query<{ id: string }>(
        `SELECT id FROM invoices WHERE tenant_id = $1 AND customer_id = $2
          ORDER BY md5(id) LIMIT 5`,
        [s.tenant, s.customerId],
      );
      s.invoiceIds = rows.map((r) => r.id);
    }
  } finally {
    await client.end();
  }
}

export async function benchApi(options: ApiOptions): Promise<ApiResults> {
  const { log } = options;
  const ranges = benchRanges(options.shape);
  const dataset = await ensurePostgresDataset(options.adminUrl, options.database, options.shape);
  log(
    dataset.reused
      ? `  data set: ${options.database} kept from an earlier run`
      : `  data set: ${options.database} generated in ${dataset.seconds.toFixed(0)} s`,
  );
  // The same secret every run: the data sets' tenant secrets are sealed with it at the first start
  // (apps/api/src/db/seal-secrets.ts), and a new one each run could not open them. Bench only.
  const appSecret = benchAppSecret;
  const portalPort = await freePort();
  const httpPort = await freePort();
  const fastifyPort = await freePort();
  const ladderPort = await freePort();
  const dbEnv = { DATABASE_URL: dataset.url, DATABASE_POOL_SIZE: '10' };
  const servers: Server[] = [];
  // The fixed-rate runs' generator: a lean process of its own (lib/generator-process.ts).
  const generator = await startGeneratorProcess();
  const results: Omit<ApiResults, 'diagnosis'> & { diagnosis?: ApiDiagnosis } = {
    dataset: {
      database: options.database,
      shape: options.shape,
      reused: dataset.reused,
      generateSeconds: round(dataset.seconds, 0),
      invoices:
        options.shape.tenants *
        options.shape.customersPerTenant *
        options.shape.invoicesPerCustomer,
    },
    settings: {
      seconds: options.seconds,
      rounds: options.rounds,
      connections: options.connections,
      rate: options.rate,
    },
    throughput: {},
    fixedRate: {},
    cpuPerRequest: {},
  };
  try {
    const baseline = (name: string, file: string, port: number) =>
      startBaseline(name, file, port, { APP_SECRET: appSecret, ...dbEnv });
    const portal = await startPortal('portal', {
      ...portalEnv(portalPort, appSecret),
      ...dbEnv,
    });
    servers.push(portal);
    const bare = await baseline('node:http + pg', 'bench/servers/node-http.ts', httpPort);
    servers.push(bare);
    const minimal = await baseline('fastify + pg', 'bench/servers/fastify-pg.ts', fastifyPort);
    servers.push(minimal);
    const ladder = await baseline('ladder', 'bench/servers/ladder.ts', ladderPort);
    servers.push(ladder);

    // Many tenants (the 1,000-tenant shape): one customer of each of 200 tenants.
    const spread = spreadTenants(options.shape.tenants, 200);
    const sessions = await signIn(
      portal,
      options.shape,
      spread ? 1 : options.customersPerTenant,
      spread,
    );
    await pickInvoices(dataset.url, sessions);
    log(`  signed in ${sessions.length} random customers`);
    const random = seededRandom(7);
    const anyone = () => sessions[Math.floor(random() * sessions.length)] as Session;
    const bearer = (s: Session) => ({ authorization: `Bearer ${s.token}` });
    const api = (s: Session, path: string) => `/${s.tenant}/api/1.0${path}`;
    const baselineBody = (s: Session) =>
      JSON.stringify({ tenant: s.tenant, customer: s.customerId, ...ranges.invoices, page: 1 });

    type Target = { name: string; server: Server; next: () => LoadRequest };
    const targets: Target[] = [
      {
        name: 'node:http + pg',
        server: bare,
        next: () => ({ method: 'POST', path: '/invoices', body: baselineBody(anyone()) }),
      },
      {
        name: 'fastify + pg',
        server: minimal,
        next: () => ({ method: 'POST', path: '/invoices', body: baselineBody(anyone()) }),
      },
      {
        name: 'fastify + pg prepared',
        server: minimal,
        next: () => ({ method: 'POST', path: '/invoices-prepared', body: baselineBody(anyone()) }),
      },
      // The floor of /payments: its own query (a receipt looked up per paid row), not /invoices'.
      ...(['/payments', '/payments-prepared'] as const).map((path) => ({
        name: `fastify + pg ${path}`,
        server: minimal,
        next: (): LoadRequest => {
          const s = anyone();
          const body = JSON.stringify({
            tenant: s.tenant,
            customer: s.customerId,
            ...ranges.payments,
            page: 1,
          });
          return { method: 'POST', path, body };
        },
      })),
      ...(['/tx', '/tx-3rt', '/tx-auth', '/tx-auth-zod'] as const).map((path) => ({
        name: `fastify + pg ${path}`,
        server: ladder,
        next: (): LoadRequest => {
          const s = anyone();
          return {
            method: 'POST',
            path,
            headers: { ...bearer(s), 'x-tenant': s.tenant },
            body: baselineBody(s),
          };
        },
      })),
      {
        name: '/invoices',
        server: portal,
        next: () => {
          const s = anyone();
          const body = JSON.stringify({ ...ranges.invoices, page: 1 });
          return { method: 'POST', path: api(s, '/invoices'), headers: bearer(s), body };
        },
      },
      {
        name: '/invoice',
        server: portal,
        next: () => {
          const s = anyone();
          const id = s.invoiceIds[Math.floor(random() * s.invoiceIds.length)];
          const body = JSON.stringify({ invoice_id: id });
          return { method: 'POST', path: api(s, '/invoice'), headers: bearer(s), body };
        },
      },
      {
        name: '/payments',
        server: portal,
        next: () => {
          const s = anyone();
          const body = JSON.stringify({ ...ranges.payments, page: 1 });
          return { method: 'POST', path: api(s, '/payments'), headers: bearer(s), body };
        },
      },
      {
        name: '/invoices/summary',
        server: portal,
        next: () => {
          const s = anyone();
          const body = JSON.stringify(ranges.invoices);
          return { method: 'POST', path: api(s, '/invoices/summary'), headers: bearer(s), body };
        },
      },
    ];

    await checkSameAnswers(portal, bare, minimal, ladder, sessions.slice(0, 5), ranges);

    const run = async (
      target: Target,
      seconds: number,
      fixed?: { rate: number; client: FixedRateClient },
    ): Promise<LoadResult> => {
      const load = { url: target.server.url, next: target.next, seconds };
      const result = fixed
        ? await generator.run({
            url: target.server.url,
            requests: Array.from({ length: Math.round(fixed.rate * seconds) }, target.next),
            seconds,
            connections: options.connections,
            samples: false,
            ...fixed,
          })
        : await runLoad({ ...load, connections: options.connections });
      if (result.failures > 0) {
        throw new Error(
          `${target.name}: ${result.failures} of ${result.requests} requests failed (non-2xx or errors)`,
        );
      }
      return result;
    };

    log(`  warm-up: ${options.warmupSeconds} s per target`);
    for (const target of targets) await run(target, options.warmupSeconds);
    // Rounds go through every target in turn, so that a slow moment of the machine (these
    // machines are shared) spreads over all of them instead of sinking one.
    results.saturatedCpuPerRequest = {};
    for (let r = 0; r < options.rounds; r++) {
      for (const target of targets) {
        const cpuBefore = cpuNow(target.server.pid);
        const result = await run(target, options.seconds);
        if ((cpuTargets as readonly string[]).includes(target.name)) {
          addCpuPerRequest(
            (results.saturatedCpuPerRequest[target.name] ??= emptyCpuPerRequest()),
            cpuBefore,
            cpuNow(target.server.pid),
            result.requests,
          );
        }
        const entry = (results.throughput[target.name] ??= { runs: [], median: 0 });
        entry.runs.push(round(result.rps, 0));
        entry.median = round(median(entry.runs), 0);
        log(
          `  round ${r + 1}/${options.rounds} ${target.name.padEnd(26)} ${result.rps.toFixed(0).padStart(6)} req/s  p50 ${result.p50} ms  p99 ${result.p99} ms`,
        );
      }
    }

    // The generator's floor (a plain answer, no database) and the two figures of the budget, with
    // undici's client; then the same two with node:http's, the client of sessions 1-9, to compare
    // (docs/decisions/016).
    const byName = (name: string) => targets.find((t) => t.name === name) as Target;
    const floor: Target = {
      name: fixedRateFloor,
      server: bare,
      next: () => ({ method: 'GET', path: '/health' }),
    };
    const fixedRuns: { key: string; target: Target; client: FixedRateClient }[] = [
      { key: fixedRateFloor, target: floor, client: 'undici' },
      ...['fastify + pg', '/invoices'].map((name) => ({
        key: name,
        target: byName(name),
        client: 'undici' as const,
      })),
      ...['fastify + pg', '/invoices'].map((name) => ({
        key: `${name}${nodeHttpClientSuffix}`,
        target: byName(name),
        client: 'node:http' as const,
      })),
    ];
    for (let r = 0; r < options.rounds; r++) {
      for (const { key, target, client } of fixedRuns) {
        const result = await run(target, options.seconds, { rate: options.rate, client });
        const entry = (results.fixedRate[key] ??= {
          p50: [],
          p99: [],
          medianP50: 0,
          medianP99: 0,
          lateP99: [],
          medianLateP99: 0,
        });
        entry.p50.push(result.p50);
        entry.p99.push(result.p99);
        entry.medianP50 = median(entry.p50);
        entry.medianP99 = median(entry.p99);
        entry.lateP99.push(result.lateP99 ?? Number.NaN);
        entry.medianLateP99 = median(entry.lateP99);
        log(
          `  round ${r + 1}/${options.rounds} ${key.padEnd(38)} at ${options.rate} req/s: p50 ${result.p50} ms  p99 ${result.p99} ms (${result.rps.toFixed(0)} req/s served; generator late p99 ${result.lateP99} ms)`,
        );
      }
    }

    // What a request costs each process, at the same fixed rate for every target: the server
    // (all its threads), PostgreSQL (every backend) and the generator's process. Three rounds, in turn.
    const cpuRounds = Math.min(options.rounds, 3);
    for (let r = 0; r < cpuRounds; r++) {
      for (const name of cpuTargets) {
        const target = byName(name);
        const before = {
          ...cpuNow(target.server.pid),
          generator: processCpuSeconds(generator.pid),
        };
        const result = await run(target, options.seconds, { rate: options.rate, client: 'undici' });
        const after = { ...cpuNow(target.server.pid), generator: processCpuSeconds(generator.pid) };
        const entry = (results.cpuPerRequest[name] ??= emptyCpuPerRequest());
        addCpuPerRequest(entry, before, after, result.requests);
        log(
          `  round ${r + 1}/${cpuRounds} CPU per request ${name.padEnd(26)} server ${entry.server.at(-1)} µs, PostgreSQL ${entry.postgres?.at(-1) ?? '—'} µs, generator ${entry.generator.at(-1)} µs`,
        );
      }
    }

    const profile = await profilePortal({
      env: { ...portalEnv(await freePort(), appSecret), ...dbEnv },
      next: (targets.find((t) => t.name === '/invoices') as Target).next,
      seconds: options.seconds,
      connections: options.connections,
    });
    log(
      `  CPU profile of the portal under /invoices load (share of busy time, inclusive): ${Object.entries(
        profile.inclusive,
      )
        .slice(0, 10)
        .map(([k, v]) => `${k} ${v}%`)
        .join(', ')}`,
    );
    results.diagnosis = await diagnoseApi({
      databaseUrl: dataset.url,
      appSecret,
      sessions,
      ranges: ranges.invoices,
      log,
    });
    results.diagnosis.profile = profile;
  } finally {
    await generator.stop();
    for (const server of servers.reverse()) await server.stop();
  }

  if (options.pglite) {
    results.pglite = await benchPglite(options, appSecret, results.throughput['/invoices']);
  }
  return results as ApiResults;
}

/**
 * Runs one more portal under node's CPU profiler for one load run of `/invoices` and sums where
 * its main thread spent the time, by package.
 */
async function profilePortal(options: {
  env: Record<string, string>;
  next: () => LoadRequest;
  seconds: number;
  connections: number;
}): Promise<ProfileSummary> {
  const dir = join(repoRoot, 'bench/.data/profiles');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // The compiled server, as everywhere in the bench: its own code shows as apps/api (the
  // workspace packages it bundles included).
  const spawned = performance.now();
  const server = await startServer({
    name: 'portal (profiled)',
    command: process.execPath,
    args: [...serverNodeFlags, '--cpu-prof', `--cpu-prof-dir=${dir}`, compiledApi()],
    port: Number(options.env.PORT),
    env: options.env,
    readyPath: `/${loadTenantId(0)}/api/1.0/visual-config`,
    timeoutMs: 180_000,
  });
  let skipMs: number;
  try {
    await runLoad({ url: server.url, next: options.next, seconds: 2, connections: 10 });
    // Only the measured load counts: not the start-up, not the warm-up.
    skipMs = performance.now() - spawned;
    await runLoad({
      url: server.url,
      next: options.next,
      seconds: options.seconds,
      connections: options.connections,
    });
  } finally {
    await server.stop();
  }
  const [largest] = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => ({ f, size: statSync(join(dir, f)).size }))
    .sort((a, b) => b.size - a.size);
  if (!largest) throw new Error('the profiled portal wrote no CPU profile');
  return summariseProfile(join(dir, largest.f), skipMs);
}

/** The baselines and the ladder answer exactly what the portal answers. */
async function checkSameAnswers(
  portal: Server,
  bare: Server,
  minimal: Server,
  ladder: Server,
  sessions: Session[],
  ranges: Record<'invoices' | 'payments', { datefrom: string; dateto: string }>,
): Promise<void> {
  const range = ranges.invoices;
  for (const s of sessions) {
    const post = async (url: string, body: object, headers: Record<string, string> = {}) => {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
      return res.text();
    };
    const auth = { authorization: `Bearer ${s.token}`, 'x-tenant': s.tenant };
    const expected = await post(
      `${portal.url}/${s.tenant}/api/1.0/invoices`,
      { ...range, page: 1 },
      auth,
    );
    const request = { tenant: s.tenant, customer: s.customerId, ...range, page: 1 };
    const answers = [
      await post(`${bare.url}/invoices`, request),
      await post(`${minimal.url}/invoices`, request),
      await post(`${minimal.url}/invoices-prepared`, request),
      ...(await Promise.all(
        ['/tx', '/tx-3rt', '/tx-auth', '/tx-auth-zod'].map((path) =>
          post(ladder.url + path, request, auth),
        ),
      )),
    ];
    const page = JSON.parse(expected) as { invoices: unknown[] };
    if (page.invoices.length !== 20) throw new Error('expected a full page of 20 invoices');
    for (const answer of answers) {
      if (JSON.stringify(JSON.parse(answer)) !== JSON.stringify(page)) {
        throw new Error(`a baseline answers differently from the portal:\n${answer}\n${expected}`);
      }
    }
    const expectedPayments = await post(
      `${portal.url}/${s.tenant}/api/1.0/payments`,
      { ...ranges.payments, page: 1 },
      auth,
    );
    const paymentsRequest = {
      tenant: s.tenant,
      customer: s.customerId,
      ...ranges.payments,
      page: 1,
    };
    const payments = JSON.parse(expectedPayments) as { payments: unknown[] };
    if (payments.payments.length !== 20) throw new Error('expected a full page of 20 payments');
    for (const path of ['/payments', '/payments-prepared']) {
      const answer = await post(minimal.url + path, paymentsRequest);
      if (JSON.stringify(JSON.parse(answer)) !== JSON.stringify(payments)) {
        throw new Error(
          `the /payments baseline answers differently from the portal:\n${answer}\n${expectedPayments}`,
        );
      }
    }
  }
}

/** The same `/invoices` load on the embedded database, for information. */
async function benchPglite(
  options: ApiOptions,
  appSecret: string,
  postgres: Throughput | undefined,
): Promise<NonNullable<ApiResults['pglite']>> {
  const { log } = options;
  const ranges = benchRanges(options.pgliteShape);
  const dataDir = join(repoRoot, 'bench/.data/pglite-load');
  const dataset = await ensurePgliteDataset(dataDir, options.pgliteShape);
  log(
    dataset.reused
      ? '  embedded data set kept from an earlier run'
      : `  embedded data set generated in ${dataset.seconds.toFixed(0)} s`,
  );
  // The floor opens a copy of the database folder (the portal's is DATA_DIR/pglite): a PGlite
  // folder is open in one process at a time.
  const floorDir = join(repoRoot, 'bench/.data/pglite-load-floor');
  rmSync(floorDir, { recursive: true, force: true });
  cpSync(join(dataDir, 'pglite'), floorDir, { recursive: true });
  const port = await freePort();
  const floorPort = await freePort();
  const servers: Server[] = [];
  try {
    const server = await startPortal('portal on PGlite', {
      ...portalEnv(port, appSecret),
      DATA_DIR: dataDir,
    });
    servers.push(server);
    const floor = await startServer({
      name: 'fastify + PGlite',
      command: process.execPath,
      args: [await bundledServer('bench/servers/fastify-pglite.ts')],
      port: floorPort,
      env: { PORT: String(floorPort), PGLITE_DIR: floorDir },
      readyPath: '/health',
      timeoutMs: 180_000,
    });
    servers.push(floor);
    // Sign-in is rate limited per address and tenant: a fresh process starts with fresh counters.
    const sessions = await signIn(server, options.pgliteShape, options.customersPerTenant);
    const body = { ...ranges.invoices, page: 1 };
    // The floor answers exactly what the portal answers.
    for (const s of sessions.slice(0, 3)) {
      const [mine, floors] = await Promise.all([
        fetch(`${server.url}/${s.tenant}/api/1.0/invoices`, {
          method: 'POST',
          headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }).then((r) => r.json()),
        fetch(`${floor.url}/invoices`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ tenant: s.tenant, customer: s.customerId, ...body }),
        }).then((r) => r.json()),
      ]);
      if (JSON.stringify(mine) !== JSON.stringify(floors))
        throw new Error(
          `PGlite floor and portal answer differently for ${s.tenant}/${s.customerId}`,
        );
    }
    const random = seededRandom(8);
    const anyone = () => sessions[Math.floor(random() * sessions.length)] as Session;
    const targets = [
      {
        name: '/invoices on PGlite',
        url: server.url,
        next: (): LoadRequest => {
          const s = anyone();
          return {
            method: 'POST',
            path: `/${s.tenant}/api/1.0/invoices`,
            headers: { authorization: `Bearer ${s.token}` },
            body: JSON.stringify(body),
          };
        },
      },
      {
        name: 'fastify + PGlite',
        url: floor.url,
        next: (): LoadRequest => {
          const s = anyone();
          const floorBody = { tenant: s.tenant, customer: s.customerId, ...body };
          return { method: 'POST', path: '/invoices', body: JSON.stringify(floorBody) };
        },
      },
    ];
    const load = (target: (typeof targets)[number], seconds: number) =>
      runLoad({ url: target.url, next: target.next, seconds, connections: options.connections });
    for (const target of targets) await load(target, options.warmupSeconds);
    const runs: Record<string, number[]> = {};
    // Interleaved, as the PostgreSQL targets are: a slow moment of the machine hits both.
    for (let r = 0; r < options.rounds; r++) {
      for (const target of targets) {
        const result = await load(target, options.seconds);
        if (result.failures > 0) throw new Error(`${target.name}: ${result.failures} failures`);
        (runs[target.name] ??= []).push(round(result.rps, 0));
        log(
          `  round ${r + 1}/${options.rounds} ${target.name.padEnd(26)} ${result.rps.toFixed(0).padStart(6)} req/s  p50 ${result.p50} ms  p99 ${result.p99} ms`,
        );
        await sleep(200);
      }
    }
    const throughputOf = (name: string) => {
      const list = runs[name] ?? [];
      return { runs: list, median: round(median(list), 0) };
    };
    const throughput = throughputOf('/invoices on PGlite');
    const floorThroughput = throughputOf('fastify + PGlite');
    return {
      shape: options.pgliteShape,
      reused: dataset.reused,
      generateSeconds: round(dataset.seconds, 0),
      throughput,
      floor: floorThroughput,
      ratioToFloor: round(throughput.median / floorThroughput.median, 2),
      ratioToPostgres: postgres ? round(throughput.median / postgres.median, 2) : Number.NaN,
    };
  } finally {
    for (const server of servers) await server.stop();
  }
}
