import { describe, expect, it } from 'vitest';
import { lineAmountCents } from './line-amount.ts';

describe('lineAmountCents', () => {
  it('is quantity times unit price, to the cent, half away from zero', () => {
    expect(lineAmountCents(35, 1.5)).toBe(53);
    expect(lineAmountCents(35, -1.5)).toBe(-53);
    expect(lineAmountCents(-35, 1.5)).toBe(-53);
    expect(lineAmountCents(4500, 1)).toBe(4500);
    expect(lineAmountCents(4500, 0)).toBe(0);
    expect(lineAmountCents(1, 0.499)).toBe(0);
    expect(lineAmountCents(1, 0.5)).toBe(1);
    expect(lineAmountCents(333, 0.333)).toBe(111);
  });

  it('stays exact where floating point would not (large amounts, three decimals)', () => {
    expect(lineAmountCents(123_456_789, 12_345.678)).toBe(1_524_157_763_908);
    // 2,000,000.01 EUR x 2.5: 500,000,002.5 cents, a half far beyond a float's fraction digits.
    expect(lineAmountCents(200_000_001, 2.5)).toBe(500_000_003);
    expect(lineAmountCents(10, 1.005)).toBe(10);
    expect(lineAmountCents(1999, 2.675)).toBe(5347);
  });
});
