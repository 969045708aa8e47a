import { describe, expect, it } from 'vitest';
import {
  RedsysError,
  amountToRedsys,
  isAuthorised,
  isCustomerCancel,
  isSameTerminal,
  isValidOrderNumber,
  newOrderNumber,
  padTerminal,
} from './index.ts';

describe('isAuthorised', () => {
  it.each(['0000', '0001', '0050', '0099'])('%s is authorised', (code) => {
    expect(isAuthorised(code)).toBe(true);
  });
  it.each([
    '0100',
    '0101',
    '0184',
    '0190',
    '0400', // cancellation accepted
    '0900', // refund / confirmation accepted
    '0950',
    '9915',
    '9999',
    '99',
    '0',
    '',
    ' 0000',
    '0000 ',
    '-001',
    '00.0',
    '000a',
    'SIS0042',
  ])('%j is not', (code) => {
    expect(isAuthorised(code)).toBe(false);
  });
  it('is false for non-strings', () => {
    expect(isAuthorised(0 as unknown as string)).toBe(false);
    expect(isAuthorised(undefined as unknown as string)).toBe(false);
  });
});

describe('newOrderNumber', () => {
  it('is 4 digits then 8 alphanumerics, and does not repeat', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i += 1) {
      const order = newOrderNumber();
      expect(order).toMatch(/^\d{4}[0-9A-Za-z]{8}$/);
      expect(isValidOrderNumber(order)).toBe(true);
      seen.add(order);
    }
    expect(seen.size).toBe(2000);
  });
  it('isValidOrderNumber follows Redsys rule', () => {
    expect(isValidOrderNumber('1234')).toBe(true);
    expect(isValidOrderNumber('123')).toBe(false);
    expect(isValidOrderNumber('a234bcde')).toBe(false);
    expect(isValidOrderNumber('1234567890123')).toBe(false);
    expect(isValidOrderNumber('1234-567')).toBe(false);
  });
});

describe('amountToRedsys', () => {
  it('writes cents as an integer string', () => {
    expect(amountToRedsys(1)).toBe('1');
    expect(amountToRedsys(123456)).toBe('123456');
  });
  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60])('refuses %s', (value) => {
    expect(() => amountToRedsys(value)).toThrow(RedsysError);
  });
});

describe('terminals', () => {
  it('compare numerically', () => {
    expect(isSameTerminal('1', '001')).toBe(true);
    expect(isSameTerminal('001', '1')).toBe(true);
    expect(isSameTerminal('2', '001')).toBe(false);
    expect(isSameTerminal('', '0')).toBe(false);
    expect(isSameTerminal('1.0', '1')).toBe(false);
    expect(isSameTerminal(' 1', '1')).toBe(false);
  });
  it('pad to three digits like Redsys', () => {
    expect(padTerminal('1')).toBe('001');
    expect(padTerminal('871')).toBe('871');
  });
});

describe('isCustomerCancel', () => {
  it("is only the customer's own cancel on the gateway's page (9915)", () => {
    expect(isCustomerCancel('9915')).toBe(true);
    for (const code of ['0000', '0190', '9912', '9998', '915', '', '09915'])
      expect(isCustomerCancel(code), code).toBe(false);
  });
});
