import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cpuCgroupV1, idleGroupName, joinIdleGroup, prepareIdleGroup } from './idle-group.ts';

// Lines as this machine's kernel writes them (cgroup v1 beside a v2 `0::` line, as systemd mounts
// them), and a container's, which sees its own cgroup as the mount's root.
const v1Cgroup = '12:pids:/\n4:memory:/process_api/c8494895\n2:cpu,cpuacct:/svc/portal\n0::/\n';
const v1Mounts = [
  '31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755',
  '32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct',
  '33 31 0:30 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory',
].join('\n');
const v2Cgroup = '0::/system.slice/portal.service\n';
const v2Mounts = '29 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n';

describe('cpuCgroupV1', () => {
  it("finds the cpu hierarchy's mount and this process's path in it", () => {
    expect(cpuCgroupV1(v1Cgroup, v1Mounts)).toEqual({
      mountPoint: '/sys/fs/cgroup/cpu,cpuacct',
      path: '/svc/portal',
    });
  });

  it("takes the mount's root off the path (a container's view)", () => {
    const mounts = '40 31 0:29 /docker/abc /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu';
    expect(cpuCgroupV1('3:cpu:/docker/abc\n', mounts)).toEqual({
      mountPoint: '/sys/fs/cgroup/cpu',
      path: '/',
    });
  });

  it('answers null on cgroup v2 alone, and for a cpu line with no cpu mount', () => {
    expect(cpuCgroupV1(v2Cgroup, v2Mounts)).toBeNull();
    expect(cpuCgroupV1(v1Cgroup, v2Mounts)).toBeNull();
    // `cpuacct` alone is not `cpu`.
    expect(cpuCgroupV1('2:cpuacct:/\n', v1Mounts)).toBeNull();
  });
});

describe('prepareIdleGroup and joinIdleGroup (on a copy of the files they read)', () => {
  let root = '';
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** A fake root with /proc/self's two files and, if asked, the cpu hierarchy's directory. */
  function host(cgroup: string, mounts: string, cpuDir?: string) {
    root = mkdtempSync(join(tmpdir(), 'idle-group-'));
    mkdirSync(join(root, 'proc/self'), { recursive: true });
    writeFileSync(join(root, 'proc/self/cgroup'), cgroup);
    writeFileSync(join(root, 'proc/self/mountinfo'), mounts);
    if (cpuDir !== undefined) mkdirSync(join(root, cpuDir), { recursive: true });
    return { root };
  }

  it("makes the group under the process's cpu cgroup, sets it idle, and its threads join it", () => {
    const files = host(v1Cgroup, v1Mounts, '/sys/fs/cgroup/cpu,cpuacct/svc/portal');
    const dir = join(root, '/sys/fs/cgroup/cpu,cpuacct/svc/portal', idleGroupName);
    // The kernel makes a new cgroup's files; the copy makes the one the code looks for.
    mkdirSync(dir);
    writeFileSync(join(dir, 'cpu.idle'), '0');
    const group = prepareIdleGroup(undefined, files);
    expect(group).toEqual({ dir, procsFile: join(dir, 'cgroup.procs') });
    expect(readFileSync(join(dir, 'cpu.idle'), 'utf8')).toBe('1');
    expect(joinIdleGroup(group, 4242)).toEqual({ group: dir });
    expect(readFileSync(join(dir, 'cgroup.procs'), 'utf8')).toBe('4242');
  });

  it('says why there is no group: a kernel without cpu.idle, cgroup v2, no /proc', () => {
    host(v1Cgroup, v1Mounts, '/sys/fs/cgroup/cpu,cpuacct/svc/portal');
    expect(prepareIdleGroup(undefined, { root })).toEqual({
      dir: null,
      reason: 'no cpu.idle (Linux before 5.15)',
    });
    rmSync(root, { recursive: true });
    host(v2Cgroup, v2Mounts);
    expect(prepareIdleGroup(undefined, { root })).toEqual({
      dir: null,
      reason: 'cgroup v2: set HEAVY_WORK_CGROUP to a cgroup with cpu.idle 1',
    });
    const none = prepareIdleGroup(undefined, { root: join(root, 'nothing') });
    expect(none.dir).toBeNull();
    // Without a group nothing joins and keeps the reason.
    expect(joinIdleGroup({ dir: null, reason: 'why' }, 1)).toEqual({
      group: null,
      reason: 'why',
    });
  });

  it("takes the operator's group only when it exists and is idle", () => {
    host(v2Cgroup, v2Mounts);
    const dir = '/sys/fs/cgroup/system.slice/portal.service/heavy';
    expect(prepareIdleGroup(dir, { root })).toEqual({
      dir: null,
      reason: `HEAVY_WORK_CGROUP ${dir}: no cgroup`,
    });
    mkdirSync(join(root, dir), { recursive: true });
    writeFileSync(join(root, dir, 'cgroup.procs'), '');
    writeFileSync(join(root, dir, 'cpu.idle'), '0\n');
    expect(prepareIdleGroup(dir, { root })).toEqual({
      dir: null,
      reason: `HEAVY_WORK_CGROUP ${dir}: cpu.idle is 0`,
    });
    writeFileSync(join(root, dir, 'cpu.idle'), '1\n');
    const group = prepareIdleGroup(dir, { root });
    expect(group).toEqual({ dir: join(root, dir), procsFile: join(root, dir, 'cgroup.procs') });
  });

  it('a process that may not join says why', () => {
    host(v1Cgroup, v1Mounts);
    const group = { dir: join(root, 'gone'), procsFile: join(root, 'gone', 'cgroup.procs') };
    const joined = joinIdleGroup(group, 7);
    expect(joined.group).toBeNull();
    expect(joined).toMatchObject({ reason: expect.stringContaining('ENOENT') });
  });
});
