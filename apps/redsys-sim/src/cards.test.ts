import { describe, expect, it } from 'vitest';
import { TEST_CARDS, brandOf, isLuhnValid, maskCardNumber, parseExpiry } from './cards.ts';

describe('cards', () => {
  it('the public test cards are Luhn-valid; one changed digit is not', () => {
    for (const card of Object.values(TEST_CARDS)) expect(isLuhnValid(card)).toBe(true);
    expect(isLuhnValid('4548812049400005')).toBe(false);
    expect(isLuhnValid('45488120494')).toBe(false);
    expect(isLuhnValid('4548a12049400004')).toBe(false);
  });

  it('brands as Redsys numbers them', () => {
    expect(brandOf(TEST_CARDS.authorised)).toBe('1');
    expect(brandOf(TEST_CARDS.declined)).toBe('2');
    expect(brandOf('2221000000000009')).toBe('2');
    expect(brandOf('378282246310005')).toBe('8');
    expect(brandOf('6011111111111117')).toBeUndefined();
  });

  it('masks like Ds_Card_Number', () => {
    expect(maskCardNumber('4548812049400004')).toBe('454881******0004');
    expect(maskCardNumber('378282246310005')).toBe('378282*****0005');
  });

  it('reads MM/AA and refuses bad or past dates', () => {
    const now = new Date('2026-11-21T12:00:00Z');
    expect(parseExpiry('12/34', now)).toBe('3412');
    expect(parseExpiry('1234', now)).toBe('3412');
    expect(parseExpiry(' 11 / 26 ', now)).toBe('2611');
    expect(parseExpiry('10/26', now)).toBeNull();
    expect(parseExpiry('13/30', now)).toBeNull();
    expect(parseExpiry('00/30', now)).toBeNull();
    expect(parseExpiry('1/30', now)).toBeNull();
    expect(parseExpiry('', now)).toBeNull();
  });
});
