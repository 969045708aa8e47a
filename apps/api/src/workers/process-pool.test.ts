import { describe, expect, it } from 'vitest';
import { cpuMsOf } from './process-pool.ts';

describe('cpuMsOf', () => {
  it.runIf(process.platform === 'linux')(
    'reads the CPU time a process has spent, which grows only while it computes',
    () => {
      const before = cpuMsOf(process.pid);
      expect(before).not.toBeNull();
      const end = performance.now() + 200;
      let spin = 0;
      while (performance.now() < end) spin += 1;
      expect(spin).toBeGreaterThan(0);
      // 200 ms of computing, in clock ticks of 10 ms (the scheduler may take a few of them).
      expect((cpuMsOf(process.pid) ?? 0) - (before ?? 0)).toBeGreaterThanOrEqual(100);
    },
  );

  it('answers null for a process that does not exist', () => {
    expect(cpuMsOf(2 ** 22 + 7)).toBeNull();
  });
});
