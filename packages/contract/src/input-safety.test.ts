import { describe, expect, it } from 'vitest';
import { findUnsafeInput, hasUnsafeText, unsafeNumberCode } from './input-safety.ts';

describe('text no field accepts', () => {
  it.each([
    ['a NUL byte', '\u0000'],
    ['a NUL inside', 'Laura\u0000Soler'],
    ['a bell', 'x\u0007'],
    ['an escape', '\u001b[31m'],
    ['a vertical tab', 'a\u000bb'],
    ['DEL', 'a\u007f'],
    ['a lone high surrogate', '\ud800'],
    ['a lone low surrogate', 'a\udc00b'],
    ['a high surrogate at the end', 'abc\udbff'],
    ['two high surrogates', '\ud83d\ud83d'],
  ])('refuses %s', (_what, value) => expect(hasUnsafeText(value)).toBe(true));

  it.each([
    ['plain text', 'Laura Soler'],
    ['tabs and new lines', 'line 1\r\nline 2\tend'],
    ['accents and ñ', 'Añoreta, Lleida, Euskal Herria'],
    ['an emoji (a surrogate pair)', 'Hola 😀'],
    ['right-to-left text', 'مرحبا'],
    ['an empty string', ''],
  ])('accepts %s', (_what, value) => expect(hasUnsafeText(value)).toBe(false));
});

describe('numbers no field accepts', () => {
  it.each([
    [-0, 'invalid_format'],
    [Number.MAX_SAFE_INTEGER + 2, 'too_big'],
    [1e308, 'too_big'],
    [-1e308, 'too_small'],
    [2 ** 63, 'too_big'],
    [Number.NaN, 'invalid_type'],
    [Number.POSITIVE_INFINITY, 'invalid_type'],
  ])('refuses %s with %s', (value, code) => expect(unsafeNumberCode(value)).toBe(code));

  it.each([0, 1, -1, 12.5, 2 ** 31, -(2 ** 31), Number.MAX_SAFE_INTEGER])('accepts %s', (value) =>
    expect(unsafeNumberCode(value)).toBeUndefined(),
  );
});

describe('findUnsafeInput', () => {
  it('names every field at fault by its dotted path, and the whole value by its context', () => {
    expect(
      findUnsafeInput({
        name: 'ok',
        lines: [{ concept: 'a\u0000' }, { amount: -0 }],
        ids: ['x', '\ud800'],
        ['bad\u0000key']: 1,
      }),
    ).toEqual({
      'lines.0.concept': ['invalid_characters'],
      'lines.1.amount': ['invalid_format'],
      'ids.1': ['invalid_characters'],
      body: ['invalid_characters'],
    });
    expect(findUnsafeInput('\u0000', 'params')).toEqual({ params: ['invalid_characters'] });
    expect(findUnsafeInput({ ok: ['fine', 1, true, null] })).toEqual({});
    expect(findUnsafeInput(undefined)).toEqual({});
  });

  it('refuses nesting deeper than any call uses, without walking it all', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 10_000; i++) deep = { a: deep };
    expect(Object.values(findUnsafeInput(deep)).flat()).toEqual(['too_big']);
  });
});
