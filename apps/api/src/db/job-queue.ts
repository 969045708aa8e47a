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

/** A pg-boss on `db`'s job-queue connection. Maintenance (supervise) only where jobs are worked. */
export function openQueue(db: Database, options: QueueOptions): PgBoss {
  return new PgBoss({
    db: {
      // pg-boss types the values loosely; they are its own, passed through untouched.
      executeSql: (text, values) => db.jobQueue.executeSql(text, values as unknown[]),
    },
    schema: jobSchema,
    // No cron schedules: periodic jobs are sent by every instance into one slot (periodic.ts).
    schedule: false,
    ...options,
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
