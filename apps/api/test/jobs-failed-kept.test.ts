import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { openQueue } from '../src/db/job-queue.ts';
import { failedJobs } from '../src/modules/jobs/admin.ts';
import { workPeriodicJobs } from '../src/modules/jobs/periodic.ts';
import { adminCommand } from './admin-run.ts';
import { engines } from './engines.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quiet = { error: () => {}, warn: () => {} };

async function until(done: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > end) throw new Error('timed out');
    await sleep(50);
  }
}

/**
 * docs/admin-cli.md "Background jobs" and docs/operations.md: a run that keeps failing is "kept as
 * failed, with its error", listed by `jobs failed`, put back by `jobs retry --id`, and alerted on
 * through `portal_jobs{state="failed"} > 0`. The server's queue is opened with `supervise: true`
 * (modules/jobs/plugin.ts), whose maintenance, every two minutes, archives failed jobs 12 hours
 * after they failed (pg-boss's default `archiveFailedAfterSeconds`) into `pgboss.archive`, which
 * neither `jobs failed`, `jobs retry` nor the gauge read: a job that failed on Friday evening is
 * gone from the operator's view on Saturday morning, and cannot be retried. So it was until
 * session 36 (ops review); failed jobs are now never archived.
 */
describe.each(engines())('a failed background job ($name)', (engine) => {
  let db: Database;
  beforeAll(async () => {
    db = await engine.open();
  });
  afterAll(async () => {
    await db.close();
  });

  it('is still listed and retryable a day later, after the server queue has run its maintenance', async () => {
    // The queue as the server opens it (modules/jobs/plugin.ts).
    const boss = openQueue(db, { migrate: false, supervise: true });
    boss.on('error', () => {});
    await boss.start();
    const name = 'review-failed-kept';
    const stopOffers = await workPeriodicJobs(
      boss,
      [
        {
          name,
          everySeconds: 3600,
          run: async () => {
            throw new Error('gateway down');
          },
        },
      ],
      { log: quiet, metrics: { countJob: () => {} }, retries: { limit: 0, delaySeconds: 1 } },
    );
    try {
      await until(async () => (await failedJobs(db)).some((j) => j.queue === name));
      const [failed] = (await failedJobs(db)).filter((j) => j.queue === name);
      const id = failed?.id ?? '';

      // A day goes by: the job failed 24 hours ago, and the server's supervision runs its
      // maintenance (every two minutes on some instance).
      await db.withOwner((sql) =>
        sql.query(
          `UPDATE pgboss.job SET completed_on = now() - interval '24 hours',
                  created_on = now() - interval '24 hours', started_on = now() - interval '24 hours'
            WHERE id = $1::uuid`,
          [id],
        ),
      );
      await boss.maintain();

      // The operator's view, as the docs promise: the failed run with its error, retryable.
      expect(
        (await failedJobs(db)).map((j) => j.id),
        'jobs failed lists it',
      ).toContain(id);
      const admin = adminCommand(db);
      const listed = await admin('jobs', 'failed');
      expect(listed.out).toContain(id);
      expect(await admin('jobs', 'retry', '--id', id)).toMatchObject({ code: 0 });
    } finally {
      stopOffers();
      await boss.stop({ graceful: true, wait: true, timeout: 5000, close: false });
      await boss.settled();
    }
  });
});
