/** The median of some numbers (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The p-th percentile (0-100) by the nearest-rank method. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] as number;
}

/** Rounds to `digits` decimals (for the results, which should not pretend to more precision). */
export const round = (value: number, digits = 2): number => {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
};

/** A run of slow requests close together: one stall seen by every request it caught. */
export type SlowCluster = { start: number; end: number; count: number; maxMs: number };

/**
 * The requests slower than `thresholdMs` (`latency` in ms, `due` in ms of any clock), grouped
 * into clusters: a slow request due within `gapMs` of the previous slow one joins its cluster. A
 * p99 decided by a few long stalls shows as a few large clusters; a generally slower service as
 * many of one.
 */
export function slowClusters(
  samples: readonly { due: number; latency: number | null }[],
  thresholdMs: number,
  gapMs = 50,
): SlowCluster[] {
  const slow = samples
    .filter((s): s is { due: number; latency: number } => s.latency !== null)
    .filter((s) => s.latency >= thresholdMs)
    .sort((a, b) => a.due - b.due);
  const clusters: SlowCluster[] = [];
  for (const s of slow) {
    const last = clusters.at(-1);
    if (last && s.due - last.end <= gapMs) {
      last.end = s.due;
      last.count += 1;
      last.maxMs = Math.max(last.maxMs, s.latency);
    } else clusters.push({ start: s.due, end: s.due, count: 1, maxMs: s.latency });
  }
  return clusters;
}
