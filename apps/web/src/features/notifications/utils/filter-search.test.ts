import { describe, expect, it } from 'vitest';
import { filterFromSearch, filterToSearch } from './filter-search';

describe('the filter in the address', () => {
  it('reads read and unread, anything else is all', () => {
    expect(filterFromSearch(new URLSearchParams('filter=unread'))).toBe('unread');
    expect(filterFromSearch(new URLSearchParams('filter=read'))).toBe('read');
    expect(filterFromSearch(new URLSearchParams('filter=nope'))).toBe('all');
    expect(filterFromSearch(new URLSearchParams())).toBe('all');
  });

  it('leaves the address clean for all', () => {
    expect(filterToSearch('all')).toEqual({});
    expect(filterToSearch('unread')).toEqual({ filter: 'unread' });
  });
});
