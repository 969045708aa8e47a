import { describe, expect, it } from 'vitest';
import { paymentFiltersFromSearch, paymentFiltersToSearch } from './list-filters';

const now = new Date(2025, 2, 15);
const read = (query: string) => paymentFiltersFromSearch(new URLSearchParams(query), now);

describe('payments list filters in the address', () => {
  it('default to five years back to a year ahead, newest due date first', () => {
    expect(read('')).toEqual({
      datefrom: '20200315',
      dateto: '20260315',
      onlyPending: false,
      onlyOverdue: false,
      order: 'desc',
    });
  });

  it('read only pending, only overdue and the ascending order', () => {
    expect(read('pending=1&overdue=1&order=asc')).toMatchObject({
      onlyPending: true,
      onlyOverdue: true,
      order: 'asc',
    });
    expect(read('order=sideways').order).toBe('desc');
  });

  it('write only what differs from the defaults, and read back the same', () => {
    expect(paymentFiltersToSearch(read(''), now).toString()).toBe('');
    const filters = read('from=2024-01-01&overdue=1&order=asc');
    const query = paymentFiltersToSearch(filters, now).toString();
    expect(query).toBe('from=2024-01-01&overdue=1&order=asc');
    expect(read(query)).toEqual(filters);
  });
});
