import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where the heavy-work processes go so that the whole machine's other work comes first: a cgroup
 * whose `cpu.idle` is 1 (Linux 5.15 and later).
 *
 * SCHED_IDLE (priority.ts) gives way at once only inside the thread's own scheduling group: the
 * session's autogroup, or the container's cgroup. PostgreSQL's backend, or a load balancer,
 * waking on a core where a PDF is being drawn waited for the scheduler's tick (4 ms at
 * CONFIG_HZ=250), and so did every other tenant's query behind it (bench/README.md,
 * "Isolation"). A group with `cpu.idle` set is itself idle against its sibling groups: whatever
 * else wakes takes the core from it at once, whichever group it comes from.
 *
 * How the group is found, in order:
 * - `HEAVY_WORK_CGROUP`: a cgroup the operator prepared (cgroup v2 needs one: a cgroup with
 *   processes may have no children there, so the service manager lays out the portal's and the
 *   heavy work's side by side; docs/operations.md);
 * - otherwise, on cgroup v1 (one hierarchy per controller), the `portal-heavy` group under this
 *   process's own `cpu` cgroup, made if missing, when the process may write there (root, with the
 *   hierarchy mounted writable);
 * - otherwise none, with the reason: the processes keep SCHED_IDLE inside their group.
 */
export type IdleGroup =
  | {
      /** The cgroup's directory. */
      dir: string;
      /** The file a process's id is written to, to move it with all its threads. */
      procsFile: string;
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

/** An operator's group, checked: it exists and is idle. */
function configuredGroup(dir: string, files: Files): IdleGroup {
  const at = join(files.root, dir);
  const procsFile = join(at, 'cgroup.procs');
  if (!existsSync(procsFile)) return { dir: null, reason: `HEAVY_WORK_CGROUP ${dir}: no cgroup` };
  let idle: string;
  try {
    idle = readFileSync(join(at, 'cpu.idle'), 'utf8').trim();
  } catch (error) {
    return { dir: null, reason: `HEAVY_WORK_CGROUP ${dir}: ${firstLine(error)}` };
  }
  if (idle !== '1') return { dir: null, reason: `HEAVY_WORK_CGROUP ${dir}: cpu.idle is ${idle}` };
  return { dir: at, procsFile };
}

/**
 * Finds or makes the group (see `IdleGroup`); called once, on the main thread, when the pool is
 * made. It never throws: without a group the process still runs, under SCHED_IDLE alone.
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
      reason: 'cgroup v2: set HEAVY_WORK_CGROUP to a cgroup with cpu.idle 1',
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
  return { dir, procsFile: join(dir, 'cgroup.procs') };
}

/** What joining the group made of the heavy-work process. */
export type GroupMembership = { group: string } | { group: null; reason: string };

/**
 * Moves the process `pid`, every thread of it, into the group (the heavy-work process, when it
 * starts); threads started later are born in it.
 */
export function joinIdleGroup(group: IdleGroup, pid: number): GroupMembership {
  if (group.dir === null) return { group: null, reason: group.reason };
  try {
    writeFileSync(group.procsFile, String(pid));
  } catch (error) {
    return { group: null, reason: firstLine(error) };
  }
  return { group: group.dir };
}
