import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuthState } from './auth-store';
import { createSession, refreshLockName } from './session';

const user = { id: 'u1', code: 'C1', name: 'Ana', email: 'ana@demo.test' };

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

/** A session over an in-memory auth, a scripted refresh endpoint and optional Web Locks. */
function setup({
  auth = { user, accessToken: 'old' } as AuthState,
  answers = [] as (Response | Error)[],
  locks,
}: {
  auth?: AuthState;
  answers?: (Response | Error)[];
  locks?: { request<T>(name: string, callback: () => Promise<T>): Promise<T> };
} = {}) {
  const state = { auth };
  const fetchMock = vi.fn<typeof fetch>(async () => {
    const next = answers.shift() ?? json(200, { access_token: 'new', accessToken: 'new' });
    if (next instanceof Error) throw next;
    return next;
  });
  const session = createSession({
    fetch: fetchMock,
    locks: () => locks,
    readAuth: () => state.auth,
    writeAuth: (next) => {
      state.auth = next;
    },
  });
  return { session, state, fetchMock };
}

afterEach(() => {
  document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
});

describe('refreshAccessToken (spec §4)', () => {
  it('posts /refresh-token with credentials and the XSRF header, and stores the new token', async () => {
    document.cookie = 'XSRF-TOKEN=x%3Dy; path=/';
    const { session, state, fetchMock } = setup();
    await expect(session.refreshAccessToken('old')).resolves.toEqual({
      ok: true,
      accessToken: 'new',
    });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/1/api/1.0/refresh-token');
    expect(init?.method).toBe('POST');
    expect(init?.credentials).toBe('include');
    expect(new Headers(init?.headers).get('X-XSRF-TOKEN')).toBe('x=y');
    expect(state.auth).toEqual({ user, accessToken: 'new' });
  });

  it('reads either accessToken or access_token', async () => {
    const { session, state } = setup({ answers: [json(200, { access_token: 'snake' })] });
    await session.refreshAccessToken('old');
    expect(state.auth.accessToken).toBe('snake');
  });

  it('shares one request between callers at the same time (single flight)', async () => {
    const { session, fetchMock } = setup();
    const results = await Promise.all([
      session.refreshAccessToken('old'),
      session.refreshAccessToken('old'),
      session.refreshAccessToken('old'),
    ]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(results.every((r) => r.ok && r.accessToken === 'new')).toBe(true);
  });

  it('does not refresh again for a caller whose token was already replaced', async () => {
    const { session, fetchMock } = setup();
    await session.refreshAccessToken('old');
    // A request that failed with the old token after the first refresh finished.
    await expect(session.refreshAccessToken('old')).resolves.toEqual({
      ok: true,
      accessToken: 'new',
    });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('runs under a Web Lock, and uses what another tab stored meanwhile', async () => {
    const names: string[] = [];
    let otherTabRefreshed = false;
    const state = { auth: { user, accessToken: 'old' } as AuthState };
    const locks = {
      async request<T>(name: string, callback: () => Promise<T>) {
        names.push(name);
        // Another tab held the lock and rotated the session first.
        if (!otherTabRefreshed) {
          otherTabRefreshed = true;
          state.auth = { user, accessToken: 'from-other-tab' };
        }
        return callback();
      },
    };
    const fetchMock = vi.fn<typeof fetch>();
    const session = createSession({
      fetch: fetchMock,
      locks: () => locks,
      readAuth: () => state.auth,
      writeAuth: (next) => {
        state.auth = next;
      },
    });
    await expect(session.refreshAccessToken('old')).resolves.toEqual({
      ok: true,
      accessToken: 'from-other-tab',
    });
    expect(names).toEqual([refreshLockName]);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('tells a refused session (401/403) from an unreachable server', async () => {
    for (const status of [401, 403]) {
      const { session, state } = setup({ answers: [json(status, { code: 'unauthorized' })] });
      await expect(session.refreshAccessToken('old')).resolves.toEqual({
        ok: false,
        reason: 'rejected',
      });
      expect(state.auth.accessToken).toBe('old');
    }
    const offline = setup({ answers: [new TypeError('Failed to fetch')] });
    await expect(offline.session.refreshAccessToken('old')).resolves.toEqual({
      ok: false,
      reason: 'unavailable',
    });
    const down = setup({ answers: [json(503, {})] });
    await expect(down.session.refreshAccessToken('old')).resolves.toEqual({
      ok: false,
      reason: 'unavailable',
    });
    const empty = setup({ answers: [json(200, {})] });
    await expect(empty.session.refreshAccessToken('old')).resolves.toEqual({
      ok: false,
      reason: 'rejected',
    });
  });

  it('never refreshes without a stored user', async () => {
    const { session, fetchMock } = setup({ auth: {} });
    await expect(session.refreshAccessToken(undefined)).resolves.toEqual({
      ok: false,
      reason: 'rejected',
    });
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('restoreSession (spec §4)', () => {
  it('refreshes once at start when a user is stored, and stores the token', async () => {
    const { session, state, fetchMock } = setup();
    await Promise.all([session.restoreSession(), session.restoreSession()]);
    await session.restoreSession();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(state.auth).toEqual({ user, accessToken: 'new' });
  });

  it('clears the auth to {} when the refresh is refused', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { session, state } = setup({ answers: [json(401, { code: 'unauthorized' })] });
    await session.restoreSession();
    expect(state.auth).toEqual({});
  });

  it('keeps the auth when the server cannot be reached (the next call tries again)', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { session, state } = setup({ answers: [new TypeError('offline')] });
    await session.restoreSession();
    expect(state.auth).toEqual({ user, accessToken: 'old' });
  });

  it('makes no call without a stored user', async () => {
    const { session, fetchMock } = setup({ auth: {} });
    await session.restoreSession();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('endSession', () => {
  it('clears the auth and tells the listeners (the app goes to /login)', () => {
    const { session, state } = setup();
    const listener = vi.fn();
    const stop = session.onSessionEnd(listener);
    session.endSession();
    expect(state.auth).toEqual({});
    expect(listener).toHaveBeenCalledTimes(1);
    stop();
    session.endSession();
    expect(listener).toHaveBeenCalledTimes(1);
  });
});
