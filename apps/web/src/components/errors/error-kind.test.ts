import { describe, expect, it } from 'vitest';
import { errorKindOf } from './error-kind';

describe('errorKindOf (spec §6)', () => {
  it('maps 401 and 403 to access denied and 404 to not found', () => {
    expect(errorKindOf({ status: 401 })).toBe('accessDenied');
    expect(errorKindOf({ status: 403, code: 'token_expired' })).toBe('accessDenied');
    expect(errorKindOf({ status: 404 })).toBe('notFound');
  });

  it('reads "unauthorized", "forbidden" and "not found" in the text', () => {
    expect(errorKindOf(new Error('Forbidden'))).toBe('accessDenied');
    expect(errorKindOf({ code: 'unauthorized' })).toBe('accessDenied');
    expect(errorKindOf({ statusText: 'Not Found' })).toBe('notFound');
    expect(errorKindOf('not_found')).toBe('notFound');
  });

  it('answers the general error otherwise', () => {
    expect(errorKindOf(new Error('boom'))).toBe('general');
    expect(errorKindOf({ status: 500 })).toBe('general');
    expect(errorKindOf(undefined)).toBe('general');
  });
});
