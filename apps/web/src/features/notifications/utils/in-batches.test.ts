import { describe, expect, it, vi } from 'vitest';
import { inBatches, maxIdsPerCall } from './in-batches';

describe('inBatches', () => {
  it('sends at most 200 ids per call and adds up the counts', async () => {
    const ids = Array.from({ length: 450 }, (_, i) => `n${i}`);
    const call = vi.fn(async (batch: string[]) => ({ count: batch.length - 1 }));
    expect(await inBatches(ids, call)).toBe(447);
    expect(call.mock.calls.map(([batch]) => batch.length)).toEqual([maxIdsPerCall, 200, 50]);
    expect(call.mock.calls.flatMap(([batch]) => batch)).toEqual(ids);
  });

  it('makes no call for no ids', async () => {
    const call = vi.fn();
    expect(await inBatches([], call)).toBe(0);
    expect(call).not.toHaveBeenCalled();
  });
});
