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
 * A pg-boss whose statements can be waited for: `settled()` answers once every statement it has
 * sent has its answer. pg-boss marks a job done (`complete`) without waiting for it, after the
 * job's handler returns, so `stop({ wait: true })` can end with that statement still on its way;
 * closing the database then failed it as an unhandled rejection, which ended a server being shut
 * down with a stack trace and exit status 1 instead of 0.
 */
export type Queue = PgBoss & { settled(): Promise<void> };

/** A pg-boss on `db`'s job-queue connection. Maintenance (supervise) only where jobs are worked. */
export function openQueue(db: Database, options: QueueOptions): Queue {
  const inFlight = new Set<Promise<unknown>>();
  const boss = new PgBoss({
    db: {
      // pg-boss types the values loosely; they are its own, passed through untouched.
      executeSql: (text, values) => {
        const statement = db.jobQueue.executeSql(text, values as unknown[]);
        inFlight.add(statement);
        // Its outcome is pg-boss's to handle; this only forgets it.
        statement.then(
          () => inFlight.delete(statement),
          () => inFlight.delete(statement),
        );
        return statement;
      },
    },
    schema: jobSchema,
    // No cron schedules: periodic jobs are sent by every instance into one slot (periodic.ts).
    schedule: false,
    ...options,
  });
  return Object.assign(boss, {
    async settled() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
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
