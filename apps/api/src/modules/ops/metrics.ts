import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Database } from '../../db/database.ts';
import type { HeavyLane, LaneLoad } from '../../workers/pool.ts';
import { readBacklog, type Backlog } from './repository.ts';

/**
 * The portal's Prometheus metrics (prom-client), one registry per app: requests, the event loop and
 * the process (prom-client's defaults), the database pool, payments and Redsys notifications by
 * outcome, and the backlogs (open attempts past reconciliation, outboxes). docs/operations.md says
 * how to read them and what to alert on.
 */
export type Metrics = {
  registry: Registry;
  /** A request answered: its route template (never the path: no ids, no tokens) and status. */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** A Redsys notification handled, by the service's outcome. */
  countNotification(outcome: string): void;
  /** A payment attempt settled, by outcome, and by what settled it. */
  countPayment(outcome: string, source: 'notification' | 'reconciler' | 'auto-pay'): void;
  /** A background job's run, by job and result. */
  countJob(job: string, result: 'done' | 'failed'): void;
  /**
   * A database read made while scraping: undefined when it fails or takes over a second (counted
   * in `portal_metrics_reads_failed_total`), so a database that is down or a pool that is full
   * leaves its gauges at their last values instead of failing the whole scrape, the pool's and
   * the event loop's metrics with it.
   */
  scrapeRead<T>(read: () => Promise<T>): Promise<T | undefined>;
};

/** How long a scrape waits for one of its database reads. */
const scrapeReadMs = 1000;

const backlogGauges: [keyof Backlog, string, string][] = [
  [
    'staleAttempts',
    'portal_payment_attempts_stale',
    'Card payments still open past reconciliation',
  ],
  ['webhooksPending', 'portal_webhook_events_pending', 'Webhook events waiting to be delivered'],
  ['webhooksFailed', 'portal_webhook_events_failed', 'Webhook events given up after retries'],
  ['refundsPending', 'portal_refunds_pending', 'Refunds waiting to be sent to the gateway'],
  ['refundsReview', 'portal_refunds_review', 'Refunds listed for the operator'],
  ['invitationsPending', 'portal_invitations_pending', 'Invitation e-mails waiting to be sent'],
  ['invitationsFailed', 'portal_invitations_failed', 'Invitation e-mails given up after retries'],
];

export function createMetrics(
  db: Database,
  {
    staleAfterMinutes,
    exposed,
    revocationListenerUp = () => false,
    heavyWork,
  }: {
    staleAfterMinutes: number;
    exposed: boolean;
    /** Whether this instance hears the ended sessions (auth/revocation-cache.ts). */
    revocationListenerUp?: () => boolean;
    /** The heavy work's lanes now (workers/pool.ts). */
    heavyWork?: () => Record<HeavyLane, LaneLoad>;
  },
): Metrics {
  const registry = new Registry();
  // The process's own metrics (event-loop lag, heap, GC, handles) watch the process from the
  // moment they start: only when something will read them (METRICS_TOKEN set).
  if (exposed) collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
  const duration = new Histogram({
    name: 'portal_http_request_duration_seconds',
    help: 'Time to answer a request, by route template and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const notifications = new Counter({
    name: 'portal_redsys_notifications_total',
    help: 'Redsys notifications received, by outcome (bad_signature and not_configured are refused)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const payments = new Counter({
    name: 'portal_payments_total',
    help: 'Card payment attempts handled, by outcome and by what handled them (notification or reconciler)',
    labelNames: ['outcome', 'source'],
    registers: [registry],
  });
  const jobs = new Counter({
    name: 'portal_jobs_total',
    help: 'Background job runs, by job and result',
    labelNames: ['job', 'result'],
    registers: [registry],
  });
  new Gauge({
    name: 'portal_db_pool_connections',
    help: 'Database pool connections: size (the maximum), total open, idle, and requests waiting',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const s = db.poolStats();
      this.set({ state: 'size' }, s.size);
      this.set({ state: 'total' }, s.total);
      this.set({ state: 'idle' }, s.idle);
      this.set({ state: 'waiting' }, s.waiting);
    },
  });
  new Gauge({
    name: 'portal_revocation_listener_up',
    help: 'Whether this instance hears the database announce ended sessions (1); while 0, every bearer call asks the database',
    registers: [registry],
    collect() {
      this.set(revocationListenerUp() ? 1 : 0);
    },
  });
  if (heavyWork) {
    const lanes = () => Object.entries(heavyWork()) as [HeavyLane, LaneLoad][];
    new Gauge({
      name: 'portal_heavy_work_tasks',
      help: 'Heavy-work tasks (PDFs, ingestion batches) by lane (documents, batches) and state: running, or waiting for a slot',
      labelNames: ['lane', 'state'],
      registers: [registry],
      collect() {
        for (const [lane, load] of lanes()) {
          this.set({ lane, state: 'running' }, load.running);
          this.set({ lane, state: 'waiting' }, load.waiting);
        }
      },
    });
    new Gauge({
      name: 'portal_heavy_work_processes',
      help: 'Heavy-work processes alive, by lane (started on first use, ended after a minute idle)',
      labelNames: ['lane'],
      registers: [registry],
      collect() {
        for (const [lane, load] of lanes()) this.set({ lane }, load.processes);
      },
    });
    new Counter({
      name: 'portal_heavy_work_refused_total',
      help: 'Heavy-work tasks refused with a 503 because their lane and its line were full, by lane',
      labelNames: ['lane'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [lane, load] of lanes()) this.inc({ lane }, load.refused);
      },
    });
    new Counter({
      name: 'portal_heavy_work_stopped_total',
      help: "Heavy-work tasks stopped at their lane's deadline (the process killed, a 503 answered), by lane",
      labelNames: ['lane'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [lane, load] of lanes()) this.inc({ lane }, load.stopped);
      },
    });
  }
  // One statement for every backlog gauge, read once per scrape.
  let backlog: Promise<Backlog | undefined> | null = null;
  const readsFailed = new Counter({
    name: 'portal_metrics_reads_failed_total',
    help: 'Database reads of a scrape that failed or took over a second: the backlog and job gauges kept their last values',
    registers: [registry],
    // Counted with this scrape's own backlog read (prom-client collects the metrics together).
    async collect() {
      await backlog;
    },
  });
  const scrapeRead = async <T>(read: () => Promise<T>): Promise<T | undefined> => {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        read(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('timed out')), scrapeReadMs);
        }),
      ]);
    } catch {
      readsFailed.inc();
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  };
  const readOnce = () => {
    backlog ??= scrapeRead(() =>
      db.withOwner((sql) => readBacklog(sql, staleAfterMinutes)),
    ).finally(() => setTimeout(() => (backlog = null), 1000).unref());
    return backlog;
  };
  for (const [key, name, help] of backlogGauges) {
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const read = await readOnce();
        if (read) this.set(read[key]);
      },
    });
  }
  return {
    registry,
    observeRequest: (method, route, status, seconds) =>
      duration.observe({ method, route, status: String(status) }, seconds),
    countNotification: (outcome) => notifications.inc({ outcome }),
    countPayment: (outcome, source) => payments.inc({ outcome, source }),
    countJob: (job, result) => jobs.inc({ job, result }),
    scrapeRead,
  };
}
