import { describe, expect, it } from 'vitest';
import { isSpanishTaxId } from './tax-id.ts';

describe('Spanish tax ids', () => {
  it.each([
    '12345678Z',
    '00000000T',
    '12.345.678-z',
    'X1234567L',
    'Y1234567X',
    'Z1234567R',
    'B87654323',
    'G28123453',
    'Q2826000H',
    'A58818501',
  ])('accepts %s', (id) => expect(isSpanishTaxId(id)).toBe(true));
  it.each([
    '12345678A',
    '1234567Z',
    'X1234567A',
    'B87654320',
    'Q2826000A',
    'A5881850A',
    '',
    'ABCDEFGHI',
  ])('refuses %s', (id) => expect(isSpanishTaxId(id)).toBe(false));
});
