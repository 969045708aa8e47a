import { describe, expect, it } from 'vitest';
import { cpuMsOf } from './process-pool.ts';

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
