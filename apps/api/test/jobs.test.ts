import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { Database } from '../src/db/database.ts';
import { openQueue } from '../src/db/job-queue.ts';
import { pendingMigrations } from '../src/db/migrate.ts';
import { failedJobs } from '../src/modules/jobs/admin.ts';
import { workPeriodicJobs, type PeriodicJob } from '../src/modules/jobs/periodic.ts';
import { adminCommand } from './admin-run.ts';
import { engines, testConfig } from './engines.ts';

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
 * The job queue (issue 22, "Work that survives and runs once"): pg-boss on both engines, the
 * periodic jobs each run once per period however many instances offer them, retried with back-off,
 * failed jobs listed and retried through the admin functions, shutdown waits for a run in flight.
 */
describe.each(engines())('job queue ($name)', (engine) => {
  let db: Database;
  const started: { stop(): Promise<void> }[] = [];

  /** One "instance": its own pg-boss working `jobs` on the shared database. */
  async function instance(
    jobs: PeriodicJob[],
    retries = { limit: 0, delaySeconds: 1 },
    on: Database = db,
  ) {
    const boss = openQueue(on, { migrate: false, supervise: true });
    boss.on('error', () => {});
    await boss.start();
    const counts: Record<string, number> = {};
    const stopOffers = await workPeriodicJobs(boss, jobs, {
      log: quiet,
      metrics: {
        countJob: (job, result) =>
          void (counts[`${job}:${result}`] = (counts[`${job}:${result}`] ?? 0) + 1),
      },
      retries,
    });
    const handle = {
      counts,
      boss,
      async stop() {
        stopOffers();
        await boss.stop({ graceful: true, wait: true, timeout: 5000, close: false });
        await boss.settled();
      },
    };
    started.push(handle);
    return handle;
  }

  beforeAll(async () => {
    db = await engine.open();
  });
  afterAll(async () => {
    for (const s of started) await s.stop().catch(() => {});
    await db.close();
  });

  it('is installed by the migrations: nothing pending', async () => {
    expect(await pendingMigrations(db)).toEqual([]);
  });

  it('runs a periodic job once per period across two instances, never two runs at once', async () => {
    let running = 0;
    let overlapped = false;
    let runs = 0;
    const job = (): PeriodicJob => ({
      name: 'test-once-per-period',
      everySeconds: 1,
      run: async () => {
        running += 1;
        if (running > 1) overlapped = true;
        runs += 1;
        await sleep(100);
        running -= 1;
      },
    });
    const first = Date.now();
    const a = await instance([job()]);
    const b = await instance([job()]);
    await sleep(3500);
    await a.stop();
    await b.stop();
    const periods = Math.ceil((Date.now() - first) / 1000) + 1;
    // Both instances offered the job every second: one run per one-second slot, not two.
    expect(runs).toBeGreaterThanOrEqual(2);
    expect(runs).toBeLessThanOrEqual(periods);
    expect(overlapped).toBe(false);
  });

  it('retries a failing job, leaves it failed, lists it and runs it again on retry', async () => {
    let calls = 0;
    let healthy = false;
    const name = 'test-failing';
    const worker = await instance(
      [
        {
          name,
          everySeconds: 3600,
          run: async () => {
            calls += 1;
            if (!healthy) throw new Error('gateway down');
          },
        },
      ],
      { limit: 1, delaySeconds: 1 },
    );
    // The first run and its one retry fail: the job is left failed, with the error kept.
    await until(async () => (await failedJobs(db)).some((j) => j.queue === name));
    expect(calls).toBe(2);
    expect(worker.counts[`${name}:failed`]).toBe(2);
    const [failed] = (await failedJobs(db)).filter((j) => j.queue === name);
    expect(failed).toMatchObject({ queue: name, retry_count: 1 });
    expect(JSON.stringify(failed?.output)).toContain('gateway down');

    // The operator's view: `npm run admin -- jobs failed`.
    const admin = adminCommand(db);
    const listed = await admin('jobs', 'failed');
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(new RegExp(`${failed?.id}\\s+${name}\\s+\\S+\\s+1\\s+gateway down`));
    const json = JSON.parse((await admin('jobs', 'failed', '--json')).out) as { id: string }[];
    expect(json.map((j) => j.id)).toContain(failed?.id);
    // A wrong id is refused before the database; an id of no failed job fails.
    expect(await admin('jobs', 'retry', '--id', "x' OR 1=1")).toMatchObject({ code: 2 });
    expect(await admin('jobs', 'retry', '--id', randomUUID())).toMatchObject({ code: 1 });
    expect(calls).toBe(2);

    healthy = true;
    expect(await admin('jobs', 'retry', '--id', failed?.id ?? '')).toMatchObject({ code: 0 });
    await until(() => calls === 3);
    await until(async () => !(await failedJobs(db)).some((j) => j.queue === name));
    expect(worker.counts[`${name}:done`]).toBe(1);
    // Done now: no failed job to retry any more.
    expect(await admin('jobs', 'retry', '--id', failed?.id ?? '')).toMatchObject({ code: 1 });
    await worker.stop();
  });

  it("says a retried job has a twin waiting instead of failing on the queue's unique index", async () => {
    const name = 'test-failing-twice';
    const worker = await instance([
      { name, everySeconds: 1, run: () => Promise.reject(new Error('still down')) },
    ]);
    // Two periods, two failed runs of the same sweep (no retries).
    await until(async () => (await failedJobs(db)).filter((j) => j.queue === name).length >= 2);
    await worker.stop();
    const [newer, older] = (await failedJobs(db)).filter((j) => j.queue === name);
    const admin = adminCommand(db);
    // The first goes back on the queue and waits there (no instance works it now)...
    expect(await admin('jobs', 'retry', '--id', newer?.id ?? '')).toMatchObject({ code: 0 });
    // ...so the second has a twin waiting that does the same work: said, not a raw SQL error.
    const twin = await admin('jobs', 'retry', '--id', older?.id ?? '');
    expect(twin.err).not.toMatch(/duplicate key|constraint/);
    expect(twin).toMatchObject({ code: 0 });
    expect(twin.out).toBe(
      `Job ${older?.id} stays failed: a job of ${name} is already waiting to run, which does the same work.`,
    );
  });

  it('waits on shutdown for a run in flight', async () => {
    let finished = false;
    let begun = false;
    const worker = await instance([
      {
        name: 'test-slow',
        everySeconds: 3600,
        run: async () => {
          begun = true;
          await sleep(800);
          finished = true;
        },
      },
    ]);
    await until(() => begun);
    await worker.stop();
    expect(finished).toBe(true);
  });

  it('on shutdown waits for a job fetched as the queue stopped: run, then marked done', async () => {
    // The worker's fetch is held on its way to the database until the queue has stopped: its
    // answer (the job) then comes after `stop`, and the run works on the database after that.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let fetching = false;
    const gated: Database = {
      ...db,
      jobQueue: {
        executeSql: async (text, values) => {
          if (text.includes('SKIP LOCKED') && values?.[0] === 'test-fetched-late') {
            fetching = true;
            await held;
          }
          return db.jobQueue.executeSql(text, values);
        },
      },
    };
    let ran = false;
    const worker = await instance(
      [
        {
          name: 'test-fetched-late',
          everySeconds: 3600,
          run: async () => {
            await sleep(200);
            await db.withOwner((sql) => sql.query('SELECT 1'));
            ran = true;
          },
        },
      ],
      undefined,
      gated,
    );
    const queued = async () =>
      (
        await db.withOwner((sql) =>
          sql.query("SELECT 1 FROM pgboss.job WHERE name = 'test-fetched-late'"),
        )
      ).length === 1;
    await until(async () => fetching && (await queued()));
    await worker.boss.stop({ graceful: true, wait: true, timeout: 5000, close: false });
    release();
    await worker.boss.settled();
    expect(ran, 'the fetched job ran before settled() answered').toBe(true);
    const [row] = await db.withOwner((sql) =>
      sql.query<{ state: string }>("SELECT state FROM pgboss.job WHERE name = 'test-fetched-late'"),
    );
    expect(row?.state).toBe('completed');
  });

  // A second connection holds the job's row: PostgreSQL only (the embedded database has one).
  it.skipIf(engine.name === 'pglite')(
    "on shutdown waits for the last run's job to be marked done, not only for the run to end",
    async () => {
      let begun = false;
      let endRun = () => {};
      const worker = await instance([
        {
          name: 'test-marked',
          everySeconds: 3600,
          run: () => {
            begun = true;
            return new Promise<void>((resolve) => (endRun = resolve));
          },
        },
      ]);
      await until(() => begun);
      // The job's row is locked elsewhere: pg-boss's `complete` of it waits for that lock.
      let unlock = () => {};
      let locked = () => {};
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const holder = db.withOwner(async (sql) => {
        await sql.query(
          "SELECT id FROM pgboss.job WHERE name = 'test-marked' AND state = 'active' FOR UPDATE",
        );
        locked();
        await new Promise<void>((resolve) => (unlock = resolve));
      });
      await isLocked;
      endRun();
      // The run is over: pg-boss's stop ends though its `complete` is still waiting.
      await worker.boss.stop({ graceful: true, wait: true, timeout: 5000, close: false });
      let settled = false;
      const settling = worker.boss.settled().then(() => (settled = true));
      await sleep(300);
      expect(settled, 'settled() waits for the complete statement').toBe(false);
      unlock();
      await holder;
      await settling;
      const [row] = await db.withOwner((sql) =>
        sql.query<{ state: string }>("SELECT state FROM pgboss.job WHERE name = 'test-marked'"),
      );
      expect(row?.state).toBe('completed');
    },
  );

  it('the app starts the jobs only when an interval is set, and counts them in /metrics', async () => {
    const token = 'metrics-token-for-the-jobs-test-0123456789';
    const app = await buildApp({
      config: testConfig({ METRICS_TOKEN: token, OUTBOX_INTERVAL_SECONDS: '1' }),
      db,
      rootSecret: randomBytes(32),
    });
    try {
      await app.ready();
      const metrics = async () =>
        (await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${token}` } })).body;
      const completed = (queue: string) =>
        new RegExp(`portal_jobs\\{queue="${queue}",state="completed"\\} [1-9]`);
      const queues = [
        'webhook-dispatch',
        'refund-outbox',
        'invitation-outbox',
        'returned-debit-mail',
      ];
      // Each queue's first run, whichever order the queue takes them in on a busy machine.
      await until(async () => {
        const text = await metrics();
        return (
          /portal_jobs_total\{job="webhook-dispatch",result="done"\} [1-9]/.test(text) &&
          queues.every((queue) => completed(queue).test(text))
        );
      });
      const text = await metrics();
      for (const queue of queues) expect(text).toMatch(completed(queue));
      // The reconciliation is off in the tests' config (interval 0): no queue of its own.
      expect(text).not.toContain('queue="reconciliation"');
    } finally {
      await app.close();
    }
  });
});
