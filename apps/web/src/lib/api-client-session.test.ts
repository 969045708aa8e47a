import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest, parseRetryAfter } from './api-client';
import { getAuth, setAuth } from './auth-store';
import { onSessionEnd } from './session';

const user = { id: 'u1', code: 'C1', name: 'Ana', email: 'ana@demo.test' };

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });

const expired = () => json(403, { message: 'Token expired', code: 'token_expired' });

/**
 * A fake API: `/refresh-token` answers `refresh` (after `refreshDelay` ms); every other call
 * answers 403 token_expired to an old token and 200 to the token the refresh hands out.
 */
function fakeApi({
  refresh = () => json(200, { access_token: 'fresh', accessToken: 'fresh' }),
} = {}) {
  const calls: { url: string; auth: string | null }[] = [];
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const url = String(input);
    const auth = new Headers(init?.headers).get('Authorization');
    calls.push({ url, auth });
    if (url.endsWith('/refresh-token')) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      return refresh();
    }
    return auth === 'Bearer fresh' ? json(200, { name: 'Ana' }) : expired();
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, refreshes: () => calls.filter((c) => c.url.endsWith('/refresh-token')).length };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('apiRequest and the session (spec §4)', () => {
  it('answers a 403 token_expired with one refresh and one retry with the new token', async () => {
    setAuth({ user, accessToken: 'stale' });
    const api = fakeApi();
    await expect(apiRequest('userProfile', { params: { id: 'u1' } })).resolves.toEqual({
      name: 'Ana',
    });
    expect(api.refreshes()).toBe(1);
    expect(api.calls.map((c) => c.auth)).toEqual(['Bearer stale', null, 'Bearer fresh']);
    expect(getAuth()).toEqual({ user, accessToken: 'fresh' });
  });

  it('shares one refresh between requests refused at the same time', async () => {
    setAuth({ user, accessToken: 'stale' });
    const api = fakeApi();
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => apiRequest('userProfile', { params: { id: 'u1' } })),
    );
    expect(answers).toHaveLength(4);
    expect(api.refreshes()).toBe(1);
    expect(api.calls.filter((c) => c.auth === 'Bearer fresh')).toHaveLength(4);
  });

  it('retries only once: a second 403 is the caller’s error', async () => {
    setAuth({ user, accessToken: 'stale' });
    const fetchMock = vi.fn<typeof fetch>(async (input) =>
      String(input).endsWith('/refresh-token') ? json(200, { accessToken: 'fresh' }) : expired(),
    );
    vi.stubGlobal('fetch', fetchMock);
    await expect(apiRequest('userProfile', { params: { id: 'u1' } })).rejects.toMatchObject({
      status: 403,
      code: 'token_expired',
    });
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('ends the session when the refresh is refused: auth cleared, /login asked for', async () => {
    setAuth({ user, accessToken: 'stale' });
    fakeApi({ refresh: () => json(401, { code: 'unauthorized' }) });
    const ended = vi.fn();
    const stop = onSessionEnd(ended);
    await expect(apiRequest('userProfile', { params: { id: 'u1' } })).rejects.toBeInstanceOf(
      ApiError,
    );
    stop();
    expect(getAuth()).toEqual({});
    expect(ended).toHaveBeenCalledTimes(1);
  });

  it('keeps the session when the refresh gets no answer', async () => {
    setAuth({ user, accessToken: 'stale' });
    fakeApi({
      refresh: () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await expect(apiRequest('userProfile', { params: { id: 'u1' } })).rejects.toMatchObject({
      status: 0,
      code: 'network_error',
    });
    expect(getAuth()).toEqual({ user, accessToken: 'stale' });
  });

  it('ends the session on a 401 of a signed-in call', async () => {
    setAuth({ user, accessToken: 'forged' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(401, { code: 'unauthorized' })),
    );
    const ended = vi.fn();
    const stop = onSessionEnd(ended);
    await expect(apiRequest('userProfile', { params: { id: 'u1' } })).rejects.toMatchObject({
      status: 401,
    });
    stop();
    expect(getAuth()).toEqual({});
    expect(ended).toHaveBeenCalledTimes(1);
  });

  it('leaves the session alone on a 401 of the sign-in call itself', async () => {
    setAuth({ user, accessToken: 'kept' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(401, { code: 'invalid_credentials' })),
    );
    await expect(
      apiRequest('login', { body: { email: 'a@b.es', password: 'x' } }),
    ).rejects.toMatchObject({ status: 401, code: 'invalid_credentials' });
    expect(getAuth().accessToken).toBe('kept');
  });

  it('carries Retry-After of a 429 in seconds', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(429, { code: 'rate_limited' }, { 'Retry-After': '125' })),
    );
    await expect(apiRequest('forgotPassword', { body: { email: 'a@b.es' } })).rejects.toMatchObject(
      { status: 429, code: 'rate_limited', retryAfterSeconds: 125 },
    );
    const now = Date.parse('2026-01-01T10:00:00Z');
    expect(parseRetryAfter('Thu, 01 Jan 2026 10:02:00 GMT', now)).toBe(120);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
