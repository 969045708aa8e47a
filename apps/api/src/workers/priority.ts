import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';

/** What `idleProcess` made of the calling process. */
export type ProcessPriority =
  { policy: 'idle'; pid: number } | { policy: 'unchanged'; reason: string };

/**
 * Puts every thread of the calling process under Linux's SCHED_IDLE policy: a weight of 3 against
 * a normal thread's 1,024, and a normal thread of the same scheduling group that wakes on its core
 * takes the core at once. Threads the process starts later inherit it. The heavy-work process
 * calls it first thing (heavy-process.ts), so its V8 platform threads (the garbage collector's
 * helpers) are idle too, not only the thread that draws.
 *
 * Beside 500-line PDFs the isolation benchmark's /invoices p99 went from about 16 ms to about
 * 12 ms with the drawing thread under SCHED_IDLE rather than at nice +10 (decision 040). SCHED_IDLE
 * is not a hard starvation: such a thread keeps its small weight and finishes its task on a busy
 * machine, only later.
 *
 * Lowering one's own policy needs no privilege. Node has no call for it, so util-linux's `chrt`
 * (in every Debian system, and the container image) does it, `--all-tasks`. Elsewhere (not Linux,
 * no `chrt`) every thread gets nice 19 instead and the answer says why.
 */
export function idleProcess(
  run: (file: string, args: string[]) => void = (file, args) => {
    execFileSync(file, args, { stdio: 'ignore', timeout: 5_000 });
  },
  nice: (tid: number) => void = (tid) => setPriority(tid, 19),
): ProcessPriority {
  if (process.platform !== 'linux') {
    nice(0);
    return { policy: 'unchanged', reason: process.platform };
  }
  try {
    run('chrt', ['--idle', '--all-tasks', '--pid', '0', String(process.pid)]);
  } catch (error) {
    // Linux's nice is per thread: each one of them.
    for (const tid of processThreads()) nice(tid);
    return { policy: 'unchanged', reason: `chrt: ${(error as Error).message.split('\n')[0]}` };
  }
  return { policy: 'idle', pid: process.pid };
}

/** The kernel's ids of the calling process's threads (`/proc/self/task`). */
export function processThreads(): number[] {
  try {
    return readdirSync('/proc/self/task')
      .map(Number)
      .filter((tid) => tid > 0);
  } catch {
    return [];
  }
}
