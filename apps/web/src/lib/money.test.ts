import { describe, expect, it } from 'vitest';
import {
  formatAmount,
  formatAmountParam,
  formatNumber,
  fromCents,
  sumAmounts,
  toCents,
} from './money';

/** Intl separates the euro sign with a no-break space. */
const nbsp = (text: string) => text.replace(/ /g, '\u00a0');

describe('formatAmount (spec §9 "Amounts 2 decimals with €"; §2 "in Spanish format")', () => {
  it('shows two decimals, a decimal comma and the euro sign after the amount', () => {
    expect(formatAmount(45)).toBe(nbsp('45,00 €'));
    expect(formatAmount(0)).toBe(nbsp('0,00 €'));
    expect(formatAmount(47.19)).toBe(nbsp('47,19 €'));
    expect(formatAmount(0.005)).toBe(nbsp('0,01 €'));
  });

  it('groups thousands the Spanish way (from five digits)', () => {
    expect(formatAmount(1234.5)).toBe(nbsp('1234,50 €'));
    expect(formatAmount(12345.6)).toBe(nbsp('12.345,60 €'));
    expect(formatAmount(1234567.891)).toBe(nbsp('1.234.567,89 €'));
  });

  it('is the same whatever the interface language', async () => {
    const { changeLanguage, i18nReady } = await import('./i18n');
    await i18nReady;
    await changeLanguage('en');
    expect(formatAmount(12345.6)).toBe(nbsp('12.345,60 €'));
    await changeLanguage('es');
  });

  it('shows negatives and never a negative zero', () => {
    expect(formatAmount(-12.5)).toBe(nbsp('-12,50 €'));
    expect(formatAmount(-0)).toBe(nbsp('0,00 €'));
    expect(formatAmount(-0.001)).toBe(nbsp('0,00 €'));
  });

  it('shows dashes for what is not an amount (spec §8 "Home stats: dashes")', () => {
    expect(formatAmount(Number.NaN)).toBe('--');
    expect(formatAmount(Number.POSITIVE_INFINITY)).toBe('--');
    expect(formatAmount(undefined)).toBe('--');
    expect(formatAmount('45')).toBe('--');
  });
});

describe('cents arithmetic', () => {
  it('rounds to cents and sums exactly', () => {
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toCents(-1.005)).toBe(-101);
    expect(fromCents(4719)).toBe(47.19);
    expect(sumAmounts([0.1, 0.2])).toBe(0.3);
    expect(sumAmounts([15.73, 15.73, 15.74])).toBe(47.2);
    expect(sumAmounts([])).toBe(0);
  });

  it('writes an amount for a URL with a dot and two decimals', () => {
    expect(formatAmountParam(45)).toBe('45.00');
    expect(formatAmountParam(0.1 + 0.2)).toBe('0.30');
    expect(formatAmountParam(1234.5)).toBe('1234.50');
  });
});

describe('formatNumber (quantities and VAT rates beside amounts)', () => {
  it('uses the same es-ES format', () => {
    expect(formatNumber(2)).toBe('2');
    expect(formatNumber(1.5)).toBe('1,5');
    expect(formatNumber(21)).toBe('21');
    expect(formatNumber(Number.NaN)).toBe('--');
  });
});
