import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * A few Node.js processes that each run one task at a time, started on first use and ended after
 * `idleMs` without a task. The heavy-work pool (pool.ts) runs its tasks here rather than on worker
 * threads: a process's threads, V8's garbage-collector helpers included, can all be put at the
 * back of the machine's queue (heavy-process.ts), while a worker thread's collections ran on the
 * helpers the event loop shares, at normal priority (decision 041).
 *
 * Messages go both ways through Node's IPC channel with `serialization: 'advanced'` (the
 * structured clone: Uint8Array, Map and Date cross as themselves). Callers admit at most `size`
 * tasks at once (pool.ts's gate); a task sent while every process is busy waits for the first free.
 *
 * Hand-written rather than a library: the npm process pools (workerpool, tinypool's child
 * processes) would start every process with our priority unset and the platform threads already
 * running, and what this needs beside Node's own `fork` is these hundred lines.
 */
export type ProcessPool = {
  run<R>(name: string, input: unknown): Promise<R>;
  /** Processes alive now (each holds its own heap; none when idle). */
  readonly size: number;
  /** Lets the running tasks finish, then ends every process. */
  close(): Promise<void>;
};

/**
 * A task that ran past the pool's deadline: its process was killed (a task cannot be stopped
 * otherwise: a PDF's drawing never yields) and the next task gets a new one.
 */
export class HeavyTaskTooLong extends Error {
  constructor(
    readonly task: string,
    readonly deadlineMs: number,
  ) {
    super(`The heavy-work task ${task} ran past ${deadlineMs} ms; its process was ended`);
  }
}

/** A task whose process ended before it answered (killed, out of memory, a crash). */
export class HeavyProcessEnded extends Error {
  constructor(how: string) {
    super(`The heavy-work process ended (${how}) before it answered`);
  }
}

/** A new process that did not say it was ready within the pool's `startMs`: it was killed. */
export class HeavyProcessNotReady extends HeavyProcessEnded {
  constructor(readonly startMs: number) {
    super(`not ready within ${startMs} ms of its start; it was killed`);
  }
}

export type TaskRequest = { id: number; name: string; input: unknown };
/** What a process says once, when it is ready for tasks (its modules loaded). */
export type ProcessReady = { ready: true };
export type TaskAnswer =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: { message: string; stack?: string | undefined } };

/**
 * The CPU time (user and system, in ms) process `pid` has spent so far, from `/proc/<pid>/stat`
 * (fields 14 and 15, in clock ticks of 10 ms on Linux); null where it cannot be read.
 */
export function cpuMsOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count after its end.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * 10 : null;
  } catch {
    return null;
  }
}

type Waiter = { resolve: (value: unknown) => void; reject: (error: Error) => void };
type Member = {
  child: ChildProcess;
  task: Waiter | null;
  id: number;
  /** The task's name, for its deadline's error. */
  name: string;
  /** The process said it is ready: a task's deadline runs from then, not from the fork. */
  ready: boolean;
  idle?: NodeJS.Timeout;
  deadline?: NodeJS.Timeout;
  /** Until the process says it is ready (`startMs`). */
  starting?: NodeJS.Timeout;
};

