import { describe, expect, it } from 'vitest';
import { idleThread } from './priority.ts';

describe.runIf(process.platform === 'linux')('idleThread', () => {
  it("asks chrt for SCHED_IDLE on the calling thread's own id", () => {
    const calls: string[][] = [];
    const result = idleThread((file, args) => calls.push([file, ...args]));
    expect(result).toMatchObject({ policy: 'idle' });
    const tid = result.policy === 'idle' ? result.tid : 0;
    // On the main thread the thread id is the process id.
    expect(tid).toBe(process.pid);
    expect(calls).toEqual([['chrt', '--idle', '--pid', '0', String(tid)]]);
  });

  it('leaves the thread as it is, and says why, when chrt cannot do it', () => {
    const result = idleThread(() => {
      throw new Error('spawnSync chrt ENOENT\nmore');
    });
    expect(result).toEqual({ policy: 'unchanged', reason: 'chrt: spawnSync chrt ENOENT' });
  });
});
