import { execFileSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';

/** What `idleThread` made of the calling thread. */
export type ThreadPriority =
  { policy: 'idle'; tid: number } | { policy: 'unchanged'; reason: string };

/**
 * Puts the calling thread under Linux's SCHED_IDLE policy: a weight of 3 against a normal
 * thread's 1,024, and a normal thread of the same scheduling group (this process, or with
 * autogroup its session) that wakes on its core takes the core at once. The heavy-work pool's
 * threads call it when they start (tasks.ts).
 *
 * The pool also asks for nice +10 (piscina's `niceIncrement`); that only weighs the thread less,
 * and a request that wakes beside a thread drawing a PDF still waits for the scheduler's slice.
 * Beside 500-line PDFs the isolation benchmark's /invoices p99 went from about 16 ms to about
 * 12 ms (decision 040). SCHED_IDLE is not a hard starvation: such a thread keeps its small weight
 * and finishes its task on a busy machine, only later.
 *
 * Lowering one's own policy needs no privilege. Node has no call for it, so util-linux's `chrt`
 * (in every Debian system, and the container image) does it for the thread's id, once per thread.
 * Elsewhere (not Linux, no `chrt`) the thread keeps nice +10 and the answer says why.
 */
export function idleThread(
  run: (file: string, args: string[]) => void = (file, args) => {
    execFileSync(file, args, { stdio: 'ignore', timeout: 5_000 });
  },
): ThreadPriority {
  if (process.platform !== 'linux') return { policy: 'unchanged', reason: process.platform };
  const tid = threadId();
  if (tid === null) return { policy: 'unchanged', reason: 'no thread id' };
  try {
    run('chrt', ['--idle', '--pid', '0', String(tid)]);
  } catch (error) {
    return { policy: 'unchanged', reason: `chrt: ${(error as Error).message.split('\n')[0]}` };
  }
  return { policy: 'idle', tid };
}

/** The kernel's id of the calling thread (`/proc/thread-self` names it `<pid>/task/<tid>`), or null. */
export function threadId(): number | null {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}
