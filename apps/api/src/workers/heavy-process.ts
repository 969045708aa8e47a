import { joinIdleGroup, type GroupMembership, type IdleGroup } from './idle-group.ts';
import { closeIngestDatabase } from './ingest-invoices.ts';
import { idleProcess, processThreads, type ProcessPriority } from './priority.ts';
import type { ProcessReady, TaskAnswer, TaskRequest } from './process-pool.ts';
import * as tasks from './tasks.ts';

/**
 * The heavy-work process (process-pool.ts forks it; `npm run build` makes it `dist/heavy.js`, and
 * `heavy-entry.mjs` runs it from the TypeScript source). First thing, before any task, every
 * thread it has (the main thread, V8's platform threads that collect its garbage, libuv's) goes
 * under SCHED_IDLE and into the idle cgroup the server found (idle-group.ts); threads started later
 * are born so. Then it answers the server's tasks, one at a time, until its channel closes.
 */
export type ProcessPlace = ProcessPriority & {
  pid: number;
  cgroup: GroupMembership;
  threads: number;
};

/** The group the server found, as its one argument (pool.ts). */
const group = JSON.parse(process.argv[2] ?? 'null') as IdleGroup | null;
const priority = idleProcess();
const threads = processThreads();
const place: ProcessPlace = {
  ...priority,
  pid: process.pid,
  cgroup: joinIdleGroup(group ?? { dir: null, reason: 'none given' }, process.pid),
  threads: threads.length,
};

const handlers: Record<string, (input: never) => unknown> = {
  ...tasks,
  /** Where this process stands: its id, policy and group. */
  placement: () => place,
};

process.on('message', (request: TaskRequest) => {
  void (async () => {
    let answer: TaskAnswer;
    try {
      const handler = handlers[request.name];
      if (!handler) throw new Error(`No heavy-work task ${request.name}`);
      answer = { id: request.id, ok: true, result: await handler(request.input as never) };
    } catch (error) {
      const { message, stack } = error instanceof Error ? error : new Error(String(error));
      answer = { id: request.id, ok: false, error: { message, stack } };
    }
    process.send?.(answer);
  })();
});

// Ready: a task's deadline runs from here (process-pool.ts), not from the fork.
process.send?.({ ready: true } satisfies ProcessReady);

// The server closed the channel (idle, shutting down, or gone): end, the connections first.
process.once('disconnect', () => {
  void closeIngestDatabase().finally(() => process.exit(0));
});
