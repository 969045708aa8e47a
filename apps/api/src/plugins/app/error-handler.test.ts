import { describe, expect, it } from 'vitest';
import { toFieldErrors } from './error-handler.ts';

describe('field errors of a 422', () => {
  it('keys errors by dotted field path and keeps the contract codes', () => {
    expect(
      toFieldErrors([
        { instancePath: '/email', keyword: 'invalid_format', message: 'invalid_email' },
        { instancePath: '/email', keyword: 'too_small', message: 'required' },
        {
          instancePath: '/lines/0/amount',
          keyword: 'too_small',
          message: 'Too small: expected >0',
        },
        { instancePath: '', keyword: 'invalid_type', message: 'Invalid input' },
      ]),
    ).toEqual({
      email: ['invalid_email', 'required'],
      'lines.0.amount': ['too_small'],
      body: ['invalid_type'],
    });
  });

  it('never passes zod prose through as a code', () => {
    const errors = toFieldErrors([
      { instancePath: '/x', keyword: 'custom', message: 'some prose' },
    ]);
    expect(errors).toEqual({ x: ['invalid_value'] });
  });
});
