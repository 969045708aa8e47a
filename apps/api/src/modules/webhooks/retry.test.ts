import { describe, expect, it } from 'vitest';
import { retryDelaySeconds } from './retry.ts';

const defaults = { baseSeconds: 30, maxSeconds: 6 * 3600 };

describe('webhook retry schedule', () => {
  it('doubles from the base, capped at the maximum', () => {
    const noJitter = () => 0;
    const delays = [1, 2, 3, 4, 10, 11, 12, 19].map((n) =>
      retryDelaySeconds(n, defaults, noJitter),
    );
    expect(delays).toEqual([30, 60, 120, 240, 15360, 21600, 21600, 21600]);
    expect(retryDelaySeconds(1000, defaults, noJitter)).toBe(21600);
  });

  it('takes at most 20% off with jitter and never exceeds the cap', () => {
    expect(retryDelaySeconds(1, defaults, () => 1)).toBeCloseTo(24);
    expect(retryDelaySeconds(3, defaults, () => 0.5)).toBeCloseTo(108);
    for (let attempt = 1; attempt <= 25; attempt++) {
      const d = retryDelaySeconds(attempt, defaults);
      const full = Math.min(defaults.maxSeconds, defaults.baseSeconds * 2 ** (attempt - 1));
      expect(d).toBeGreaterThanOrEqual(full * 0.8);
      expect(d).toBeLessThanOrEqual(full);
    }
  });

  it('adds up to about three days over the default 20 attempts', () => {
    let total = 0;
    for (let attempt = 1; attempt < 20; attempt++)
      total += retryDelaySeconds(attempt, defaults, () => 0);
    expect(total / 3600).toBeGreaterThan(60);
    expect(total / 3600).toBeLessThan(72);
  });

  it('retries at once with a zero base', () => {
    expect(retryDelaySeconds(5, { baseSeconds: 0, maxSeconds: 10 })).toBe(0);
  });
});
