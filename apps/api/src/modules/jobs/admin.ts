import type { Database } from '../../db/database.ts';
import { openQueue } from '../../db/job-queue.ts';
import { failedJobQueue, listFailedJobs, type FailedJob } from './repository.ts';

/** At most this many failed jobs are listed (newest first). */
export const failedListLimit = 100;

/** The failed jobs, for `npm run admin -- jobs failed`. */
export function failedJobs(db: Database): Promise<FailedJob[]> {
  return db.withOwner((sql) => listFailedJobs(sql, failedListLimit));
}

/** What `jobs retry` made of a failed job. */
export type RetryOutcome =
  { outcome: 'queued' } | { outcome: 'twin waiting'; queue: string } | { outcome: 'no failed job' };

/** PostgreSQL's unique violation: the queue's one-waiting-job index ('stately'). */
const uniqueViolation = '23505';

/**
 * Puts a failed job back on its queue (`npm run admin -- jobs retry --id <id>`): pg-boss's own retry,
 * so the next worker of any instance runs it. A queue keeps one job waiting per key ('stately',
 * jobs/periodic.ts): with a twin already waiting, which does the same work, the failed one stays as
 * it is and the answer says so (before session 40 the queue's unique index answered a raw error).
 */
export async function retryFailedJob(db: Database, id: string): Promise<RetryOutcome> {
  const queue = await db.withOwner((sql) => failedJobQueue(sql, id));
  if (!queue) return { outcome: 'no failed job' };
  const boss = openQueue(db, { migrate: false, supervise: false });
  try {
    await boss.retry(queue, id);
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === uniqueViolation)
      return { outcome: 'twin waiting', queue };
    throw error;
  }
  return { outcome: 'queued' };
}