export function createProcessPool({
  size,
  entry,
  args = [],
  idleMs = 60_000,
  stopMs = 10_000,
  startMs = 60_000,
  deadlineMs,
}: {
  size: number;
  /** The child's module (a file URL or path). */
  entry: string | URL;
  args?: string[];
  idleMs?: number;
  /** How long `close` waits for a process to end by itself before it is killed. */
  stopMs?: number;
  /**
   * How long a new process may take to say it is ready, in wall time: a task's deadline only runs
   * from then, so a process that hangs while it loads (a module that never resolves, a stuck
   * filesystem) would otherwise hold its task, and a place of the pool, for good. Past it, the
   * process is killed and its task refused with `HeavyProcessEnded`; the next task gets a new one.
   * Generous (a minute): the processes start at the back of the machine's queue.
   */
  startMs?: number;
  /**
   * How long one task may run: past it, its process is killed and the task rejected with
   * `HeavyTaskTooLong`, so that no input (an SVG logo of nested copies, a batch that never ends)
   * holds a place of the pool for good. None: no deadline.
   */
  deadlineMs?: number | undefined;
}): ProcessPool {
  const members = new Set<Member>();
  const free: Member[] = [];
  const queue: (() => void)[] = [];
  let running = 0;
  let drained: (() => void) | null = null;
  let nextId = 1;
  let closing = false;

  function start(): Member {
    const child = fork(entry, args, {
      // Not the parent's own flags (a profiler, a loader): the child's entry brings what it needs.
      execArgv: [],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const member: Member = { child, task: null, id: 0, name: '', ready: false };
    member.starting = setTimeout(() => {
      ended(new HeavyProcessNotReady(startMs));
      child.kill('SIGKILL');
    }, startMs);
    member.starting.unref();
    child.on('message', (answer: TaskAnswer | ProcessReady) => {
      if ('ready' in answer) {
        member.ready = true;
        clearTimeout(member.starting);
        if (member.task) armDeadline(member);
        return;
      }
      const task = member.task;
      if (!task || answer.id !== member.id) return;
      member.task = null;
      clearTimeout(member.deadline);
      if (answer.ok) task.resolve(answer.result);
      else
        task.reject(Object.assign(new Error(answer.error.message), { stack: answer.error.stack }));
      done(member);
    });
    const ended = (cause: string | HeavyProcessEnded) => {
      if (!members.delete(member)) return;
      clearTimeout(member.idle);
      clearTimeout(member.deadline);
      clearTimeout(member.starting);
      const index = free.indexOf(member);
      if (index >= 0) free.splice(index, 1);
      const task = member.task;
      member.task = null;
      if (task) {
        task.reject(typeof cause === 'string' ? new HeavyProcessEnded(cause) : cause);
        finish();
      }
    };
    child.on('exit', (code, signal) => ended(signal ?? `exit code ${String(code)}`));
    child.on('error', (error) => {
      ended(error.message);
      child.kill('SIGKILL');
    });
    members.add(member);
    return member;
  }

  /**
   * Starts the running task's deadline, counted in the CPU time its process spends on it where
   * Linux tells it (`/proc/<pid>/stat`), else in wall time: the heavy processes run at the back of
   * the machine's queue (SCHED_IDLE, the idle cgroup), so on a saturated host a PDF may wait long
   * for a core without doing anything wrong; only a task that keeps computing (an SVG logo of
   * nested copies) spends its deadline. Past it, the process is killed and the task refused.
   */
  function armDeadline(member: Member) {
    if (deadlineMs === undefined) return;
    const pid = member.child.pid;
    const startedCpu = pid === undefined ? null : cpuMsOf(pid);
    const check = (waitMs: number) => {
      member.deadline = setTimeout(() => {
        const task = member.task;
        if (!task) return;
        const cpu = pid === undefined || startedCpu === null ? null : cpuMsOf(pid);
        const spent = cpu === null || startedCpu === null ? deadlineMs : cpu - startedCpu;
        // Not yet: look again once what is left of the budget could have been spent.
        if (spent < deadlineMs) return check(Math.max(deadlineMs - spent, 250));
        if (!members.delete(member)) return;
        member.task = null;
        task.reject(new HeavyTaskTooLong(member.name, deadlineMs));
        member.child.kill('SIGKILL');
        finish();
      }, waitMs);
    };
    check(deadlineMs);
  }

  function finish() {
    running -= 1;
    queue.shift()?.();
    if (running === 0 && drained) drained();
  }

  function done(member: Member) {
    if (closing) member.child.disconnect();
    else {
      member.idle = setTimeout(() => {
        const index = free.indexOf(member);
        if (index < 0) return;
        free.splice(index, 1);
        members.delete(member);
        // The child ends itself when its channel closes (heavy-process.ts).
        member.child.disconnect();
      }, idleMs);
      member.idle.unref();
      free.push(member);
    }
    finish();
  }

  return {
    get size() {
      return members.size;
    },
    async run<R>(name: string, input: unknown): Promise<R> {
      while (!closing && free.length === 0 && members.size >= size)
        await new Promise<void>((go) => queue.push(go));
      if (closing) throw new HeavyProcessEnded('the pool is closing');
      running += 1;
      const member = free.pop() ?? start();
      clearTimeout(member.idle);
      member.id = nextId++;
      const result = new Promise<unknown>((resolve, reject) => {
        member.task = { resolve, reject };
      });
      member.name = name;
      if (member.ready) armDeadline(member);
      const request: TaskRequest = { id: member.id, name, input };
      member.child.send(request, (error) => {
        if (error && member.task) {
          const task = member.task;
          member.task = null;
          clearTimeout(member.deadline);
          task.reject(error);
          member.child.kill('SIGKILL');
          finish();
        }
      });
      return (await result) as R;
    },
    async close() {
      closing = true;
      // Tasks still waiting for a process are refused; the running ones finish.
      for (const go of queue.splice(0)) go();
      if (running > 0) await new Promise<void>((resolve) => (drained = resolve));
      await Promise.all(
        [...members].map(async ({ child }) => {
          if (child.exitCode !== null || child.signalCode !== null) return;
          const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
          if (child.connected) child.disconnect();
          const timer = setTimeout(() => child.kill('SIGKILL'), stopMs);
          await exited;
          clearTimeout(timer);
        }),
      );
      members.clear();
      free.length = 0;
    },
  };
}
