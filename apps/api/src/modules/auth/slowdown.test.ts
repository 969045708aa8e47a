import { describe, expect, it } from 'vitest';
import { accountGapSeconds, accountSlowdown } from './service.ts';

describe('the account-wide slow-down', () => {
  it('leaves the first attempts of a window alone', () => {
    for (const count of [0, 1, accountSlowdown.free]) expect(accountGapSeconds(count)).toBe(0);
  });

  it('grows one second per step of attempts, and never past the cap', () => {
    const { free, perSecond, maxGapSeconds } = accountSlowdown;
    expect(accountGapSeconds(free + 1)).toBe(1);
    expect(accountGapSeconds(free + perSecond)).toBe(1);
    expect(accountGapSeconds(free + perSecond + 1)).toBe(2);
    for (const count of [1_000, 1_000_000]) expect(accountGapSeconds(count)).toBe(maxGapSeconds);
    expect(maxGapSeconds).toBeLessThanOrEqual(5);
  });

  it('scales the free attempts with AUTH_LIMIT_SCALE (end-to-end suites), not the cap', () => {
    expect(accountGapSeconds(accountSlowdown.free * 20, 20)).toBe(0);
    expect(accountGapSeconds(1_000_000, 20)).toBe(accountSlowdown.maxGapSeconds);
  });
});
