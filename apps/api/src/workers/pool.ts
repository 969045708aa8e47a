import { availableParallelism } from 'node:os';
import { ErrorCode } from '@portal/contract';
import { createAdmission } from '../lib/admission.ts';
import { AppError } from '../lib/app-error.ts';
import type { PostgresOptions } from '../db/database.ts';
import type { BatchBody, BatchCall, Parsed } from '../modules/ingestion/parse-batch.ts';
import type { IngestOutcome } from './ingest-invoices.ts';
import type { ProcessPlace } from './heavy-process.ts';
import type { IdleGroup } from './idle-group.ts';
import {
  createProcessPool,
  HeavyProcessEnded,
  HeavyProcessNotReady,
  HeavyTaskTooLong,
} from './process-pool.ts';
import type { PreparedInvoices } from '../modules/ingestion/prepare-invoices.ts';
import type { ReceiptPdfInput } from '../modules/documents/receipt-pdf.ts';
import type { StatementPdfInput } from '../modules/documents/statement-pdf.ts';
import type { PdfInput } from '../modules/invoices/pdf.ts';
import type { MandatePdfInput } from '../modules/mandates/pdf.ts';

/**
 * Processes by default: one per core but one, which stays with the event loop (at least one), and
 * at most four: a process that has drawn a PDF holds ~110 MB (its own V8 heap, pdfkit and its
 * fonts), so the default stays bounded on a large machine. WORKER_THREADS (the name from when they
 * were threads) sets another number.
 */
export const defaultWorkerThreads = (): number =>
  Math.max(1, Math.min(availableParallelism() - 1, 4));

/**
 * The process's entry: `heavy-entry.mjs` compiles the TypeScript through tsx when the server runs
 * from source (`npm run dev`, the tests); the compiled server (`npm run build`) has `heavy.js`
 * beside it and runs no TypeScript loader.
 */
const processEntry = new URL(
  import.meta.url.endsWith('.ts') ? './heavy-entry.mjs' : './heavy.js',
  import.meta.url,
);

/** The 503 of a full queue: the client retries shortly; nothing waits without bound. */
export const workersBusy = (): AppError =>
  new AppError(503, ErrorCode.unavailable, 'Too much heavy work at once, retry shortly', {
    'retry-after': '2',
  });

/** The two lanes of the heavy work (createHeavyWork). */
export type HeavyLane = 'documents' | 'batches';

/**
 * How much CPU time one task of each lane may spend before its process is killed (wall time where
 * the host does not tell it; process-pool.ts `armDeadline`): far beyond the work's own (a
 * 500-line invoice draws in about half a second, a batch of 10,000 invoices is written in 1.5 s
 * on the bench's 2 cores), so only a task that would never end meets it: an operator's SVG logo of
 * nested `<use>` copies drew for hours and held a place of the documents lane, every tenant's,
 * until then. CPU time, not wall time: on a saturated host the heavy processes, at the back of the
 * queue, wait for a core, and that waiting must not fail a customer's PDF.
 */
export const defaultDeadlines: Record<HeavyLane, number> = {
  documents: 30_000,
  batches: 300_000,
};

/** The answer to a task that ran past its lane's deadline: it was stopped, not retried. */
export const taskTooLong = (): AppError =>
  new AppError(503, ErrorCode.unavailable, 'The work took too long and was stopped');

/**
 * What a lane holds now, the tasks it refused since the start and those it stopped at its deadline
 * (its metrics).
 */
export type LaneLoad = {
  running: number;
  waiting: number;
  refused: number;
  stopped: number;
  processes: number;
};

/**
 * What one tenant may hold of a lane, running and waiting together: half its places. One tenant
 * that fills the line (an integration's burst of batches, a page of statements) gets the 503s;
 * every other tenant still finds room.
 */
export const tenantShare = (threads: number, maxQueue: number): number =>
  Math.max(1, Math.ceil((threads + maxQueue) / 2));

