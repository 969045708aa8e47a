import { describe, expect, it } from 'vitest';
import { chargedMoment, chargedOn } from './paid-date.ts';

describe('chargedOn', () => {
  const startedAt = new Date('2026-11-27T10:00:00Z');
  const now = new Date('2026-11-30T10:00:00Z');

  it("dates a payment by the gateway's day, as a notification or the query service writes it", () => {
    expect(chargedOn('27/11/2026', startedAt, now)).toBe('2026-11-27');
    expect(chargedOn('2026-11-28', startedAt, now)).toBe('2026-11-28');
  });

  it('takes today for a day that is missing, not real, before the attempt or after today', () => {
    for (const day of [undefined, '', '31/02/2026', '2026-13-01', '26/11/2026', '2026-12-01', 'x'])
      expect(chargedOn(day, startedAt, now), String(day)).toBe('2026-11-30');
  });

  it("reads both on Madrid's day: just past midnight there is the next day", () => {
    const lateNight = new Date('2026-11-30T23:30:00Z'); // 00:30 on 1 December in Madrid
    expect(chargedOn('01/12/2026', startedAt, lateNight)).toBe('2026-12-01');
  });
});

describe('chargedMoment', () => {
  const startedAt = new Date('2026-11-27T10:00:00Z');
  const now = new Date('2026-11-30T10:00:00Z');

  it("is the gateway's day and time, as either message writes them", () => {
    expect(chargedMoment('27/11/2026', '23:58', startedAt, now)).toBe('2026-11-27 23:58');
    expect(chargedMoment('2026-11-28', '09:05:41', startedAt, now)).toBe('2026-11-28 09:05');
  });

  it('is none without a day chargedOn takes or without a time', () => {
    expect(chargedMoment('26/11/2026', '10:00', startedAt, now)).toBeNull();
    expect(chargedMoment('27/11/2026', '24:00', startedAt, now)).toBeNull();
    expect(chargedMoment('27/11/2026', undefined, startedAt, now)).toBeNull();
  });
});
