import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  cpuMsOf,
  createProcessPool,
  HeavyProcessEnded,
  HeavyProcessNotReady,
} from './process-pool.ts';
import { isAlive } from '../../test/processes.ts';

const fixtures = mkdtempSync(join(tmpdir(), 'process-pool-'));
afterAll(() => rmSync(fixtures, { recursive: true, force: true }));

/** A child module written for the test: `body` runs in a forked process. */
function child(name: string, body: string): string {
  const path = join(fixtures, `${name}.mjs`);
  writeFileSync(path, body);
  return path;
}

/** Ends with its channel, as heavy-process.ts does. */
const endsWithChannel = `process.once('disconnect', () => process.exit(0));`;

describe('createProcessPool', () => {
  it('refuses the task of a process that never says it is ready, ends it, and starts a new one for the next task', async () => {
    const pids = join(fixtures, 'pids');
    mkdirSync(pids);
    const hangs = child(
      'hangs',
      // Loads, leaves its pid where the test can see it, and never says ready (as a module that
      // never resolves would).
      `import { writeFileSync } from 'node:fs';
       writeFileSync(${JSON.stringify(pids)} + '/' + process.pid, '');
       setInterval(() => {}, 1000);
       ${endsWithChannel}`,
    );
    const pool = createProcessPool({ size: 1, entry: hangs, startMs: 500, deadlineMs: 200 });
    try {
      const started = Date.now();
      const refused = await pool.run('anything', null).catch((error: unknown) => error);
      // A process that ended (the server answers 503, a retry may succeed), named as not ready.
      expect(refused).toBeInstanceOf(HeavyProcessEnded);
      expect(refused).toBeInstanceOf(HeavyProcessNotReady);
      expect((refused as Error).message).toContain('not ready within 500 ms');
      expect(Date.now() - started).toBeGreaterThanOrEqual(450);
      // Its place is free again: the next task gets a process of its own, refused the same way.
      expect(pool.size).toBe(0);
      await expect(pool.run('anything', null)).rejects.toBeInstanceOf(HeavyProcessEnded);
      expect(pool.size).toBe(0);
    } finally {
      await pool.close();
    }
    // Both processes were killed, not left behind.
    const started = readdirSync(pids).map(Number);
    expect(started).toHaveLength(2);
    await expect.poll(() => started.filter(isAlive)).toEqual([]);
  });

  it('runs the task of a process that says it is ready in time', async () => {
    const answers = child(
      'answers',
      `process.on('message', (task) => process.send({ id: task.id, ok: true, result: task.input * 2 }));
       setTimeout(() => process.send({ ready: true }), 100);
       ${endsWithChannel}`,
    );
    const pool = createProcessPool({ size: 1, entry: answers, startMs: 400, deadlineMs: 5_000 });
    try {
      expect(await pool.run<number>('double', 21)).toBe(42);
      expect(pool.size).toBe(1);
      // Past its start bound, the process that said ready in time is kept and answers again.
      await new Promise((go) => setTimeout(go, 600));
      expect(pool.size).toBe(1);
      expect(await pool.run<number>('double', 4)).toBe(8);
    } finally {
      await pool.close();
    }
  });
});

describe('cpuMsOf', () => {
  it.runIf(process.platform === 'linux')(
    'reads the CPU time a process has spent, which grows only while it computes',
    () => {
      const before = cpuMsOf(process.pid);
      expect(before).not.toBeNull();
      // Compute until the kernel's own account (getrusage, through Node) says 200 ms of CPU were
      // spent: on a loaded host 200 ms of wall time can be far less CPU time.
      const start = process.cpuUsage();
      const spentMs = () => {
        const used = process.cpuUsage(start);
        return (used.user + used.system) / 1000;
      };
      let spin = 0;
      while (spentMs() < 200) spin += 1;
      expect(spin).toBeGreaterThan(0);
      // The same 200 ms read from /proc in clock ticks of 10 ms (a tick or two either way).
      expect((cpuMsOf(process.pid) ?? 0) - (before ?? 0)).toBeGreaterThanOrEqual(170);
    },
  );

  it('answers null for a process that does not exist', () => {
    expect(cpuMsOf(2 ** 22 + 7)).toBeNull();
  });
});
