import { describe, expect, it } from 'vitest';
import { pageOf } from './paging.ts';

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `id-${i}` }));

describe('pageOf', () => {
  it('cuts the extra row and points the next page at the last item shown', () => {
    expect(pageOf(rows(3), 2)).toEqual({ page: rows(2), nextCursor: 'id-1' });
  });

  it('has no next page when the repository found no extra row', () => {
    expect(pageOf(rows(2), 2)).toEqual({ page: rows(2), nextCursor: null });
    expect(pageOf([], 20)).toEqual({ page: [], nextCursor: null });
  });
});
