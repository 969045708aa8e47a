import { describe, expect, it } from 'vitest';
import { invoiceFiltersFromSearch, invoiceFiltersToSearch } from './list-filters';

const now = new Date(2025, 2, 15);
const read = (query: string) => invoiceFiltersFromSearch(new URLSearchParams(query), now);

describe('invoice list filters in the address', () => {
  it('default to five years ago to today and no filter (spec §9)', () => {
    expect(read('')).toEqual({
      datefrom: '20200315',
      dateto: '20250315',
      paid: false,
      pending: false,
    });
  });

  it('read a range and the paid / pending filters', () => {
    expect(read('from=2024-01-01&to=2024-12-31&paid=1&pending=1')).toEqual({
      datefrom: '20240101',
      dateto: '20241231',
      paid: true,
      pending: true,
    });
    expect(read('from=2024-01-01').dateto).toBe('20250315');
  });

  it('fall back to the defaults for a broken or reversed range', () => {
    expect(read('from=2024-02-30&to=nope')).toMatchObject({ datefrom: '20200315' });
    expect(read('from=2025-01-01&to=2024-01-01')).toMatchObject({
      datefrom: '20200315',
      dateto: '20250315',
    });
  });

  it('write only what differs from the defaults, and read back the same', () => {
    expect(invoiceFiltersToSearch(read(''), now).toString()).toBe('');
    const filters = read('from=2024-01-01&to=2024-12-31&pending=1');
    const query = invoiceFiltersToSearch(filters, now).toString();
    expect(query).toBe('from=2024-01-01&to=2024-12-31&pending=1');
    expect(read(query)).toEqual(filters);
  });
});
