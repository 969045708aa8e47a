import { describe, expect, it } from 'vitest';
import { failureOf } from './failure.ts';

describe('why a card payment failed', () => {
  it('reads the customer cancel, a bank decline and an error from Ds_Response', () => {
    expect(failureOf('9915')).toBe('cancelled');
    for (const code of ['0190', '0184', '0129', '0101', '0180', '190', '9093', '9966']) {
      expect(failureOf(code), code).toBe('declined');
    }
    for (const code of ['0904', '0909', '0913', '0944', '9912', '9998', '0000']) {
      expect(failureOf(code), code).toBe('error');
    }
  });

  it('calls no answer, or a malformed one, an error', () => {
    expect(failureOf(null)).toBe('error');
    expect(failureOf('')).toBe('error');
    expect(failureOf('SIS0051')).toBe('error');
    expect(failureOf('01900')).toBe('error');
  });
});
