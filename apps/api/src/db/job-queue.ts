import { createRequire } from 'node:module';
import PgBoss from 'pg-boss';
import type { Database } from './database.ts';

/**
 * The job queue: pg-boss on the portal's own database (docs/decisions/023-job-queue.md), in the
 * `pgboss` schema, on both engines (PostgreSQL; the embedded PGlite through the same connection
 * the portal uses).
 */
export const jobSchema = 'pgboss';

type QueueOptions = Pick<PgBoss.ConstructorOptions, 'migrate' | 'supervise' | 'schedule'>;

/**
 * A pg-boss whose work can be waited for: `settled()` answers once every statement it has sent has
 * its answer and every job handler it started has returned. pg-boss marks a job done (`complete`)
 * without waiting for it, after the handler returns, so `stop({ wait: true })` can end with that
 * statement still on its way; and a fetch sent just before `stop` can answer with a job after it,
 * whose handler then runs on the database (not through pg-boss's statements) and is marked done or
 * failed after that. Closing the database under either failed it as an unhandled rejection, which
 * ended a server being shut down with a stack trace and exit status 1 instead of 0.
 */
export type Queue = PgBoss & { settled(): Promise<void> };

const plans = createRequire(import.meta.url)('pg-boss/src/plans.js') as {
  completeJobs(schema: string): string;
  failJobsById(schema: string): string;
};
/**
 * The statements pg-boss sends without awaiting them or catching their failure: a job's outcome
 * (`complete`, `fail`) after its handler returns. When the database is gone just then (a restart,
 * a failover), the failure was an unhandled rejection, and Node.js ends the process on one: every
 * instance whose job finished during a database restart died with the requests it was serving
 * (session 37, test/jobs-completion-while-database-down.test.ts). Their failure is now reported as
 * a queue error instead; the job stays `active` and runs again once its run expires, as when its
 * instance dies mid-run (modules/jobs/periodic.ts: each run expires after at most 15 minutes).
 */
const unawaitedStatements = new Set([plans.completeJobs(jobSchema), plans.failJobsById(jobSchema)]);
/** What pg-boss reads from such a statement's answer: no job's outcome was recorded. */
const unrecorded = { rows: [{ count: '0' }] };

/** A pg-boss on `db`'s job-queue connection. Maintenance (supervise) only where jobs are worked. */
export function openQueue(db: Database, options: QueueOptions): Queue {
  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work);
    // Its outcome is pg-boss's to handle; this only forgets it.
    work.then(
      () => inFlight.delete(work),
      () => inFlight.delete(work),
    );
    return work;
  };
  const boss: PgBoss = new PgBoss({
    db: {
      // pg-boss types the values loosely; they are its own, passed through untouched.
      executeSql: (text, values) => {
        const statement = track(db.jobQueue.executeSql(text, values as unknown[]));
        if (!unawaitedStatements.has(text)) return statement;
        // No one awaits this one: its failure is a queue error, never an unhandled rejection.
        return statement.catch((error: unknown) => {
          boss.emit('error', error);
          return unrecorded;
        });
      },
    },
    schema: jobSchema,
    // No cron schedules: periodic jobs are sent by every instance into one slot (periodic.ts).
    schedule: false,
    // A failed job stays where `jobs failed` lists it and `jobs retry` finds it (and the metric
    // counts it) until someone retries it: pg-boss's default archived it after 12 hours, out of
    // sight, and deleted it a week later (session 36).
    archiveFailedAfterSeconds: 10 * 365 * 24 * 3600,
    // Expiry of a run whose instance died is applied by the maintenance: every 30 s, not 2 min.
    maintenanceIntervalSeconds: 30,
    ...options,
  });
  // Every handler given to `work` (its last argument) is tracked while it runs.
  const work = boss.work.bind(boss) as (name: string, ...args: unknown[]) => Promise<string>;
  const tracked = (name: string, ...args: unknown[]): Promise<string> => {
    const handler = args.pop() as (jobs: unknown) => Promise<unknown>;
    return work(name, ...args, (jobs: unknown) => track(handler(jobs)));
  };
  return Object.assign(boss, {
    work: tracked as PgBoss['work'],
    async settled() {
      // An answer can start more work (a fetched job's handler, then its `complete`) a few promise
      // turns later: done only when a turn of the event loop finds nothing in flight.
      for (;;) {
        await Promise.allSettled([...inFlight]);
        await new Promise((resolve) => setImmediate(resolve));
        if (inFlight.size === 0) return;
      }
    },
  });
}

/**
 * Creates or migrates the queue's schema (part of `npm run db:migrate`, db/migrate.ts). pg-boss
 * takes an advisory lock, so instances that start together do not race.
 */
export async function installQueue(db: Database): Promise<void> {
  const boss = openQueue(db, { migrate: true, supervise: false });
  boss.on('error', () => {});
  await boss.start();
  await boss.stop({ graceful: false, wait: true });
}

/** The schema version this release's pg-boss expects (its package's version.json). */
const expectedVersion = (
  createRequire(import.meta.url)('pg-boss/version.json') as { schema: number }
).schema;

/**
 * Whether the queue's schema is missing or behind this release (production refuses to start, and
 * readiness fails, until `npm run db:migrate` installs it).
 */
export async function queueNeedsMigration(db: Database): Promise<boolean> {
  const boss = openQueue(db, { migrate: false, supervise: false });
  if (!(await boss.isInstalled())) return true;
  return Number(await boss.schemaVersion()) !== expectedVersion;
}
