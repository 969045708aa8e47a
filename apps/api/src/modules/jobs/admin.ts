import type { Database } from '../../db/database.ts';
import { openQueue } from '../../db/job-queue.ts';
import { failedJobQueue, listFailedJobs, type FailedJob } from './repository.ts';

/** At most this many failed jobs are listed (newest first). */
export const failedListLimit = 100;

/** The failed jobs, for `npm run admin -- jobs failed`. */
export function failedJobs(db: Database): Promise<FailedJob[]> {
  return db.withOwner((sql) => listFailedJobs(sql, failedListLimit));
}

/**
 * Puts a failed job back on its queue (`npm run admin -- jobs retry --id <id>`): pg-boss's own retry,
 * so the next worker of any instance runs it. False when no failed job has this id.
 */
export async function retryFailedJob(db: Database, id: string): Promise<boolean> {
  const queue = await db.withOwner((sql) => failedJobQueue(sql, id));
  if (!queue) return false;
  const boss = openQueue(db, { migrate: false, supervise: false });
  await boss.retry(queue, id);
  return true;
}
