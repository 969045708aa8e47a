import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type { Metrics } from '../ops/metrics.ts';

/** Queues a job on one of a sweep's worker queues; a job with a waiting or running twin is dropped. */
export type JobSender = {
  send: (queue: string, data: object, singletonKey: string) => Promise<void>;
};

/** A queue of single jobs a sweep sends (auto-pay: one charge per job). */
export type QueueWorker = { name: string; work: (data: unknown) => Promise<void> };

/** A sweep the portal runs every `everySeconds` (an outbox, the reconciliation). */
export type PeriodicJob = {
  /** The queue's name, and the `job` label of its metrics. */
  name: string;
  everySeconds: number;
  /** `queue` sends jobs to the sweep's `workers` (absent where no queue runs). */
  run: (queue?: JobSender) => Promise<unknown>;
  /**
   * Queues whose jobs the sweep sends, worked on every instance. Their queues keep one job
   * waiting and one running per singleton key ('stately'); the jobs must be idempotent anyway.
   */
  workers?: QueueWorker[];
};

/** Failed runs are retried this many times, with exponential back-off, before they stay failed. */
export const retryLimit = 3;
/** A run that takes longer is taken as lost (its process died) and retried. */
const expireInSeconds = 15 * 60;
/**
 * The same for a periodic sweep: ten of its periods, at least two minutes, at most fifteen. A run
 * whose instance died stays `active`, and with one running at a time ('stately') no instance runs
 * the queue until it expires: before session 36 that was 15 minutes for every sweep (a webhook
 * outbox of every 5 s stopped everywhere that long). A run expired while still alive overlaps
 * the next one, which the sweeps' leases (`FOR UPDATE SKIP LOCKED`) make safe.
 */
export const sweepExpirySeconds = (period: number): number =>
  Math.min(expireInSeconds, Math.max(120, 10 * period));

/**
 * Works the periodic jobs on the queue. Every instance offers each job once per period: pg-boss keeps
 * one job per period and queue (`singletonSeconds`) and one waiting and one running at a time
 * (`stately`), so however many instances run, each period's sweep runs once, on whichever instance
 * fetches it first. A run that throws is retried with back-off, then left `failed`, where the
 * admin CLI lists it and can retry it (`npm run admin -- jobs failed`).
 *
 * The sweeps themselves lease their rows (`FOR UPDATE SKIP LOCKED`), so a run that overlaps a late
 * one of another instance (an expired lease) shares the work instead of repeating it.
 */
export async function workPeriodicJobs(
  boss: PgBoss,
  jobs: readonly PeriodicJob[],
  deps: {
    log: Pick<FastifyBaseLogger, 'error' | 'warn'>;
    metrics: Pick<Metrics, 'countJob'>;
    /** Tests shorten the retries; the server keeps the defaults. */
    retries?: { limit: number; delaySeconds: number };
  },
): Promise<() => void> {
  const timers: NodeJS.Timeout[] = [];
  const sender: JobSender = {
    send: async (queue, data, singletonKey) => {
      await boss.send(queue, data, { singletonKey });
    },
  };
  for (const worker of jobs.flatMap((job) => job.workers ?? [])) {
    await boss.createQueue(worker.name, {
      name: worker.name,
      policy: 'stately',
      retryLimit: deps.retries?.limit ?? retryLimit,
      retryDelay: deps.retries?.delaySeconds ?? 30,
      retryBackoff: true,
      expireInSeconds,
    });
    await boss.work(worker.name, { pollingIntervalSeconds: 2 }, async ([single]) => {
      if (!single) return;
      try {
        await worker.work(single.data);
        deps.metrics.countJob(worker.name, 'done');
      } catch (error) {
        deps.metrics.countJob(worker.name, 'failed');
        deps.log.error({ err: error, job: worker.name }, 'background job failed');
        throw error;
      }
    });
  }
  for (const job of jobs) {
    const period = Math.max(1, Math.ceil(job.everySeconds));
    await boss.createQueue(job.name, {
      name: job.name,
      policy: 'stately',
      retryLimit: deps.retries?.limit ?? retryLimit,
      retryDelay: deps.retries?.delaySeconds ?? period,
      retryBackoff: true,
      expireInSeconds: sweepExpirySeconds(period),
    });
    const workerId = await boss.work(
      job.name,
      // A job offered by this instance is fetched at once (notifyWorker); the polling picks up the
      // retries and the jobs other instances offered.
      { pollingIntervalSeconds: Math.min(Math.max(job.everySeconds, 0.5), 2) },
      async () => {
        try {
          await job.run(sender);
          deps.metrics.countJob(job.name, 'done');
        } catch (error) {
          deps.metrics.countJob(job.name, 'failed');
          deps.log.error({ err: error, job: job.name }, 'background job failed');
          throw error;
        }
      },
    );
    const offer = () =>
      boss
        .send(job.name, {}, { singletonSeconds: period })
        .then((id) => {
          if (id) boss.notifyWorker(workerId);
        })
        .catch((error: unknown) => deps.log.warn({ err: error, job: job.name }, 'job not queued'));
    void offer();
    const timer = setInterval(offer, job.everySeconds * 1000);
    timer.unref();
    timers.push(timer);
  }
  return () => timers.forEach(clearInterval);
}
