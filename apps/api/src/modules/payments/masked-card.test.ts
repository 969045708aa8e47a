import { describe, expect, it } from 'vitest';
import { maskedCardNumber } from './service.ts';

describe('maskedCardNumber', () => {
  it('keeps six digits of the BIN at most and the last four', () => {
    expect(maskedCardNumber('454881******0004')).toBe('454881******0004');
    expect(maskedCardNumber('45488120****0004')).toBe('454881******0004');
    expect(maskedCardNumber('4548812049****0004')).toBe('454881********0004');
    expect(maskedCardNumber('5576******8500')).toBe('5576******8500');
  });

  it('never answers a run of seven digits (the table refuses one)', () => {
    for (const n of ['45488120****0004', '4548812049****0004', '1234567890123****9999']) {
      const masked = maskedCardNumber(n);
      if (masked !== null) expect(masked).not.toMatch(/[0-9]{7,}/);
    }
  });

  it('drops what is not a masked number', () => {
    expect(maskedCardNumber('4548812049400004')).toBeNull();
    expect(maskedCardNumber('4548***0004')).toBeNull();
    expect(maskedCardNumber('')).toBeNull();
    expect(maskedCardNumber('454881-*****-0004')).toBeNull();
  });
});
