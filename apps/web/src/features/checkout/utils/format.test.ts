import { describe, expect, it } from 'vitest';
import { formatDateTime } from './format';

describe('formatDateTime (spec §9, Madrid time from the server)', () => {
  it('shows dd/mm/yyyy and a 24-hour time with " h", exactly as the server gave it', () => {
    expect(formatDateTime('2025-03-05', '17:30')).toBe('05/03/2025 17:30 h');
    expect(formatDateTime('2025-12-31', '09:05')).toBe('31/12/2025 09:05 h');
    expect(formatDateTime('2026-07-02', '00:05')).toBe('02/07/2026 00:05 h');
  });

  it('gives null for nothing or anything not of that shape', () => {
    expect(formatDateTime(null, '10:00')).toBeNull();
    expect(formatDateTime('2025-03-05', undefined)).toBeNull();
    expect(formatDateTime('2025-03-05T10:00:00Z', '10:00')).toBeNull();
    expect(formatDateTime('2025-03-05', '24:00')).toBeNull();
  });
});
