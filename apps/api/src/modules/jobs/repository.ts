import type { SqlQuery } from '../../db/database.ts';
import { jobSchema } from '../../db/job-queue.ts';

/**
 * Reads of the job queue's table (pg-boss owns and writes it; these only read, as the owner). The
 * schema name is a constant of ours, never input.
 */
const jobTable = `${jobSchema}.job`;

export type JobStateCount = { queue: string; state: string; count: number };

/** How many jobs each queue holds in each state (the `portal_jobs` gauge). */
export function countJobsByState(sql: SqlQuery): Promise<JobStateCount[]> {
  return sql.query<JobStateCount>(
    `SELECT name AS queue, state::text AS state, count(*)::int AS count
       FROM ${jobTable} GROUP BY name, state ORDER BY name, state`,
  );
}

export type FailedJob = {
  id: string;
  queue: string;
  retry_count: number;
  created_on: Date;
  completed_on: Date | null;
  output: unknown;
};

/** The jobs that failed after their retries, newest first (admin CLI `jobs failed`). */
export function listFailedJobs(sql: SqlQuery, limit: number): Promise<FailedJob[]> {
  return sql.query<FailedJob>(
    `SELECT id::text AS id, name AS queue, retry_count, created_on, completed_on, output
       FROM ${jobTable} WHERE state = 'failed' ORDER BY completed_on DESC NULLS LAST LIMIT $1`,
    [limit],
  );
}

/** The queue of a failed job, or null when no failed job has this id (`jobs retry`). */
export async function failedJobQueue(sql: SqlQuery, id: string): Promise<string | null> {
  const [row] = await sql.query<{ queue: string }>(
    `SELECT name AS queue FROM ${jobTable} WHERE id = $1::uuid AND state = 'failed'`,
    [id],
  );
  return row?.queue ?? null;
}
