import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where the heavy-work threads go so that the whole machine's other work comes first: a cgroup
 * whose `cpu.idle` is 1 (Linux 5.15 and later).
 *
 * SCHED_IDLE (priority.ts) gives way at once only inside the thread's own scheduling group: this
 * process, or its session with the kernel's autogroups, or its container's cgroup. PostgreSQL's
 * backend, or a load balancer, waking on a core where a PDF is being drawn waited for the
 * scheduler's tick (4 ms at CONFIG_HZ=250), and so did every other tenant's query behind it
 * (bench/README.md, "Isolation"). A group with `cpu.idle` set is itself idle against its sibling
 * groups: whatever else wakes takes the core from it at once, whichever group it comes from.
 *
 * How the group is found, in order:
 * - `HEAVY_WORK_CGROUP`: a cgroup the operator prepared (cgroup v2 needs one: a thread may leave its
 *   process's cgroup only for a threaded one, which only the host's manager can lay out;
 *   docs/operations.md);
 * - otherwise, on cgroup v1 (one hierarchy per controller, threads move one by one), the
 *   `portal-heavy` group under this process's own `cpu` cgroup, made if missing, when the process
 *   may write there (root, with the hierarchy mounted writable);
 * - otherwise none, with the reason: the threads keep SCHED_IDLE inside the process's group.
 */
export type IdleGroup =
  | {
      /** The cgroup's directory. */
      dir: string;
      /** The file a thread writes its id to, to join: `cgroup.threads` (v2) or `tasks` (v1). */
      threadsFile: string;
    }
  | { dir: null; reason: string };

/** The group all the portal processes of a host share under their `cpu` cgroup (v1). */
export const idleGroupName = 'portal-heavy';

/** Where the files are read: the real root, or a test's copy of the few files it needs. */
type Files = { root: string };

const firstLine = (error: unknown) => String((error as Error).message).split('\n')[0] ?? '';

/**
 * The mount point of the cgroup v1 hierarchy that holds the `cpu` controller, with the path of
 * this process's cgroup in it, from /proc/self/mountinfo and /proc/self/cgroup.
 */
export function cpuCgroupV1(
  selfCgroup: string,
  mountinfo: string,
): { mountPoint: string; path: string } | null {
  const entry = selfCgroup
    .split('\n')
    .map((line) => line.split(':'))
    .find(([, controllers]) => (controllers ?? '').split(',').includes('cpu'));
  if (!entry) return null;
  const path = entry.slice(2).join(':');
  for (const line of mountinfo.split('\n')) {
    // `id parent major:minor root mount-point options [tags] - type source super-options`
    const [left, right] = line.split(' - ');
    if (left === undefined || right === undefined) continue;
    const [type, , superOptions] = right.split(' ');
    if (type !== 'cgroup' || !(superOptions ?? '').split(',').includes('cpu')) continue;
    const fields = left.split(' ');
    const root = fields[3] ?? '/';
    const mountPoint = fields[4];
    if (mountPoint === undefined) continue;
    // A container sees its own cgroup as the mount's root: the path inside the mount is the rest.
    const inside = root === '/' ? path : path.startsWith(root) ? path.slice(root.length) : null;
    if (inside === null) continue;
    return { mountPoint, path: inside || '/' };
  }
  return null;
}

/** An operator's group, checked: it exists, takes threads, and is idle. */
function configuredGroup(dir: string, files: Files): IdleGroup {
  const at = join(files.root, dir);
  const threadsFile = existsSync(join(at, 'cgroup.threads'))
    ? join(at, 'cgroup.threads')
    : join(at, 'tasks');
  if (!existsSync(threadsFile)) return { dir: null, reason: `HEAVY_WORK_CGROUP ${dir}: no cgroup` };
  let idle: string;
  try {
    idle = readFileSync(join(at, 'cpu.idle'), 'utf8').trim();
  } catch (error) {
    return { dir: null, reason: `HEAVY_WORK_CGROUP ${dir}: ${firstLine(error)}` };
  }
  if (idle !== '1') return { dir: null, reason: `HEAVY_WORK_CGROUP ${dir}: cpu.idle is ${idle}` };
  return { dir: at, threadsFile };
}

/**
 * Finds or makes the group (see `IdleGroup`); called once, on the main thread, when the pool is
 * made. It never throws: without a group the threads still run, under SCHED_IDLE alone.
 */
export function prepareIdleGroup(
  configured: string | undefined,
  files: Files = { root: '' },
): IdleGroup {
  if (process.platform !== 'linux' && files.root === '')
    return { dir: null, reason: process.platform };
  if (configured !== undefined) return configuredGroup(configured, files);
  let selfCgroup: string;
  let mountinfo: string;
  try {
    selfCgroup = readFileSync(join(files.root, '/proc/self/cgroup'), 'utf8');
    mountinfo = readFileSync(join(files.root, '/proc/self/mountinfo'), 'utf8');
  } catch (error) {
    return { dir: null, reason: firstLine(error) };
  }
  const v1 = cpuCgroupV1(selfCgroup, mountinfo);
  if (!v1)
    return {
      dir: null,
      reason: 'cgroup v2: set HEAVY_WORK_CGROUP to a threaded cgroup with cpu.idle 1',
    };
  const dir = join(files.root, v1.mountPoint, v1.path, idleGroupName);
  try {
    mkdirSync(dir, { recursive: true });
    if (!existsSync(join(dir, 'cpu.idle'))) {
      return { dir: null, reason: 'no cpu.idle (Linux before 5.15)' };
    }
    writeFileSync(join(dir, 'cpu.idle'), '1');
  } catch (error) {
    return { dir: null, reason: firstLine(error) };
  }
  return { dir, threadsFile: join(dir, 'tasks') };
}

/** What joining the group made of the calling thread (the pool's thread, when it starts). */
export type GroupMembership = { group: string } | { group: null; reason: string };

export function joinIdleGroup(group: IdleGroup, tid: number): GroupMembership {
  if (group.dir === null) return { group: null, reason: group.reason };
  try {
    writeFileSync(group.threadsFile, String(tid));
  } catch (error) {
    return { group: null, reason: firstLine(error) };
  }
  return { group: group.dir };
}
