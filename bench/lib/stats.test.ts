import { describe, expect, it } from 'vitest';
import { slowClusters } from './stats.ts';

describe('slowClusters', () => {
  const at = (due: number, latency: number | null) => ({ due, latency });

  it('groups slow requests due close together, and keeps apart those further than the gap', () => {
    const samples = [
      at(0, 2),
      at(5, 30),
      at(10, 45),
      at(15, 20),
      at(20, 3),
      at(200, 12),
      at(205, null),
      at(400, 2),
    ];
    expect(slowClusters(samples, 10, 50)).toEqual([
      { start: 5, end: 15, count: 3, maxMs: 45 },
      { start: 200, end: 200, count: 1, maxMs: 12 },
    ]);
  });

  it('orders the samples by due time first, and finds nothing when nothing is slow', () => {
    expect(slowClusters([at(30, 11), at(0, 11), at(10, 11)], 10, 20)).toEqual([
      { start: 0, end: 30, count: 3, maxMs: 11 },
    ]);
    expect(slowClusters([at(0, 9.9), at(10, null)], 10)).toEqual([]);
  });
});
