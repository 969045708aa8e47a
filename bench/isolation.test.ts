import { describe, expect, it } from 'vitest';
import { traceSummary } from './isolation.ts';

describe('traceSummary', () => {
  const sample = (due: number, latency: number | null) => ({ due, late: 0, latency });

  it('counts the slow requests of each phase in stalls, and where the loaded stalls began', () => {
    const runs = [
      { phase: 'alone' as const, samples: [sample(0, 2), sample(5, 3), sample(10, 12)] },
      {
        phase: 'loaded' as const,
        // A stall of three requests during the batch, one slow request during the PDF only.
        samples: [sample(1000, 20), sample(1005, 30), sample(1010, 25), sample(2000, 11)],
      },
    ];
    const summary = traceSummary(runs, [[990, 100]], [[1990, 50]], 10);
    expect(summary).toBe(
      '  requests slower than 10 ms (2x the p99 alone): alone 1 of 3 in 1 clusters (largest: 1 requests, max 12 ms); ' +
        'loaded 4 of 4 in 2 clusters (largest: 3 requests, max 30 ms; 1 requests, max 11 ms), 1 began during a batch and 1 during a PDF',
    );
  });

  it('says none when nothing was slow', () => {
    const summary = traceSummary([{ phase: 'alone', samples: [sample(0, 1)] }], [], [], 10);
    expect(summary).toContain('alone 0 of 1 in 0 clusters (largest: none)');
    expect(summary).toContain(
      'loaded 0 of 0 in 0 clusters (largest: none), 0 began during a batch',
    );
  });
});
