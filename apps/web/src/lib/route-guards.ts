import { type LoaderFunctionArgs, redirect } from 'react-router';
import { paths } from '@/config/paths';
import { getAccessToken } from './auth-store';
import { pathAfterRestore, rememberPath } from './last-path';
import { restoreSession } from './session';

const pathOf = (request: Request): string => {
  const url = new URL(request.url);
  return url.pathname + url.search;
};

/**
 * Loader of the top route, run once per page load: the session is restored first (the full-screen
 * spinner shows meanwhile), then a restored session at an entry screen moves on to the last visited
 * path (spec §2).
 */
export async function restoreSessionLoader({ request }: LoaderFunctionArgs): Promise<null> {
  await restoreSession();
  const target = pathAfterRestore(pathOf(request), Boolean(getAccessToken()));
  if (target) throw redirect(target);
  return null;
}

/**
 * Spec §6: the signed-in screens need an access token, else /login. The screen asked for is saved
 * as the last visited path, so signing in comes back to it.
 */
export async function requireSignedIn({ request }: LoaderFunctionArgs): Promise<null> {
  await restoreSession();
  if (getAccessToken()) return null;
  rememberPath(pathOf(request));
  throw redirect(paths.login);
}

/**
 * A path no route knows: signed in, the not-found screen shows (the route's own component);
 * signed out, /login (spec §2), without remembering a path that leads nowhere.
 */
export async function unknownPathLoader(): Promise<null> {
  await restoreSession();
  if (getAccessToken()) return null;
  throw redirect(paths.login);
}
