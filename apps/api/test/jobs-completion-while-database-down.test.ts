import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { openQueue } from '../src/db/job-queue.ts';
import { workPeriodicJobs } from '../src/modules/jobs/periodic.ts';
import { engines } from './engines.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quiet = { error: () => {}, warn: () => {} };

async function until(done: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error('timed out');
    await sleep(20);
  }
}

/**
 * pg-boss marks a job done or failed (`complete`, `fail`) after its handler returns without
 * awaiting the statement or catching its failure. When the database went away just then (a
 * restart, a failover), that statement's failure was an unhandled rejection, and Node.js ends the
 * process on one: every instance whose background job finished during a database restart died,
 * with the requests it was serving. CI saw it as the API vanishing mid-restart in the fault test
 * (resilience/faults.resilience.ts, session 37). The queue now reports such a failure as a queue
 * error (logged); the job stays `active` and runs again once its run expires, as when an instance
 * dies mid-run.
 */
describe.each(engines())('a job that ends while the database is down ($name)', (engine) => {
  let db: Database;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  beforeAll(async () => {
    db = await engine.open();
    process.on('unhandledRejection', onUnhandled);
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await db.close();
  });

  it.each([
    ['succeeds', 'complete'],
    ['fails', 'fail'],
  ])('neither ends the process nor loses the error: a run that %s (%s)', async (_, outcome) => {
    let down = false;
    const flaky: Database = {
      ...db,
      jobQueue: {
        executeSql: async (text, values) => {
          if (down) throw new Error('Connection terminated unexpectedly');
          return db.jobQueue.executeSql(text, values);
        },
      },
    };
    const queue = openQueue(flaky, { migrate: false, supervise: false });
    const errors: Error[] = [];
    queue.on('error', (error) => errors.push(error));
    await queue.start();
    let ran = false;
    const stop = await workPeriodicJobs(
      queue,
      [
        {
          name: `review-${outcome}-while-down`,
          everySeconds: 60,
          // The database goes away while the job runs: recording its outcome fails.
          run: async () => {
            down = true;
            ran = true;
            if (outcome === 'fail') throw new Error('the sweep lost its connection');
          },
        },
      ],
      { log: quiet, metrics: { countJob: () => {} } },
    );
    try {
      await until(() => ran);
      await sleep(300);
      down = false;
      await sleep(200);

      expect(unhandled.map(String)).toEqual([]);
      expect(errors.map((e) => e.message)).toContain('Connection terminated unexpectedly');
    } finally {
      down = false;
      stop();
      await queue.stop({ graceful: true, wait: true, timeout: 5000, close: false });
      await queue.settled();
    }
  });
});
