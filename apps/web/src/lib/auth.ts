import { useCallback, useSyncExternalStore } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { apiRequest } from './api-client';
import {
  type AuthState,
  type AuthUser,
  clearAuth,
  getAuth,
  setAuth,
  subscribeAuth,
} from './auth-store';
import { forgetLastPath, rememberPath } from './last-path';

const signedOut: AuthState = {};

/**
 * The stored auth state (spec §3), re-rendering on every change, in this tab or another. The
 * server renders only the signed-out /login (entry-server.tsx): signed out there and while the
 * browser hydrates it.
 */
export function useAuth(): AuthState {
  return useSyncExternalStore(subscribeAuth, getAuth, () => signedOut);
}

/** Signed in means an access token is stored (spec §6). */
export function useIsSignedIn(): boolean {
  return Boolean(useAuth().accessToken);
}

/**
 * Stores a sign-in answer (`/login` or an external sign-in): spec §5, an answer without the user or
 * the access token is an incomplete response, and nothing is stored.
 */
export function storeSignIn(answer: { access_token?: unknown; user?: unknown }): boolean {
  const { access_token: accessToken, user } = answer;
  if (typeof accessToken !== 'string' || !accessToken || !user || typeof user !== 'object') {
    return false;
  }
  setAuth({ user: user as AuthUser, accessToken });
  return true;
}

/**
 * Revokes the session on the server (cookie route: credentials plus the XSRF header), then clears
 * the stored auth to `{}` and the last visited path whatever the answer, so a failing server never
 * keeps anyone signed in and the next person starts afresh.
 */
export async function logout(): Promise<void> {
  try {
    await apiRequest('logout');
  } catch (error) {
    console.warn('Logout call failed; signing out locally', error);
  }
  clearAuth();
  forgetLastPath();
}

export function useLogout(): () => Promise<void> {
  const navigate = useNavigate();
  return useCallback(async () => {
    await logout();
    await navigate(paths.login, { replace: true });
  }, [navigate]);
}

/**
 * Signs out and opens /login, keeping this screen to come back to after the sign-in (unlike a
 * plain logout): for a change that needs a recent sign-in, which the same customer goes on to make.
 */
export function useSignInAgain(): () => Promise<void> {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  return useCallback(async () => {
    await logout();
    rememberPath(pathname + search);
    await navigate(paths.login, { replace: true });
  }, [navigate, pathname, search]);
}
