import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { setAuth } from './auth-store';
import { isRetryable, queryClient } from './query-client';

const user = (id: string) => ({ id, code: 'C', name: 'N', email: 'e@x.test' });

describe('queryClient', () => {
  it('retries only calls without an answer or with a server error', () => {
    expect(isRetryable(new ApiError(0, 'network_error'))).toBe(true);
    expect(isRetryable(new ApiError(503, 'service_unavailable'))).toBe(true);
    expect(isRetryable(new ApiError(404, 'not_found'))).toBe(false);
    expect(isRetryable(new ApiError(422, 'validation_failed'))).toBe(false);
  });

  it('forgets cached answers when the customer changes, not when the token is refreshed', () => {
    setAuth({ accessToken: 'a', user: user('1') });
    queryClient.setQueryData(['probe'], 'one');
    setAuth({ accessToken: 'b', user: user('1') });
    expect(queryClient.getQueryData(['probe'])).toBe('one');
    setAuth({ accessToken: 'c', user: user('2') });
    expect(queryClient.getQueryData(['probe'])).toBeUndefined();
    queryClient.setQueryData(['probe'], 'two');
    setAuth({});
    expect(queryClient.getQueryData(['probe'])).toBeUndefined();
  });
});
