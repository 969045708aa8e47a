import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { openQueue } from '../src/db/job-queue.ts';
import { workPeriodicJobs, type PeriodicJob } from '../src/modules/jobs/periodic.ts';
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
 * docs/operations.md: "each instance offers each job every period and the queue runs it once per
 * period on one of them"; the resilience suite says "the surviving instance takes over the
 * outbox". The periodic queues are `stately` (one job `active` per queue) with `expireInSeconds`
 * 15 minutes (modules/jobs/periodic.ts). When an instance dies (SIGKILL, OOM, host lost) during a
 * run, its job stays `active`, and every other instance's fetch of the next period's job is refused
 * by the stately unique index: the webhook outbox, the refunds, the invitations and the
 * reconciliation stop on EVERY instance until the dead run is expired, 15 minutes later (plus the
 * two-minute maintenance tick). The sweeps lease their rows (FOR UPDATE SKIP LOCKED), so a much
 * shorter expiry of a run is safe by the design's own account (decision 023). Before session 36
 * (ops review); a sweep's run now expires after ten of its periods (at least two minutes).
 */
describe.each(engines())('a run whose instance died ($name)', (engine) => {
  let db: Database;
  const cleanups: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    db = await engine.open();
  });
  afterAll(async () => {
    for (const c of cleanups) await c().catch(() => {});
    await db.close();
  });

  it('does not stop the other instances running the queue five minutes later', async () => {
    const name = 'review-crashed-run';
    // Instance A: its run begins, then the process dies: no statement of it is answered from then
    // on (a statement that failed instead would surface as pg-boss's unhandled rejections later,
    // in whatever test file this worker runs next).
    let dead = false;
    const deadDb: Database = {
      ...db,
      jobQueue: {
        executeSql: async (text, values) => {
          if (dead) return new Promise<never>(() => {});
          return db.jobQueue.executeSql(text, values);
        },
      },
    };
    let begun = false;
    const a = openQueue(deadDb, { migrate: false, supervise: true });
    a.on('error', () => {});
    await a.start();
    const stopA = await workPeriodicJobs(
      a,
      [
        {
          name,
          everySeconds: 1,
          run: () => {
            begun = true;
            return new Promise<void>(() => {}); // never ends: the process died mid-run
          },
        },
      ],
      { log: quiet, metrics: { countJob: () => {} }, retries: { limit: 3, delaySeconds: 1 } },
    );
    await until(() => begun);
    dead = true;
    stopA();
    // A dead process is not stopped: its stop would wait for statements that never return.
    cleanups.push(async () => {
      void a.stop({ graceful: false, close: false }).catch(() => {});
    });

    // Five minutes go by: the dead run started five minutes ago.
    await db.withOwner((sql) =>
      sql.query(
        `UPDATE pgboss.job SET started_on = now() - interval '5 minutes',
                created_on = now() - interval '5 minutes'
          WHERE name = $1 AND state = 'active'`,
        [name],
      ),
    );

    // Instance B, healthy, offers the job every second, and its supervision runs maintenance.
    let runsOnB = 0;
    const job: PeriodicJob = {
      name,
      everySeconds: 1,
      run: async () => {
        runsOnB += 1;
      },
    };
    const b = openQueue(db, { migrate: false, supervise: true });
    b.on('error', () => {});
    await b.start();
    const stopB = await workPeriodicJobs(b, [job], {
      log: quiet,
      metrics: { countJob: () => {} },
      retries: { limit: 3, delaySeconds: 1 },
    });
    cleanups.unshift(async () => {
      stopB();
      await b.stop({ graceful: true, wait: true, timeout: 5000, close: false });
      await b.settled();
    });
    await b.maintain();
    await sleep(6000);
    expect(runsOnB, 'runs of the job on the surviving instance in 6 s').toBeGreaterThan(0);
  });
});
