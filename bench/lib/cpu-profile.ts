import { readFileSync } from 'node:fs';

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
};
export type Profile = { nodes: ProfileNode[]; samples?: number[]; timeDeltas?: number[] };

export type ProfileSummary = {
  /** Milliseconds on the CPU (idle excluded) during the profile. */
  busyMs: number;
  /** Share of busy time spent in each group's own code. */
  self: Record<string, number>;
  /**
   * Share of busy time with the package anywhere on the stack (a package calling another counts
   * for both); Node's internals and V8 are left out, being at the bottom of nearly every stack.
   */
  inclusive: Record<string, number>;
  /** The functions with the most time in their own code. */
  topFunctions: { name: string; group: string; share: number }[];
};

const notPackages = new Set(['root', 'idle', 'node: internals', 'other']);
const isPackage = (group: string) => !notPackages.has(group) && !group.startsWith('V8');

/** Which part of the program a frame belongs to: a package, the portal's code, Node or V8. */
export function groupOf(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (!url) {
    if (functionName === '(root)') return 'root';
    if (functionName === '(garbage collector)') return 'V8: garbage collector';
    if (functionName === '(idle)') return 'idle';
    if (functionName === '(program)') return 'V8: (program)';
    return 'V8/native builtins';
  }
  const pkg = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pkg) return pkg[1] as string;
  if (url.startsWith('node:')) return 'node: internals';
  const app = /\/(apps\/[^/]+|packages\/[^/]+|bench)\//.exec(url);
  if (app) return app[1] as string;
  return 'other';
}

/**
 * Sums a V8 .cpuprofile (as written by node --cpu-prof) by group, self and inclusive, leaving out
 * the first `skipMs` milliseconds (start-up, warm-up).
 */
export function summariseProfile(
  source: string | Profile,
  skipMs = 0,
  top = 14,
  /** Native functions to leave out, like the inspector call that stops an in-process profile. */
  ignore: readonly string[] = [],
): ProfileSummary {
  const profile =
    typeof source === 'string' ? (JSON.parse(readFileSync(source, 'utf8')) as Profile) : source;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stackGroups = new Map<number, Set<string>>();
  const groupsOnStack = (id: number): Set<string> => {
    const known = stackGroups.get(id);
    if (known) return known;
    const node = byId.get(id);
    const up = parent.get(id);
    const set = new Set(up === undefined ? [] : groupsOnStack(up));
    if (node) set.add(groupOf(node.callFrame));
    stackGroups.set(id, set);
    return set;
  };
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const functions = new Map<string, { group: string; time: number }>();
  let busy = 0;
  let elapsed = 0;
  (profile.samples ?? []).forEach((id, i) => {
    const node = byId.get(id);
    const dt = profile.timeDeltas?.[i] ?? 0;
    elapsed += dt;
    if (!node || elapsed < skipMs * 1000) return;
    if (!node.callFrame.url && ignore.includes(node.callFrame.functionName)) return;
    const group = groupOf(node.callFrame);
    if (group === 'idle') return;
    busy += dt;
    self.set(group, (self.get(group) ?? 0) + dt);
    for (const g of groupsOnStack(id)) {
      if (isPackage(g)) inclusive.set(g, (inclusive.get(g) ?? 0) + dt);
    }
    const fn = `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.split('/').slice(-2).join('/')}`;
    const entry = functions.get(fn) ?? { group, time: 0 };
    entry.time += dt;
    functions.set(fn, entry);
  });
  const shares = (m: Map<string, number>) =>
    Object.fromEntries(
      [...m.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(([k, v]) => [k, Math.round((v / busy) * 1000) / 10]),
    );
  const topFunctions = [...functions.entries()]
    .sort((a, b) => b[1].time - a[1].time)
    .slice(0, top)
    .map(([name, { group, time }]) => ({
      name: name.trim(),
      group,
      share: Math.round((time / busy) * 1000) / 10,
    }));
  return {
    busyMs: Math.round(busy / 1000),
    self: shares(self),
    inclusive: shares(inclusive),
    topFunctions,
  };
}
