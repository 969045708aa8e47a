import { describe, expect, it } from 'vitest';
import { apiToIso, centsToAmount, isoToApi, madridDateTime, todayIso } from './dates.ts';

describe('dates and money at the API edge', () => {
  it("takes today's date in Madrid, not in UTC", () => {
    // 23:30 UTC on 31 December is already 1 January in Madrid (UTC+1).
    expect(todayIso(new Date('2025-12-31T23:30:00Z'))).toBe('2026-01-01');
    expect(todayIso(new Date('2025-06-30T21:59:00Z'))).toBe('2025-06-30');
  });
  it('changes day at the first second of Madrid midnight, asked in any order (answers kept per minute)', () => {
    expect(todayIso(new Date('2025-06-30T21:59:00.000Z'))).toBe('2025-06-30');
    expect(todayIso(new Date('2025-06-30T21:59:59.999Z'))).toBe('2025-06-30');
    expect(todayIso(new Date('2025-06-30T22:00:00.000Z'))).toBe('2025-07-01');
    expect(todayIso(new Date('2025-06-30T21:59:30.000Z'))).toBe('2025-06-30');
    expect(todayIso(new Date('2025-10-26T00:59:59.000Z'))).toBe('2025-10-26');
    expect(todayIso(new Date('2025-10-25T21:59:59.000Z'))).toBe('2025-10-25');
    expect(todayIso(new Date('2025-10-25T22:00:00.000Z'))).toBe('2025-10-26');
  });
  it('converts between API and SQL dates', () => {
    expect(apiToIso('20250301')).toBe('2025-03-01');
    expect(isoToApi('2025-03-01')).toBe('20250301');
  });
  it('turns cents into amounts with two decimals', () => {
    expect(centsToAmount(4719)).toBe(47.19);
    expect(centsToAmount(0)).toBe(0);
    expect(centsToAmount(100000001)).toBe(1000000.01);
  });
});

describe('madridDateTime', () => {
  it('shows a moment on the Madrid clock, winter and summer, whatever the machine zone', () => {
    expect(madridDateTime(new Date('2026-11-21T11:36:00Z'))).toEqual({
      date: '2026-11-21',
      time: '12:36',
    });
    expect(madridDateTime(new Date('2026-07-01T22:05:00Z'))).toEqual({
      date: '2026-07-02',
      time: '00:05',
    });
  });
});
