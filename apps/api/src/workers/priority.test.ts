import { describe, expect, it } from 'vitest';
import { idleProcess, processThreads } from './priority.ts';

describe.runIf(process.platform === 'linux')('idleProcess', () => {
  it('asks chrt for SCHED_IDLE on every thread of the calling process', () => {
    const calls: string[][] = [];
    const result = idleProcess((file, args) => calls.push([file, ...args]));
    expect(result).toEqual({ policy: 'idle', pid: process.pid });
    expect(calls).toEqual([['chrt', '--idle', '--all-tasks', '--pid', '0', String(process.pid)]]);
  });

  it('gives every thread nice 19 instead, and says why, when chrt cannot do it', () => {
    const niced: number[] = [];
    const result = idleProcess(
      () => {
        throw new Error('spawnSync chrt ENOENT\nmore');
      },
      (tid) => niced.push(tid),
    );
    expect(result).toEqual({ policy: 'unchanged', reason: 'chrt: spawnSync chrt ENOENT' });
    expect(niced).toEqual(processThreads());
    // The main thread is one of them: its id is the process's.
    expect(niced).toContain(process.pid);
  });
});
