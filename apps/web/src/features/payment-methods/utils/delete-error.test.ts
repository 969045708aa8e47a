import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { deleteErrorKind } from './delete-error';

const inUse = new ApiError(409, 'method_in_use');

describe('why a method could not be deleted', () => {
  it('tells the main method, a pending request and a payment in progress apart', () => {
    expect(deleteErrorKind(inUse, { is_main: true, pending_request: null })).toBe('main');
    expect(deleteErrorKind(inUse, { is_main: false, pending_request: 'verification' })).toBe(
      'pendingRequest',
    );
    expect(deleteErrorKind(inUse, { is_main: false, pending_request: null })).toBe('inUse');
  });

  it('knows a deleted method, no connection and anything else', () => {
    const method = { is_main: false, pending_request: null };
    expect(deleteErrorKind(new ApiError(404, 'not_found'), method)).toBe('notFound');
    expect(deleteErrorKind(new ApiError(0, 'network_error'), method)).toBe('network');
    expect(deleteErrorKind(new ApiError(500, 'internal_error'), method)).toBe('generic');
    expect(deleteErrorKind(new Error('boom'), method)).toBe('generic');
  });
});
