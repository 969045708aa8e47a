import { routePaths } from '@portal/contract/paths';
import { type AuthState, getAuth, setAuth } from './auth-store';
import { readCookie, xsrfCookie, xsrfHeader } from './cookies';
import { getApiBase } from './tenant';

/**
 * The session of spec §4: restoring it at start, refreshing the access token, ending it.
 *
 * The refresh token is an httpOnly cookie that the server rotates at every use and whose reuse
 * revokes the whole session. So a refresh must never run twice with the same cookie: in one tab
 * concurrent callers share one request (single flight), and across tabs a Web Lock serialises them;
 * whoever gets the lock second finds the token the first one stored and uses it without a request.
 */

/**
 * `rejected`: the server answered that the session is gone (401/403, or no token in the answer).
 * `unavailable`: no answer (network, 5xx): the session may well be alive, so nobody is signed out.
 */
export type RefreshResult =
  { ok: true; accessToken: string } | { ok: false; reason: 'rejected' | 'unavailable' };

type LockManagerLike = {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
};

export type SessionDeps = {
  fetch: typeof fetch;
  /** Web Locks (every current browser); without them, only the in-tab single flight applies. */
  locks: () => LockManagerLike | undefined;
  readAuth: () => AuthState;
  writeAuth: (state: AuthState) => void;
};

const defaultDeps: SessionDeps = {
  fetch: (...args) => fetch(...args),
  locks: () =>
    typeof navigator !== 'undefined' && 'locks' in navigator
      ? (navigator.locks as LockManagerLike)
      : undefined,
  readAuth: getAuth,
  writeAuth: setAuth,
};

/** Name of the Web Lock; local storage and cookies are per origin, and so is the lock. */
export const refreshLockName = 'portal:refresh-token';

export function createSession(overrides: Partial<SessionDeps> = {}) {
  const deps: SessionDeps = { ...defaultDeps, ...overrides };
  let inFlight: Promise<RefreshResult> | null = null;
  let restoring: Promise<void> | null = null;
  const endListeners = new Set<() => void>();

  /** The refresh call itself, a plain request outside the API client (spec §7). */
  async function requestRefresh(): Promise<RefreshResult> {
    const xsrf = readCookie(xsrfCookie);
    let response: Response;
    try {
      response = await deps.fetch(`${getApiBase()}${routePaths.refreshToken.path}`, {
        method: routePaths.refreshToken.method,
        credentials: 'include',
        headers: { Accept: 'application/json', ...(xsrf ? { [xsrfHeader]: xsrf } : {}) },
      });
    } catch {
      return { ok: false, reason: 'unavailable' };
    }
    if (response.status === 401 || response.status === 403)
      return { ok: false, reason: 'rejected' };
    if (!response.ok) return { ok: false, reason: 'unavailable' };
    try {
      const body = (await response.json()) as { accessToken?: unknown; access_token?: unknown };
      // Spec §4: "the response field may be accessToken or access_token".
      const token = body.accessToken ?? body.access_token;
      if (typeof token === 'string' && token) return { ok: true, accessToken: token };
    } catch {
      // An unreadable answer is treated like one without a token.
    }
    return { ok: false, reason: 'rejected' };
  }

  async function refreshUnderLock(staleToken: string | undefined): Promise<RefreshResult> {
    const auth = deps.readAuth();
    // Spec §4: no stored user, no refresh (signed out meanwhile, maybe in another tab).
    if (!auth.user) return { ok: false, reason: 'rejected' };
    // Another tab (or an earlier refresh here) already replaced the token this caller saw.
    if (auth.accessToken && auth.accessToken !== staleToken) {
      return { ok: true, accessToken: auth.accessToken };
    }
    const result = await requestRefresh();
    if (result.ok) deps.writeAuth({ ...deps.readAuth(), accessToken: result.accessToken });
    return result;
  }

  /**
   * A fresh access token in place of `staleToken` (the one a request was refused with). Callers at
   * the same time share one refresh; the stored auth is updated on success and left alone on
   * failure (the caller decides: spec §4 clears it).
   */
  function refreshAccessToken(staleToken: string | undefined): Promise<RefreshResult> {
    if (!inFlight) {
      const locks = deps.locks();
      const run = () => refreshUnderLock(staleToken);
      inFlight = (locks ? locks.request(refreshLockName, run) : run()).finally(() => {
        inFlight = null;
      });
    }
    return inFlight;
  }

  /**
   * Spec §4 at start: with a stored user, one refresh; success stores the new token, a refused
   * refresh clears the auth to `{}`. Without an answer (offline, server restarting) the stored auth
   * stays, and the first call that needs the session tries again. Runs once per page load.
   */
  function restoreSession(): Promise<void> {
    restoring ??= (async () => {
      const auth = deps.readAuth();
      if (!auth.user) return;
      const result = await refreshAccessToken(auth.accessToken);
      if (!result.ok) {
        console.warn(`Session not restored (${result.reason})`);
        if (result.reason === 'rejected') deps.writeAuth({});
      }
    })();
    return restoring;
  }

  /** Spec §4: a 401, or a refresh refused, clears the auth and goes to /login (the app listens). */
  function endSession(): void {
    deps.writeAuth({});
    for (const listener of endListeners) listener();
  }

  function onSessionEnd(listener: () => void): () => void {
    endListeners.add(listener);
    return () => endListeners.delete(listener);
  }

  return { refreshAccessToken, restoreSession, endSession, onSessionEnd };
}

const session = createSession();

export const { refreshAccessToken, restoreSession, endSession, onSessionEnd } = session;
