import { describe, expect, it } from 'vitest';
import { formatDateTime } from './format';

describe('formatDateTime (spec §9)', () => {
  it('shows dd/mm/yyyy and a 24-hour time with " h"', () => {
    expect(formatDateTime(new Date(2025, 2, 5, 17, 30))).toBe('05/03/2025 17:30 h');
    expect(formatDateTime(new Date(2025, 11, 31, 9, 5))).toBe('31/12/2025 09:05 h');
    expect(formatDateTime(new Date(2025, 0, 1, 8, 0).toISOString())).toBe('01/01/2025 08:00 h');
  });

  it('gives null for nothing or an invalid date', () => {
    expect(formatDateTime(null)).toBeNull();
    expect(formatDateTime('not a date')).toBeNull();
  });
});
