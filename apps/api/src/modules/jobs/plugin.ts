import type { FastifyInstance } from 'fastify';
import { Gauge } from 'prom-client';
import type { AppContext } from '../../context.ts';
import { openQueue } from '../../db/job-queue.ts';
import { ingestionJobs } from '../ingestion/jobs.ts';
import { paymentJobs } from '../payments/jobs.ts';
import { autoPayJobs } from '../auto-pay/jobs.ts';
import { returnedDebitJobs } from '../returned-debits/jobs.ts';
import { webhookJobs } from '../webhooks/jobs.ts';
import { workPeriodicJobs } from './periodic.ts';
import { countJobsByState } from './repository.ts';

/** How long a shutdown waits for the jobs in flight (server.ts exits 1 after 15 s plus the drain). */
const stopTimeoutMs = 10_000;

/**
 * The one place background work starts (issue 22): the periodic jobs of every module, worked on
 * the pg-boss queue once the app is ready and stopped before it closes. Nothing when every interval
 * is 0 (the API tests run the senders themselves).
 */
export default async function jobs(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const periodic = [
    ...paymentJobs(ctx, app.log),
    ...webhookJobs(ctx, app.log),
    ...ingestionJobs(ctx, app.log),
    ...autoPayJobs(ctx, app.log),
    ...returnedDebitJobs(ctx, app.log),
  ];
  if (periodic.length === 0) return;

  // The queue's schema is installed by the migrations (db/migrate.ts): it is never created here.
  const boss = openQueue(ctx.db, { migrate: false, supervise: true });
  boss.on('error', (error) => app.log.error({ err: error }, 'job queue error'));
  // Started beside the server, not before it: requests are served while the queue starts (its
  // check and queues are a dozen statements), so the jobs never delay readiness.
  let starting: Promise<() => void> | null = null;
  app.addHook('onReady', async () => {
    starting = boss
      .start()
      .then(() => workPeriodicJobs(boss, periodic, { log: app.log, metrics: ctx.metrics }));
    starting.catch((error: unknown) =>
      app.log.error({ err: error }, 'the job queue did not start: no background jobs run'),
    );
  });
  // Before anything closes (the database, Redis): no new job starts, the ones running finish.
  app.addHook('preClose', async () => {
    const stopOffers = await starting?.catch(() => null);
    if (!stopOffers) return;
    stopOffers();
    await boss.stop({ graceful: true, wait: true, timeout: stopTimeoutMs, close: false });
    // The last jobs' `complete` statements too, before the database closes (job-queue.ts).
    await boss.settled();
  });

  new Gauge({
    name: 'portal_jobs',
    help: 'Background jobs on the queue, by queue and state (created, retry, active, failed...)',
    labelNames: ['queue', 'state'],
    registers: [ctx.metrics.registry],
    async collect() {
      const counts = await ctx.metrics.scrapeRead(() => ctx.db.withOwner(countJobsByState));
      if (!counts) return;
      this.reset();
      for (const { queue, state, count } of counts) this.set({ queue, state }, count);
    },
  });
}
