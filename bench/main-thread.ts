import { readFileSync } from 'node:fs';
import { defaultLoadShape } from '../apps/api/src/db/seed/generate.ts';
import {
  benchAppSecret,
  benchRanges,
  portalEnv,
  signIn,
  startBaseline,
  startPortal,
} from './api.ts';
import { processCpuSeconds } from './lib/cpu-time.ts';
import { drive, type SessionRequest } from './lib/drive.ts';
import { freePort } from './lib/ports.ts';
import type { Server } from './lib/processes.ts';
import { median } from './lib/stats.ts';

/**
 * A diagnosis (bench/README.md, session 43): where a saturated `/invoices` run's time goes on the
 * server's main thread. The prepared floor, the ladder's `/tx` and `/tx-auth-zod` and the portal
 * run at once on the bench's PostgreSQL data set; windows of `MT_REQUESTS` requests (50 at a time,
 * as the throughput runs) go to each in turn, `MT_WINDOWS` windows each. For each window, from the
 * kernel's schedstat of the main thread (`/proc/<pid>/task/<pid>/schedstat`): the time it ran and
 * the time it was runnable but waited for a core, a request; and the process's CPU (all threads)
 * and throughput. Saturated, the main thread is either running or waiting: its run time a request
 * is what the throughput ratio follows.
 *
 * `MT_OTHER`, a dist folder inside apps/api (a copy of an older build, say), adds that build of the
 * portal as a fifth target, started as this tree's is: two builds compared under the same load.
 * `MT_OTHER_ENV` (`NAME=value NAME=value`) adds its variables to the fifth target's environment
 * (this tree's build unless `MT_OTHER` names another): one build compared with another setting.
 *
 *   npx tsx bench/main-thread.ts
 *   npm run build -w @portal/api && cp -r apps/api/dist apps/api/dist-old    (before a change)
 *   MT_OTHER=apps/api/dist-old npx tsx bench/main-thread.ts                 (after it)
 */
const databaseUrl =
  process.env.BENCH_DATABASE_URL?.replace(/\/[^/]*$/, '/portal_bench') ??
  'postgres://postgres@127.0.0.1:5432/portal_bench';
const requests = Number(process.env.MT_REQUESTS ?? 20_000);
const windows = Number(process.env.MT_WINDOWS ?? 4);
const connections = 50;
const shape = defaultLoadShape;
const ranges = benchRanges(shape);
const dbEnv = { DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: '10' };

/** Nanoseconds the thread ran, nanoseconds it waited to run, and its timeslices. */
function schedstat(pid: number): [number, number, number] {
  const [ran, waited, slices] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8')
    .trim()
    .split(' ')
    .map(Number);
  return [ran ?? 0, waited ?? 0, slices ?? 0];
}

const baseline = async (name: string, file: string): Promise<Server> =>
  startBaseline(name, file, await freePort(), { APP_SECRET: benchAppSecret, ...dbEnv });

// Read before any server starts: a bad value leaves nothing running.
const otherEnv = Object.fromEntries(
  (process.env.MT_OTHER_ENV ?? '')
    .split(' ')
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=');
      if (at < 1) throw new Error(`MT_OTHER_ENV: "${pair}" is not NAME=value`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
);
const portal = await startPortal('portal', {
  ...portalEnv(await freePort(), benchAppSecret),
  ...dbEnv,
});
const other = process.env.MT_OTHER ?? (process.env.MT_OTHER_ENV || undefined);
const otherPortal = other
  ? await startPortal(
      other,
      { ...portalEnv(await freePort(), benchAppSecret), ...dbEnv, ...otherEnv },
      process.env.MT_OTHER ? `${process.env.MT_OTHER}/server.js` : undefined,
    )
  : undefined;
const floor = await baseline('fastify + pg', 'bench/servers/fastify-pg.ts');
const ladder = await baseline('ladder', 'bench/servers/ladder.ts');
const sessions = await signIn(portal, shape, 20);

const page = { ...ranges.invoices, page: 1 };
const json = { 'content-type': 'application/json' };
/** What the floor and `/tx` take: no token, the tenant and customer in the body. */
const unauthenticated =
  (path: string): SessionRequest =>
  (s) => ({
    path,
    headers: json,
    body: JSON.stringify({ tenant: s.tenant, customer: s.customerId, ...page }),
  });
const portalInvoices: SessionRequest = (s) => ({
  path: `/${s.tenant}/api/1.0/invoices`,
  headers: { ...json, authorization: `Bearer ${s.token}` },
  body: JSON.stringify(page),
});
const targets: { name: string; server: Server; request: SessionRequest }[] = [
  {
    name: 'minimal Fastify + pg, query prepared',
    server: floor,
    request: unauthenticated('/invoices-prepared'),
  },
  { name: '… + the data path (/tx)', server: ladder, request: unauthenticated('/tx') },
  {
    name: '… + token, zod (/tx-auth-zod)',
    server: ladder,
    request: (s) => ({
      path: '/tx-auth-zod',
      headers: { ...json, authorization: `Bearer ${s.token}`, 'x-tenant': s.tenant },
      body: JSON.stringify(page),
    }),
  },
  { name: 'portal /invoices', server: portal, request: portalInvoices },
  ...(otherPortal
    ? [{ name: `portal /invoices (${other})`, server: otherPortal, request: portalInvoices }]
    : []),
];
const measured = targets.map((target) => ({
  ...target,
  ran: [] as number[],
  waited: [] as number[],
  cpu: [] as number[],
  rate: [] as number[],
}));
try {
  for (const t of measured)
    await drive(t.server.url, sessions, t.request, { count: requests / 2, connections, seed: 1 });
  for (let w = 0; w < windows; w++) {
    for (const t of w % 2 ? [...measured].reverse() : measured) {
      const [ran0, waited0] = schedstat(t.server.pid);
      const cpu0 = processCpuSeconds(t.server.pid);
      const started = performance.now();
      await drive(t.server.url, sessions, t.request, { count: requests, connections, seed: w + 2 });
      const seconds = (performance.now() - started) / 1000;
      const [ran1, waited1] = schedstat(t.server.pid);
      t.ran.push((ran1 - ran0) / 1e3 / requests);
      t.waited.push((waited1 - waited0) / 1e3 / requests);
      t.cpu.push(((processCpuSeconds(t.server.pid) - cpu0) * 1e6) / requests);
      t.rate.push(requests / seconds);
    }
  }
  const floorRate = median(measured[0]?.rate ?? []);
  console.log(
    'median of the windows; µs a request (main thread ran, waited for a core; process CPU)',
  );
  for (const t of measured) {
    console.log(
      `${t.name}: ${median(t.rate).toFixed(0)} req/s (${(median(t.rate) / floorRate).toFixed(2)}x), main thread ran ${median(t.ran).toFixed(0)} and waited ${median(t.waited).toFixed(0)}, process CPU ${median(t.cpu).toFixed(0)} (ran in each window: ${t.ran.map((v) => v.toFixed(0)).join(', ')})`,
    );
  }
} finally {
  for (const s of [portal, floor, ladder, ...(otherPortal ? [otherPortal] : [])]) await s.stop();
}