/** Each task names the tenant it is for: the lanes keep each tenant to its share (tenantShare). */
export type HeavyWork = {
  /** The invoice PDF's bytes, drawn in the heavy-work process. */
  renderInvoicePdf(tenant: string, input: PdfInput): Promise<Buffer>;
  /** An invoice batch's JSON text parsed, validated and made into parameters (ingestion). */
  prepareInvoices(tenant: string, body: unknown): Promise<PreparedInvoices>;
  /**
   * `PUT /admin/invoices` whole in the heavy-work process (parsed, checked and written through the
   * process's own two connections; ingest-invoices.ts), or null without PostgreSQL: the embedded
   * database lives in the server's process, where the batch then runs (its writes in a slot,
   * `inSlot`).
   */
  readonly ingestInvoices: ((tenantId: string, body: unknown) => Promise<IngestOutcome>) | null;
  /** Another ingestion batch's JSON text parsed and validated (the data comes back cloned). */
  parseBatch<N extends BatchCall>(
    tenant: string,
    name: N,
    body: unknown,
  ): Promise<Parsed<BatchBody<N>>>;
  /** A payment receipt's PDF and a statement's PDF (documents module), drawn the same way. */
  renderReceiptPdf(tenant: string, input: ReceiptPdfInput): Promise<Buffer>;
  renderStatementPdf(tenant: string, input: StatementPdfInput): Promise<Buffer>;
  /** Processes of each lane. */
  readonly threads: number;
  /**
   * Heavy work done elsewhere than in the heavy-work process (an ingestion batch's writes on the
   * embedded database), run in one of the batches' slots: batches of every kind together never
   * take more cores than `threads`.
   */
  inSlot<T>(tenant: string, task: () => Promise<T>): Promise<T>;
  /** A SEPA mandate's PDF, drawn in the heavy-work process (mandates module). */
  renderMandatePdf(tenant: string, input: MandatePdfInput): Promise<Buffer>;
  /**
   * Where the process of a lane (the documents' unless named) that answers stands: its id, its
   * threads' policy (priority.ts: `idle` on Linux) and the idle cgroup they joined, if the host
   * has one (idle-group.ts).
   */
  placement(lane?: HeavyLane): Promise<ProcessPlace>;
  /** Heavy-work processes alive now, of both lanes (none when idle). */
  readonly processes: number;
  /** Each lane's tasks running and waiting, its refusals so far and its processes (/metrics). */
  load(): Record<HeavyLane, LaneLoad>;
  /** Lets the running tasks finish, then ends the processes (the app's onClose). */
  close(): Promise<void>;
};

/**
 * The heavy-work pool, in two lanes: documents (the PDFs a person waits for) and batches (what an
 * integration sends to `/admin`, which retries a 503). Each lane has `threads` processes
 * (process-pool.ts), each started on first use and ended after a minute idle (an idle server keeps
 * no heavy process's memory), and a gate of `threads` slots with at most `maxQueue` tasks waiting;
 * the next task is refused at once with a 503 and Retry-After instead of waiting without bound.
 * A tenant holds at most half of a lane's places (tenantShare): one tenant's burst cannot leave
 * the others only 503s; and the line takes turns between tenants (lib/admission.ts), so another
 * tenant's PDF waits behind one of the busy tenant's, not all of them.
 *
 * Two lanes, not one gate (decision 042): a batch holds its slot for a second or more, most of it
 * waiting for the database, and with one gate every tenant's PDFs waited behind one tenant's
 * batches (1.2-1.7 s each beside them in bench/isolation.ts; with the line full of batches, a 503).
 * The lanes' processes all give way to the server's threads, so two lanes take no core a request
 * wants.
 *
 * Processes, not worker threads (decision 041): a worker thread under SCHED_IDLE still had its
 * garbage collected by V8's platform threads, which the event loop shares, at normal priority;
 * beside PDFs they took the cores the other tenants' requests waited for. All of a heavy-work
 * process's threads give way (heavy-process.ts).
 */
