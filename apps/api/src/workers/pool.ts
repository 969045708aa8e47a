import { availableParallelism } from 'node:os';
import { ErrorCode } from '@portal/contract';
import { Piscina } from 'piscina';
import { createAdmission } from '../lib/admission.ts';
import { AppError } from '../lib/app-error.ts';
import type { PostgresOptions } from '../db/database.ts';
import type { BatchBody, BatchCall, Parsed } from '../modules/ingestion/parse-batch.ts';
import type { IngestOutcome } from './ingest-invoices.ts';
import type { IdleGroup } from './idle-group.ts';
import type { PoolWorkerData, ThreadPlace } from './tasks.ts';
import type { PreparedInvoices } from '../modules/ingestion/prepare-invoices.ts';
import type { ReceiptPdfInput } from '../modules/documents/receipt-pdf.ts';
import type { StatementPdfInput } from '../modules/documents/statement-pdf.ts';
import type { PdfInput } from '../modules/invoices/pdf.ts';
import type { MandatePdfInput } from '../modules/mandates/pdf.ts';

/**
 * Threads by default: one per core but one, which stays with the event loop (at least one), and at
 * most four: a thread that has drawn a PDF holds ~110 MB (its own V8 heap, pdfkit and its fonts),
 * so the default stays bounded on a large machine. WORKER_THREADS sets another number.
 */
export const defaultWorkerThreads = (): number =>
  Math.max(1, Math.min(availableParallelism() - 1, 4));

/**
 * The threads' entry: `entry.mjs` compiles the TypeScript tasks through tsx when the server runs
 * from source (`npm run dev`, the tests); the compiled server (`npm run build`) has `worker.js`
 * beside it and runs no TypeScript loader.
 */
const workerEntry = new URL(
  import.meta.url.endsWith('.ts') ? './entry.mjs' : './worker.js',
  import.meta.url,
).href;

/** The 503 of a full queue: the client retries shortly; nothing waits without bound. */
export const workersBusy = (): AppError =>
  new AppError(503, ErrorCode.unavailable, 'Too much heavy work at once, retry shortly', {
    'retry-after': '2',
  });

export type HeavyWork = {
  /** The invoice PDF's bytes, drawn on a worker thread. */
  renderInvoicePdf(input: PdfInput): Promise<Buffer>;
  /** An invoice batch's JSON text parsed, validated and made into parameters (ingestion). */
  prepareInvoices(body: unknown): Promise<PreparedInvoices>;
  /**
   * `PUT /admin/invoices` whole on a thread (parsed, checked and written through the thread's own
   * two connections; ingest-invoices.ts), or null without PostgreSQL: the embedded database lives
   * in the main thread, where the batch then runs (its writes in a slot, `inSlot`).
   */
  readonly ingestInvoices: ((tenantId: string, body: unknown) => Promise<IngestOutcome>) | null;
  /** Another ingestion batch's JSON text parsed and validated (the data comes back cloned). */
  parseBatch<N extends BatchCall>(name: N, body: unknown): Promise<Parsed<BatchBody<N>>>;
  /** A payment receipt's PDF and a statement's PDF (documents module), drawn the same way. */
  renderReceiptPdf(input: ReceiptPdfInput): Promise<Buffer>;
  renderStatementPdf(input: StatementPdfInput): Promise<Buffer>;
  readonly threads: number;
  /**
   * Heavy work done elsewhere than on a thread (an ingestion batch's writes, which cost
   * PostgreSQL about a second of one core per 10,000 invoices), run in one of the same slots as
   * the threads' tasks: heavy work of every kind together never takes more cores than `threads`.
   */
  inSlot<T>(task: () => Promise<T>): Promise<T>;
  /** A SEPA mandate's PDF, drawn on a worker thread (mandates module). */
  renderMandatePdf(input: MandatePdfInput): Promise<Buffer>;
  /**
   * The scheduling policy of the thread that answers (priority.ts): `idle` on Linux; and the idle
   * cgroup it joined, if the host has one (idle-group.ts).
   */
  threadPriority(): Promise<ThreadPlace>;
  /** Lets the running tasks finish, then ends the threads (the app's onClose). */
  close(): Promise<void>;
};

/**
 * The heavy-work pool: `threads` worker threads, started on first use and ended after a minute
 * idle (an idle server keeps no thread's memory), and at most `maxQueue` tasks waiting for one;
 * the next task is refused at once with a 503 and Retry-After instead of waiting without bound.
 *
 * One gate of `threads` slots admits the threads' tasks and the heavy work that runs in the
 * database (`inSlot`): with two cores, a PDF drawn while a batch is written took both, and the other
 * tenants' reads waited for a core (the isolation benchmark's p99 went to 8x). Through the gate the
 * heavy work of every kind takes at most `threads` cores (one core but one), one after another.
 */
export function createHeavyWork({
  threads,
  maxQueue,
  database,
  idleGroup = { dir: null, reason: 'none given' },
  log = () => {},
}: {
  threads: number;
  maxQueue: number;
  /** The cgroup the threads join (idle-group.ts, `prepareIdleGroup`); none: SCHED_IDLE alone. */
  idleGroup?: IdleGroup;
  log?: (msg: string) => void;
  /** The PostgreSQL the threads connect to for the invoice batches (none: the embedded one). */
  database?: PostgresOptions | undefined;
}): HeavyWork {
  const pool = new Piscina({
    filename: workerEntry,
    minThreads: 0,
    maxThreads: threads,
    maxQueue,
    idleTimeout: 60_000,
    // Each thread puts itself under SCHED_IDLE when it starts (priority.ts): the event loop, when
    // it wakes, takes the core from it at once. Where that cannot be done, nice +10 (Linux: per thread)
    // still weighs it less than the event loop, PostgreSQL and the other tenants' work.
    niceIncrement: 10,
    workerData: { idleGroup } satisfies PoolWorkerData,
  });
  log(
    idleGroup.dir === null
      ? `Heavy work: no idle cgroup (${idleGroup.reason}); its threads give way only inside this process's scheduling group`
      : `Heavy work: its threads join the idle cgroup ${idleGroup.dir}`,
  );
  const gate = createAdmission({ maxInFlight: threads, maxQueued: maxQueue, refuse: workersBusy });
  async function run<R>(name: string, task: unknown): Promise<R> {
    try {
      return (await gate.run(() => pool.run(task, { name }))) as R;
    } catch (error) {
      // piscina's own error of a full queue (errors.ts, TaskQueueAtLimit).
      if (error instanceof Error && error.message === 'Task queue is at limit') throw workersBusy();
      throw error;
    }
  }
  return {
    threads,
    inSlot: (task) => gate.run(task),
    async renderInvoicePdf(input) {
      const bytes = await run<Uint8Array>('renderInvoicePdf', input);
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
    async renderReceiptPdf(input) {
      const bytes = await run<Uint8Array>('renderReceiptPdf', input);
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
    async renderStatementPdf(input) {
      const bytes = await run<Uint8Array>('renderStatementPdf', input);
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
    prepareInvoices: (body) => run<PreparedInvoices>('prepareInvoices', body),
    ingestInvoices: database
      ? (tenantId, body) => run<IngestOutcome>('ingestInvoiceBatch', { tenantId, body, database })
      : null,
    parseBatch: <N extends BatchCall>(name: N, body: unknown) =>
      run<Parsed<BatchBody<N>>>('parseBatch', { name, body }),
    threadPriority: () => run<ThreadPlace>('threadPriority', null),
    close: () => pool.close(),
    async renderMandatePdf(input) {
      const bytes = await run<Uint8Array>('renderMandatePdf', input);
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
  };
}
