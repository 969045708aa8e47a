import { writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { openPostgres } from '../apps/api/src/db/database.ts';
import {
  loadCustomerEmail,
  loadPassword,
  loadTenantId,
  type LoadShape,
} from '../apps/api/src/db/seed/generate.ts';
import { seededRandom } from '../apps/api/src/db/seed/random.ts';
import { createApiKey, revokeApiKey } from '../apps/api/src/modules/admin/api-keys.ts';
import {
  benchAppSecret,
  benchRanges,
  portalEnv,
  signIn,
  startPortal,
  type Session,
} from './api.ts';
import { postgresCpuSeconds, processCpuSeconds, treeCpuSeconds } from './lib/cpu-time.ts';
import { ensurePostgresDataset } from './lib/dataset.ts';
import { startGeneratorProcess } from './lib/generator-process.ts';
import type { LoadRequest, LoadResult, RequestSample } from './lib/load.ts';
import {
  invoiceBatch,
  putAdmin,
  startHeavyClient,
  type HeavyConfig,
  type HeavyCounts,
} from './lib/heavy-client.ts';
import { freePort } from './lib/ports.ts';
import type { Server } from './lib/processes.ts';
import { median, round, slowClusters } from './lib/stats.ts';

export type IsolationOptions = {
  adminUrl: string;
  database: string;
  shape: LoadShape;
  seconds: number;
  rounds: number;
  connections: number;
  /** Requests per second of `/invoices` on the quiet tenant. */
  rate: number;
  /** PDF downloads in flight at once on the busy tenant. */
  pdfDownloaders: number;
  /** Which heavy work runs beside the reads: both (the budget's scenario), or one, to tell which costs. */
  heavyKinds: 'both' | 'pdf' | 'batch';
  /**
   * The heavy work goes to a second portal process on the same database (a diagnosis, not the
   * budget's scenario): what the ratio keeps then comes from the shared cores, not the event loop.
   */
  split: boolean;
  /**
   * A file to write every measured request (due time, lateness, latency) and every PDF and batch
   * (start, duration) to, as JSON, to see when the slow requests came (a diagnosis; off by default).
   */
  trace?: string | undefined;
  log: (line: string) => void;
};

type Phase = { p50: number[]; p99: number[]; medianP50: number; medianP99: number };

export type IsolationResults = {
  settings: {
    seconds: number;
    rounds: number;
    rate: number;
    pdfLines: number;
    batchInvoices: number;
    pdfDownloaders: number;
    heavyKinds: 'both' | 'pdf' | 'batch';
    split: boolean;
  };
  /** `/invoices` of tenant load01 alone, then while tenant load02 downloads PDFs and ingests. */
  alone: Phase;
  loaded: Phase;
  /** medianP99(loaded) / medianP99(alone): the budget (≤ 2x). */
  ratio: number;
  /**
   * Cores each process used during the measured runs (its CPU seconds per second, median of the
   * rounds; lib/cpu-time.ts): where the machine's two cores went, alone and beside the heavy work.
   * `postgres` is null where PostgreSQL runs on another machine.
   */
  cores: { alone: CoreUse; loaded: CoreUse };
  /** The heavy work done on the busy tenant during the loaded runs, all rounds together. */
  heavy: {
    pdfs: number;
    pdfRefused: number;
    pdfMedianMs: number;
    batches: number;
    batchMedianMs: number;
    failures: number;
  };
};

export type CoreUse = {
  /** The portal's process with its heavy-work processes (both portals with --isolation-split). */
  portal: number;
  postgres: number | null;
  /** This process: the load generator of the quiet tenant's reads. */
  generator: number;
  /** The busy tenant's client (lib/heavy-client.ts), in the loaded runs. */
  heavyClient: number | null;
};

/** Cores used, as the run logs and the results say them. */
export const coreLine = (c: CoreUse): string =>
  `cores used: portal ${c.portal}, PostgreSQL ${c.postgres ?? '—'}, generator ${c.generator}` +
  (c.heavyClient === null ? '' : `, the busy tenant's client ${c.heavyClient}`);

/** Each process's median over the rounds. */
function medianCores(runs: CoreUse[]): CoreUse {
  const of = (values: (number | null)[]) => {
    const known = values.filter((v): v is number => v !== null);
    return known.length === 0 ? null : round(median(known), 2);
  };
  return {
    portal: of(runs.map((r) => r.portal)) ?? 0,
    postgres: of(runs.map((r) => r.postgres)),
    generator: of(runs.map((r) => r.generator)) ?? 0,
    heavyClient: of(runs.map((r) => r.heavyClient)),
  };
}

const pdfLines = 500;
/** Lets the bench read the portal's own event-loop delay (prom-client's, reset at each read). */
const metricsToken = 'bench-isolation-metrics-token-not-a-secret';
const pdfInvoices = 4;
const batchSize = 10_000;

/**
 * Where the requests that break the budget (slower than twice the median p99 alone) came from: how
 * many, in how many clusters (one stall catches every request due while it lasts), and how many
 * of the loaded clusters began while a batch or a PDF was in progress.
 */
export function traceSummary(
  runs: readonly { phase: 'alone' | 'loaded'; samples: readonly RequestSample[] }[],
  batches: readonly number[][],
  pdfs: readonly number[][],
  thresholdMs: number,
): string {
  const during = (spans: readonly number[][], t: number) =>
    spans.some(([start = 0, ms = 0]) => t >= start && t <= start + ms);
  const line = (phase: 'alone' | 'loaded') => {
    const samples = runs.filter((r) => r.phase === phase).flatMap((r) => r.samples);
    const clusters = slowClusters(samples, thresholdMs);
    const slow = clusters.reduce((n, c) => n + c.count, 0);
    const largest = [...clusters].sort((a, b) => b.count - a.count).slice(0, 3);
    const where =
      phase === 'loaded'
        ? `, ${clusters.filter((c) => during(batches, c.start)).length} began during a batch and ${clusters.filter((c) => during(pdfs, c.start)).length} during a PDF`
        : '';
    return `${phase} ${slow} of ${samples.length} in ${clusters.length} clusters (largest: ${largest.map((c) => `${c.count} requests, max ${round(c.maxMs, 0)} ms`).join('; ') || 'none'})${where}`;
  };
  return `  requests slower than ${round(thresholdMs, 1)} ms (2x the p99 alone): ${line('alone')}; ${line('loaded')}`;
}

const phase = (): Phase => ({ p50: [], p99: [], medianP50: 0, medianP99: 0 });
const record = (p: Phase, r: LoadResult) => {
  p.p50.push(r.p50);
  p.p99.push(r.p99);
  p.medianP50 = median(p.p50);
  p.medianP99 = median(p.p99);
};

/**
 * Heavy work never stalls other tenants (issue 20): p99 of `/invoices` on tenant load01 at a fixed
 * rate, alone and then while tenant load02 downloads PDFs of 500-line invoices and ingests a batch
 * of 10,000 invoices in a loop, round after round; the budget is the ratio of the two medians.
 */
export async function benchIsolation(options: IsolationOptions): Promise<IsolationResults> {
  const { log, shape } = options;
  if (shape.tenants < 2) throw new Error('the isolation scenario needs two tenants');
  const dataset = await ensurePostgresDataset(options.adminUrl, options.database, shape);
  const quiet = loadTenantId(0);
  const busy = loadTenantId(1);
  const pdfCustomer = shape.customersPerTenant - 1;

  // The busy tenant's provider key, its 500-line invoices and its bulk customer (kept between
  // runs: the batch replays the same 10,000 ids, with other amounts each time).
  const db = openPostgres({ connectionString: dataset.url, max: 1 });
  let key: { key: string; id: string };
  let pdfCustomerCode: string;
  try {
    const created = await db.withTenant(busy, (sql) => createApiKey(sql, 'bench isolation'));
    key = { key: created.key, id: created.row.id };
    const [row] = await db.withOwner((sql) =>
      sql.query<{ code: string }>(
        `SELECT code FROM customers WHERE tenant_id = $1 AND email = $2`,
        [busy, loadCustomerEmail(pdfCustomer)],
      ),
    );
    if (!row) throw new Error(`no customer ${loadCustomerEmail(pdfCustomer)} on ${busy}`);
    pdfCustomerCode = row.code;
  } finally {
    await db.close();
  }

  const start = async (name: string) =>
    startPortal(name, {
      ...portalEnv(await freePort(), benchAppSecret),
      DATABASE_URL: dataset.url,
      DATABASE_POOL_SIZE: '10',
      METRICS_TOKEN: metricsToken,
    });
  // Started first: should it fail, no portal is left running (it ends when the bench does).
  const generator = await startGeneratorProcess();
  const server: Server = await start('portal (isolation)');
  const heavyServer: Server = options.split ? await start('portal (heavy work)') : server;
  try {
    const heavyConfig: HeavyConfig = {
      url: heavyServer.url,
      tenant: busy,
      apiKey: key.key,
      pdfSession: '',
      pdfInvoices,
      pdfDownloaders: options.pdfDownloaders,
      kinds: options.heavyKinds,
      batchSize,
    };
    const setup = async (path: string, body: object) => {
      const res = await putAdmin(heavyConfig, path, JSON.stringify(body));
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    };
    await setup('/customers', {
      customers: [
        {
          code: 'BENCH-BULK',
          email: 'bench-bulk@carga.test',
          name: 'Carga masiva',
          send_invitation: false,
        },
      ],
    });
    await setup('/invoices', invoiceBatch('BENCH-PDF', pdfCustomerCode, pdfInvoices, pdfLines));
    await setup('/invoices', invoiceBatch('BENCH-BULK', 'BENCH-BULK', batchSize, 1, 1));

    const sessions = await signIn(server, shape, 20, [0]);
    const [pdfSession] = await (async () => {
      const res = await fetch(`${server.url}/${busy}/api/1.0/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: loadCustomerEmail(pdfCustomer), password: loadPassword }),
      });
      if (res.status !== 200) throw new Error(`sign-in on ${busy}: ${res.status}`);
      return [((await res.json()) as { access_token: string }).access_token];
    })();
    heavyConfig.pdfSession = pdfSession ?? '';
    log(`  signed in ${sessions.length} customers of ${quiet}; PDFs and batches on ${busy}`);

    const ranges = benchRanges(shape);
    const random = seededRandom(20);
    const next = (): LoadRequest => {
      const s = sessions[Math.floor(random() * sessions.length)] as Session;
      return {
        method: 'POST',
        path: `/${s.tenant}/api/1.0/invoices`,
        headers: { authorization: `Bearer ${s.token}` },
        body: JSON.stringify({ ...ranges.invoices, page: 1 }),
      };
    };
    /**
     * The portal's event-loop delay since the previous read (ms): tells a stall of the event loop
     * from time the request spends elsewhere (PostgreSQL, waiting for a core).
     */
    const loopDelay = async () => {
      const res = await fetch(`${server.url}/metrics`, {
        headers: { authorization: `Bearer ${metricsToken}` },
      });
      const text = await res.text();
      const value = (name: string) =>
        round(Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) * 1000, 1);
      return {
        p99: value('nodejs_eventloop_lag_p99_seconds'),
        max: value('nodejs_eventloop_lag_max_seconds'),
      };
    };
    const portals = heavyServer === server ? [server] : [server, heavyServer];
    const cpuNow = (heavyClientPid?: number) => ({
      at: performance.now(),
      // The portal with its heavy-work processes (its children).
      portal: portals.reduce((sum, p) => sum + treeCpuSeconds(p.pid), 0),
      postgres: postgresCpuSeconds(),
      generator: processCpuSeconds(generator.pid),
      heavyClient: heavyClientPid === undefined ? undefined : treeCpuSeconds(heavyClientPid),
    });
    const coresOf = (a: ReturnType<typeof cpuNow>, b: ReturnType<typeof cpuNow>) => {
      const seconds = (b.at - a.at) / 1000;
      const per = (x: number) => round(x / seconds, 2);
      return {
        portal: per(b.portal - a.portal),
        postgres:
          a.postgres === undefined || b.postgres === undefined
            ? null
            : per(b.postgres - a.postgres),
        generator: per(b.generator - a.generator),
        heavyClient:
          a.heavyClient === undefined || b.heavyClient === undefined
            ? null
            : per(b.heavyClient - a.heavyClient),
      };
    };
    const coreRuns: { alone: CoreUse[]; loaded: CoreUse[] } = { alone: [], loaded: [] };
    const traced: { phase: 'alone' | 'loaded'; round: number; samples: RequestSample[] }[] = [];
    const measure = async (heavyClientPid?: number) => {
      await loopDelay();
      const before = cpuNow(heavyClientPid);
      const samples: RequestSample[] = [];
      if (options.trace) {
        traced.push({
          phase: heavyClientPid === undefined ? 'alone' : 'loaded',
          round: alone.p99.length + (heavyClientPid === undefined ? 1 : 0),
          samples,
        });
      }
      const r = await generator.run({
        url: server.url,
        requests: Array.from({ length: Math.round(options.rate * options.seconds) }, next),
        seconds: options.seconds,
        connections: options.connections,
        rate: options.rate,
        samples: options.trace !== undefined,
      });
      samples.push(...(r.samples ?? []));
      const cores = coresOf(before, cpuNow(heavyClientPid));
      if (r.failures > 0) throw new Error(`/invoices: ${r.failures} of ${r.requests} failed`);
      return { ...r, cores, loop: await loopDelay() };
    };

    const heavy = { pdfs: 0, pdfRefused: 0, batches: 0, failures: 0 };
    const pdfMs: number[] = [];
    const batchMs: number[] = [];
    const pdfAt: number[] = [];
    const batchAt: number[] = [];
    const add = (counts: HeavyCounts) => {
      heavy.pdfs += counts.pdfs;
      heavy.pdfRefused += counts.pdfRefused;
      heavy.batches += counts.batches;
      heavy.failures += counts.failures;
      pdfMs.push(...counts.pdfMs);
      batchMs.push(...counts.batchMs);
      pdfAt.push(...counts.pdfAt);
      batchAt.push(...counts.batchAt);
    };

    // Warm-up: the quiet tenant's reads, and one pass of the heavy work (the pool's thread starts).
    await generator.run({
      url: server.url,
      requests: Array.from({ length: 2 * options.rate }, next),
      seconds: 2,
      connections: options.connections,
      rate: options.rate,
      samples: false,
    });
    {
      const client = await startHeavyClient(heavyConfig);
      await sleep(3000);
      await client.stop();
    }

    const alone = phase();
    const loaded = phase();
    for (let r = 0; r < options.rounds; r++) {
      const quietRun = await measure();
      record(alone, quietRun);
      coreRuns.alone.push(quietRun.cores);
      log(
        `  round ${r + 1}/${options.rounds} /invoices alone          at ${options.rate} req/s: p50 ${quietRun.p50} ms  p99 ${quietRun.p99} ms (generator late p99 ${quietRun.lateP99} ms; portal's event-loop delay p99 ${quietRun.loop.p99} ms, max ${quietRun.loop.max} ms; ${coreLine(quietRun.cores)})`,
      );
      const client = await startHeavyClient(heavyConfig);
      // The heavy work is under way (a batch is being sent, PDFs are being drawn) before measuring.
      await sleep(500);
      const busyRun = await measure(client.pid);
      add(await client.stop());
      record(loaded, busyRun);
      coreRuns.loaded.push(busyRun.cores);
      log(
        `  round ${r + 1}/${options.rounds} /invoices beside PDFs+batch at ${options.rate} req/s: p50 ${busyRun.p50} ms  p99 ${busyRun.p99} ms (generator late p99 ${busyRun.lateP99} ms; portal's event-loop delay p99 ${busyRun.loop.p99} ms, max ${busyRun.loop.max} ms; ${coreLine(busyRun.cores)})`,
      );
    }
    const results: IsolationResults = {
      settings: {
        seconds: options.seconds,
        rounds: options.rounds,
        rate: options.rate,
        pdfLines,
        batchInvoices: batchSize,
        pdfDownloaders: options.pdfDownloaders,
        heavyKinds: options.heavyKinds,
        split: options.split,
      },
      alone,
      loaded,
      ratio: round(loaded.medianP99 / alone.medianP99, 2),
      cores: { alone: medianCores(coreRuns.alone), loaded: medianCores(coreRuns.loaded) },
      heavy: {
        ...heavy,
        pdfMedianMs: round(median(pdfMs), 0),
        batchMedianMs: round(median(batchMs), 0),
      },
    };
    log(
      `  heavy work on ${busy} meanwhile: ${heavy.pdfs} PDFs of ${pdfLines} lines (median ${results.heavy.pdfMedianMs} ms, ${heavy.pdfRefused} refused with 503), ` +
        `${heavy.batches} batches of ${batchSize} invoices (median ${results.heavy.batchMedianMs} ms), ${heavy.failures} failures`,
    );
    log(
      `  /invoices p99 ${alone.medianP99} ms alone, ${loaded.medianP99} ms beside the heavy work: ${results.ratio}x`,
    );
    if (options.trace) {
      const spans = (at: number[], ms: number[]) => at.map((start, i) => [start, ms[i] ?? 0]);
      writeFileSync(
        options.trace,
        JSON.stringify({
          runs: traced,
          pdfs: spans(pdfAt, pdfMs),
          batches: spans(batchAt, batchMs),
        }),
      );
      log(traceSummary(traced, spans(batchAt, batchMs), spans(pdfAt, pdfMs), 2 * alone.medianP99));
      log(`  trace written to ${options.trace}`);
    }
    if (heavy.failures > 0) {
      throw new Error(
        `${heavy.failures} heavy requests failed; the portal said:\n${server.output()}`,
      );
    }
    return results;
  } finally {
    await generator.stop();
    await server.stop();
    if (heavyServer !== server) await heavyServer.stop();
    const cleanup = openPostgres({ connectionString: dataset.url, max: 1 });
    await cleanup
      .withTenant(busy, (sql) => revokeApiKey(sql, key.id))
      .finally(() => cleanup.close());
  }
}
