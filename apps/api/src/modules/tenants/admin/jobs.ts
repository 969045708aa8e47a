import { failedJobs, retryFailedJob } from '../../jobs/admin.ts';
import {
  adminExit,
  AdminFailure,
  boolean,
  iso,
  problemsOf,
  string,
  table,
  type AdminRunner,
  type CommandSpec,
} from './common.ts';
import { parseOption, ZUuid } from './input.ts';

/** `jobs failed|retry`: the background jobs that gave up after their retries (decision 023). */

export const jobCommands: Record<string, CommandSpec> = {
  'jobs failed': {
    synopsis:
      'jobs failed [--json]\n' +
      '      Lists the background jobs that failed after their retries, newest first, with the error.',
    options: { json: boolean },
    required: [],
    prepare: async (values) => listFailedJobs(values.json === true),
  },
  'jobs retry': {
    synopsis:
      'jobs retry --id <job id>\n' +
      '      Runs a failed background job again (on whichever instance fetches it first).',
    options: { id: string },
    required: ['id'],
    prepare: async (values) => {
      const id = parseOption('id', ZUuid, values.id);
      if (!id.ok) return problemsOf(id);
      return retryJob(id.value);
    },
  },
};

/** The error a failed job kept (pg-boss stores the thrown error's fields as its output). */
function errorOf(output: unknown): string {
  const message = (output as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : JSON.stringify(output ?? null);
}

function listFailedJobs(json: boolean): AdminRunner {
  return async ({ db, out, err }) => {
    const rows = await failedJobs(db);
    if (json) {
      out(
        JSON.stringify(
          rows.map((r) => ({
            id: r.id,
            queue: r.queue,
            retries: r.retry_count,
            created_at: iso(r.created_on),
            failed_at: iso(r.completed_on),
            error: errorOf(r.output),
          })),
          null,
          2,
        ),
      );
      return adminExit.ok;
    }
    if (rows.length === 0) {
      err('No failed background job.');
      return adminExit.ok;
    }
    for (const line of table(
      ['ID', 'JOB', 'FAILED', 'RETRIES', 'ERROR'],
      rows.map((r) => [
        r.id,
        r.queue,
        iso(r.completed_on) ?? '-',
        String(r.retry_count),
        errorOf(r.output).slice(0, 200),
      ]),
    )) {
      out(line);
    }
    err('Fix the cause, then `jobs retry --id <id>` runs one again.');
    return adminExit.ok;
  };
}

function retryJob(id: string): AdminRunner {
  return async ({ db, out }) => {
    const retried = await retryFailedJob(db, id);
    if (retried.outcome === 'no failed job') throw new AdminFailure(`No failed job ${id}.`);
    out(
      retried.outcome === 'queued'
        ? `Job ${id} is queued again.`
        : `Job ${id} stays failed: a job of ${retried.queue} is already waiting to run, which does the same work.`,
    );
    return adminExit.ok;
  };
}