export function createHeavyWork({
  threads,
  maxQueue,
  database,
  idleGroup = { dir: null, reason: 'none given' },
  idleMs,
  deadlines = defaultDeadlines,
  startMs,
  log = () => {},
}: {
  /** Processes (and slots) of each lane. */
  threads: number;
  /** Tasks that may wait in each lane. */
  maxQueue: number;
  /** The PostgreSQL the processes connect to for the invoice batches (none: the embedded one). */
  database?: PostgresOptions | undefined;
  /** The cgroup the processes' threads join (idle-group.ts, `prepareIdleGroup`); none: SCHED_IDLE alone. */
  idleGroup?: IdleGroup;
  /** How long a process waits for its next task before it ends (a minute). */
  idleMs?: number;
  /** How long one task of each lane may run (defaultDeadlines). */
  deadlines?: Record<HeavyLane, number>;
  /** How long a new process may take to say it is ready before it is killed (a minute). */
  startMs?: number;
  log?: (msg: string) => void;
}): HeavyWork {
  log(
    idleGroup.dir === null
      ? `Heavy work: no idle cgroup (${idleGroup.reason}); its processes give way only inside their own scheduling group`
      : `Heavy work: its processes join the idle cgroup ${idleGroup.dir}`,
  );
  const lane = (name: HeavyLane) => {
    const pool = createProcessPool({
      size: threads,
      entry: processEntry,
      args: [JSON.stringify(idleGroup)],
      idleMs,
      deadlineMs: deadlines[name],
      ...(startMs === undefined ? {} : { startMs }),
    });
    let refused = 0;
    let stopped = 0;
    const gate = createAdmission({
      maxInFlight: threads,
      maxQueued: maxQueue,
      maxPerKey: tenantShare(threads, maxQueue),
      refuse: () => {
        refused += 1;
        return workersBusy();
      },
    });
    async function run<R>(name: string, task: unknown, tenant?: string): Promise<R> {
      try {
        return await gate.run(() => pool.run<R>(name, task), tenant);
      } catch (error) {
        // A process killed or out of memory mid-task: that request may be retried (a new process
        // takes the next task).
        if (error instanceof HeavyProcessNotReady)
          // The operator's to look at (the host, the install): the next task starts another.
          log(`Heavy work: ${error.message} (task ${name}, tenant ${tenant ?? 'none'})`);
        if (error instanceof HeavyProcessEnded) throw workersBusy();
        if (error instanceof HeavyTaskTooLong) {
          stopped += 1;
          // The operator's to look at (the tenant's logo, the batch): the input is not logged.
          log(`Heavy work: ${error.message} (tenant ${tenant ?? 'none'})`);
          throw taskTooLong();
        }
        throw error;
      }
    }
    const load = (): LaneLoad => ({
      running: gate.inFlight,
      waiting: gate.queued,
      refused,
      stopped,
      processes: pool.size,
    });
    return { pool, gate, run, load };
  };
  const lanes: Record<HeavyLane, ReturnType<typeof lane>> = {
    documents: lane('documents'),
    batches: lane('batches'),
  };
  const { run } = lanes.documents;
  const batch = lanes.batches.run;
  const bytes = (data: Uint8Array) => Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return {
    threads,
    get processes() {
      return lanes.documents.pool.size + lanes.batches.pool.size;
    },
    load: () => ({ documents: lanes.documents.load(), batches: lanes.batches.load() }),
    inSlot: (tenant, task) => lanes.batches.gate.run(task, tenant),
    renderInvoicePdf: async (tenant, input) =>
      bytes(await run<Uint8Array>('renderInvoicePdf', input, tenant)),
    renderReceiptPdf: async (tenant, input) =>
      bytes(await run<Uint8Array>('renderReceiptPdf', input, tenant)),
    renderStatementPdf: async (tenant, input) =>
      bytes(await run<Uint8Array>('renderStatementPdf', input, tenant)),
    renderMandatePdf: async (tenant, input) =>
      bytes(await run<Uint8Array>('renderMandatePdf', input, tenant)),
    prepareInvoices: (tenant, body) => batch<PreparedInvoices>('prepareInvoices', body, tenant),
    ingestInvoices: database
      ? (tenantId, body) =>
          batch<IngestOutcome>('ingestInvoiceBatch', { tenantId, body, database }, tenantId)
      : null,
    parseBatch: <N extends BatchCall>(tenant: string, name: N, body: unknown) =>
      batch<Parsed<BatchBody<N>>>('parseBatch', { name, body }, tenant),
    placement: (of = 'documents') => lanes[of].run<ProcessPlace>('placement', null),
    close: async () => {
      await Promise.all([lanes.documents.pool.close(), lanes.batches.pool.close()]);
    },
  };
}
