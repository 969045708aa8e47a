import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { limitReached } from './limit-error';

describe('limitReached', () => {
  it('names the cap of each 409 code with its number', () => {
    expect(limitReached(new ApiError(409, 'payment_method_limit'))).toEqual({
      key: 'paymentMethods',
      max: 10,
    });
    expect(limitReached(new ApiError(409, 'pending_request_limit'))).toEqual({
      key: 'pendingRequests',
      max: 5,
    });
    expect(limitReached(new ApiError(409, 'card_attempt_limit'))).toEqual({
      key: 'cardAttempts',
      max: 3,
    });
  });

  it('is null for anything else', () => {
    expect(limitReached(new ApiError(409, 'conflict'))).toBeNull();
    expect(limitReached(new ApiError(0, 'network_error' as never))).toBeNull();
    expect(limitReached(new Error('x'))).toBeNull();
    expect(limitReached(null)).toBeNull();
  });
});
