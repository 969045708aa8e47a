import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { startLineProcess } from './processes.ts';

/**
 * The busy tenant's client of the isolation scenario (bench/isolation.ts): PDF downloads and
 * invoice batches in a loop. It runs in a process of its own, as such a client would: in the
 * generator's process, its sends and reads took turns with the generator's timers and made it send
 * late (generator late p99 13-20 ms against 1-2 ms alone), which counted as the portal's latency.
 */
export type HeavyConfig = {
  url: string;
  tenant: string;
  /** The provider's API key of `tenant` (batches). */
  apiKey: string;
  /** A customer's access token of `tenant` (PDFs). */
  pdfSession: string;
  pdfInvoices: number;
  pdfDownloaders: number;
  kinds: 'both' | 'pdf' | 'batch';
  batchSize: number;
};

export type HeavyCounts = {
  pdfs: number;
  pdfRefused: number;
  batches: number;
  failures: number;
  pdfMs: number[];
  batchMs: number[];
  /** When each of those PDFs and batches was started, ms since the epoch (same order). */
  pdfAt: number[];
  batchAt: number[];
};

/** `count` invoices of one customer, each with `lines` lines and one instalment. */
export function invoiceBatch(
  prefix: string,
  customerCode: string,
  count: number,
  lines: number,
  cents = 0,
) {
  return {
    invoices: Array.from({ length: count }, (_, i) => {
      const unit = 1_000 + (i % 97) + cents;
      const base = unit * lines;
      const vat = Math.round(base * 0.21);
      return {
        id: `${prefix}-${String(i).padStart(5, '0')}`,
        customer_code: customerCode,
        invoice_date: '2026-10-01',
        base_cents: base,
        vat_cents: vat,
        total_cents: base + vat,
        lines: Array.from({ length: lines }, (_, j) => ({
          line_no: j + 1,
          person: `Alumno ${j + 1}`,
          concept: `Actividad ${j + 1}: cuota mensual`,
          quota: 'Octubre 2026',
          quantity: 1,
          unit_price_cents: unit,
          vat_rate: 21,
        })),
        instalments: [
          { seq: 1, due_date: '2026-10-05', amount_cents: base + vat, method: 'Domiciliación' },
        ],
      };
    }),
  };
}

/** PUT of a provider batch to the busy tenant. */
export const putAdmin = (config: HeavyConfig, path: string, body: string) =>
  fetch(`${config.url}/${config.tenant}/api/1.0/admin${path}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${config.apiKey}` },
    body,
  });

/** The loops, until `stop.done`; what they did. */
async function runHeavy(config: HeavyConfig, stop: { done: boolean }): Promise<HeavyCounts> {
  const counts: HeavyCounts = {
    pdfs: 0,
    pdfRefused: 0,
    batches: 0,
    failures: 0,
    pdfMs: [],
    batchMs: [],
    pdfAt: [],
    batchAt: [],
  };
  // Two bodies built once: each batch changes every invoice of the previous one.
  const batches = [0, 1].map((k) =>
    JSON.stringify(invoiceBatch('BENCH-BULK', 'BENCH-BULK', config.batchSize, 1, k)),
  );
  const pdfLoop = async (k: number) => {
    for (let i = k; !stop.done; i++) {
      const started = performance.now();
      const link = await fetch(`${config.url}/${config.tenant}/api/1.0/invoice/pdf`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${config.pdfSession}`,
        },
        body: JSON.stringify({
          invoice_id: `BENCH-PDF-${String(i % config.pdfInvoices).padStart(5, '0')}`,
        }),
      });
      if (link.status !== 200) {
        counts.failures += 1;
        await link.arrayBuffer();
        continue;
      }
      const { url } = (await link.json()) as { url: string };
      const pdf = await fetch(config.url + url);
      await pdf.arrayBuffer();
      if (pdf.status === 200) {
        counts.pdfs += 1;
        counts.pdfMs.push(performance.now() - started);
        counts.pdfAt.push(performance.timeOrigin + started);
      } else if (pdf.status === 503) {
        counts.pdfRefused += 1;
        await sleep(Number(pdf.headers.get('retry-after') ?? 1) * 1000);
      } else counts.failures += 1;
    }
  };
  const batchLoop = async () => {
    for (let i = 0; !stop.done; i++) {
      const started = performance.now();
      const res = await putAdmin(config, '/invoices', batches[i % 2] as string);
      await res.arrayBuffer();
      if (res.status === 200) {
        counts.batches += 1;
        counts.batchMs.push(performance.now() - started);
        counts.batchAt.push(performance.timeOrigin + started);
      } else counts.failures += 1;
    }
  };
  // A request that fails outright (the server gone) is a failure of the run, not a crash.
  const counted = (loop: Promise<void>) =>
    loop.catch(() => {
      counts.failures += 1;
    });
  const pdfs = config.kinds === 'batch' ? 0 : config.pdfDownloaders;
  await Promise.all([
    ...Array.from({ length: pdfs }, (_, k) => counted(pdfLoop(k))),
    ...(config.kinds === 'pdf' ? [] : [counted(batchLoop())]),
  ]);
  return counts;
}

/**
 * Starts the heavy client in its own process; resolves once its loops run. `stop()` lets the
 * requests in flight finish and answers what the client did.
 */
export async function startHeavyClient(
  config: HeavyConfig,
): Promise<{ pid: number; stop(): Promise<HeavyCounts> }> {
  const { child, next } = startLineProcess('the heavy client', new URL(import.meta.url).pathname, {
    HEAVY_CONFIG: JSON.stringify(config),
  });
  const started = await next();
  if (started !== 'running') throw new Error(`the heavy client said: ${started}`);
  return {
    /** The client's process (node with tsx's loader, its collector on one thread). */
    pid: child.pid as number,
    async stop() {
      const answer = next();
      child.stdin.end('stop\n');
      return JSON.parse(await answer) as HeavyCounts;
    },
  };
}

// Run as the child: loops until "stop" on stdin, then the counts as one JSON line.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const config = JSON.parse(process.env.HEAVY_CONFIG ?? '{}') as HeavyConfig;
  const stop = { done: false };
  const running = runHeavy(config, stop);
  process.stdout.write('running\n');
  process.stdin.resume();
  process.stdin.on('end', () => {
    stop.done = true;
  });
  const counts = await running;
  process.stdout.write(`${JSON.stringify(counts)}\n`);
}
