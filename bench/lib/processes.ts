import { spawn, type ChildProcess, type ChildProcessByStdio } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export const repoRoot = new URL('../../', import.meta.url).pathname;
/** tsx from the repository, as `npm start` runs the API (`tsx src/server.ts`). */
export const tsxBin = `${repoRoot}node_modules/.bin/tsx`;

export type Server = {
  name: string;
  url: string;
  pid: number;
  /** Milliseconds from spawn to the first 200 of `readyPath`. */
  readyMs: number;
  /** Resident memory of the process and all its descendants, in bytes. */
  rss(): number;
  /** The last 4,000 characters the process wrote (stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
};

/**
 * Starts a server as a child process in its own process group, waits until `readyPath` answers
 * 200 and measures how long that took. `stop()` ends the group (the command and what it spawned,
 * such as tsx's own child) and waits for it.
 */
export async function startServer(options: {
  name: string;
  command: string;
  args: string[];
  port: number;
  env: Record<string, string>;
  readyPath: string;
  cwd?: string;
  timeoutMs?: number;
  host?: string;
}): Promise<Server> {
  const started = performance.now();
  const child = spawn(options.command, options.args, {
    cwd: options.cwd ?? repoRoot,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });
  const url = `http://${options.host ?? '127.0.0.1'}:${options.port}`;
  const deadline = started + (options.timeoutMs ?? 120_000);
  let readyMs = -1;
  while (readyMs < 0) {
    if (exited) throw new Error(`${options.name} exited before it was ready:\n${output}`);
    if (performance.now() > deadline) {
      await stopGroup(child);
      throw new Error(`${options.name} was not ready in time:\n${output}`);
    }
    try {
      const res = await fetch(url + options.readyPath, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status === 200) readyMs = performance.now() - started;
    } catch {
      // Not listening yet.
    }
    if (readyMs < 0) await sleep(20);
  }
  const pid = child.pid as number;
  return {
    name: options.name,
    url,
    pid,
    readyMs,
    rss: () => treeRss(pid),
    output: () => output,
    stop: () => stopGroup(child),
  };
}

async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-(child.pid as number), 'SIGKILL');
    } catch {
      // Already gone.
    }
  }, 10_000);
  await exited;
  clearTimeout(timer);
}

/** Clock ticks per second of `/proc/<pid>/stat` (USER_HZ, 100 on Linux). */
const ticksPerSecond = 100;

export type ProcStat = {
  comm: string;
  ppid: number;
  /** utime + stime of the process (all its threads), in seconds. */
  own: number;
  /** cutime + cstime: what its children that ended and were waited for spent, in seconds. */
  children: number;
};

/**
 * One line of `/proc/<pid>/stat`. The command name sits in parentheses and may itself hold spaces
 * and parentheses, so the fields are counted from the last `)`.
 */
export function parseProcStat(line: string): ProcStat {
  const open = line.indexOf('(');
  const close = line.lastIndexOf(')');
  if (open < 0 || close < open) throw new Error(`not a /proc stat line: ${line.slice(0, 80)}`);
  // After ") ": state(3) ppid(4) ... utime(14) stime(15) cutime(16) cstime(17), 1-based.
  const fields = line.slice(close + 2).split(' ');
  const field = (n: number) => Number(fields[n - 3]);
  return {
    comm: line.slice(open + 1, close),
    ppid: field(4),
    own: (field(14) + field(15)) / ticksPerSecond,
    children: (field(16) + field(17)) / ticksPerSecond,
  };
}

/** A process and all its live descendants, read from /proc (the root first). */
export function processTree(rootPid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const { ppid } = parseProcStat(readFileSync(`/proc/${entry}/stat`, 'utf8'));
      const list = children.get(ppid) ?? [];
      list.push(Number(entry));
      children.set(ppid, list);
    } catch {
      // The process ended while we looked.
    }
  }
  const tree: number[] = [];
  const stack = [rootPid];
  while (stack.length > 0) {
    const pid = stack.pop() as number;
    tree.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** Sums VmRSS over a process and its descendants, read from /proc. */
export function treeRss(rootPid: number): number {
  return processTree(rootPid).reduce((total, pid) => total + processRss(pid), 0);
}

function processRss(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * A bench helper process (node with tsx's loader, its garbage collected on its one thread: it
 * shares the cores with what it measures) that answers in lines on stdout: `next()` is the next
 * line, or an error if the process exits first.
 */
export function startLineProcess(
  what: string,
  script: string,
  env: Record<string, string> = {},
): { child: ChildProcessByStdio<Writable, Readable, null>; next(): Promise<string> } {
  const child = spawn(process.execPath, ['--single-threaded-gc', '--import', 'tsx', script], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const next = () =>
    new Promise<string>((resolve, reject) => {
      const onLine = (line: string) => {
        lines.off('line', onLine);
        child.off('exit', onExit);
        resolve(line);
      };
      const onExit = (code: number | null) =>
        reject(new Error(`${what} exited (${code}) before answering`));
      lines.on('line', onLine);
      child.once('exit', onExit);
    });
  return { child, next };
}
