import { readdirSync, readFileSync } from 'node:fs';
import { parseProcStat, processTree, type ProcStat } from './processes.ts';

/**
 * CPU time spent by processes of this machine, from the kernel's own accounting (`/proc`), to put
 * a request's cost on each process that served it: the server under test, PostgreSQL and the load
 * generator. On these 2 shared cores a throughput figure swings by a fifth from run to run; the
 * CPU time a request costs each process swings far less, and says where a difference comes from.
 */

function statOf(pid: number): ProcStat | undefined {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined; // Gone meanwhile.
  }
}

/** CPU seconds of one process, all its threads. */
export function processCpuSeconds(pid: number): number {
  const stat = statOf(pid);
  if (!stat) throw new Error(`process ${pid} is gone`);
  return stat.own;
}

/**
 * CPU seconds of the local PostgreSQL server so far: every live `postgres` process, plus what its
 * ended backends spent (the postmaster's waited-for children: a pool closing an idle connection
 * must not make its time disappear). `undefined` when no PostgreSQL runs on this machine (a
 * `BENCH_DATABASE_URL` elsewhere).
 */
export function postgresCpuSeconds(): number | undefined {
  const stats = new Map<number, ProcStat>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(Number(entry));
    if (stat?.comm === 'postgres') stats.set(Number(entry), stat);
  }
  let total = 0;
  let postmasters = 0;
  for (const stat of stats.values()) {
    total += stat.own;
    // The postmaster is the postgres process whose parent is not one.
    if (!stats.has(stat.ppid)) {
      postmasters += 1;
      total += stat.children;
    }
  }
  return postmasters > 0 ? total : undefined;
}

/**
 * CPU seconds of a process and every live descendant (a `tsx` command runs its script in a child
 * process of its own).
 */
export function treeCpuSeconds(rootPid: number): number {
  processCpuSeconds(rootPid); // Throws if it is gone.
  return processTree(rootPid).reduce((total, pid) => total + (statOf(pid)?.own ?? 0), 0);
}
