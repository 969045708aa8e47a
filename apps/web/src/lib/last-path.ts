import { paths } from '@/config/paths';
import { readStorage, removeStorage, storageKeys, writeStorage } from './storage';

/**
 * Spec §2 "last visited path": the path and query of every navigation are saved; after signing in,
 * or after a session restored at an entry screen, the app goes back there.
 *
 * The screens of signing in (login, register, recovery, reset, the external sign-in return) are
 * not saved: the spec never goes back to them, and saving them would overwrite the screen the
 * customer was sent away from, which is the one to return to.
 */
const signedOutScreens: readonly string[] = [
  paths.root,
  paths.login,
  paths.register,
  paths.recoverPassword,
  paths.resetPassword,
  paths.loginLink,
  paths.verifySignIn,
  paths.signInLink,
  paths.endSessionLink,
];
const authCallback = /^\/auth\/[^/]+\/callback\/?$/;

/** Screens a visitor lands on: there a restored session moves on to the saved path. */
const entryScreens: readonly string[] = [paths.root, paths.login, paths.register];

const pathnameOf = (path: string): string => {
  const end = path.search(/[?#]/);
  const pathname = end === -1 ? path : path.slice(0, end);
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
};

/** A saved path worth going back to: an absolute in-app path that is not a sign-in screen. */
export function isRestorablePath(path: string | null | undefined): path is string {
  if (!path || !path.startsWith('/') || path.startsWith('//')) return false;
  const pathname = pathnameOf(path);
  return !signedOutScreens.includes(pathname) && !authCallback.test(pathname);
}

/** Saves the path (with its query) of a navigation; sign-in screens are left out (see above). */
export function rememberPath(path: string): void {
  if (isRestorablePath(path)) writeStorage(storageKeys.lastPath, path);
}

/** The saved path, left in place (a sign-in link carries it away by e-mail); `null` if none. */
export function peekLastPath(): string | null {
  const saved = readStorage(storageKeys.lastPath);
  return isRestorablePath(saved) ? saved : null;
}

/** The saved path, cleared as it is read; `null` when there is none worth going back to. */
export function takeLastPath(): string | null {
  const saved = readStorage(storageKeys.lastPath);
  removeStorage(storageKeys.lastPath);
  return isRestorablePath(saved) ? saved : null;
}

/** Where a customer goes after signing in (password or external): the saved path, else /home. */
export function pathAfterSignIn(): string {
  return takeLastPath() ?? paths.home;
}

/**
 * Where a restored session moves on from `current` (path and query), or `null` to stay. Only from
 * an entry screen: a deep link or a reload stays where it is (a saved path from another tab must
 * not pull it away). From the root with nothing saved the route table's own rule applies.
 */
export function pathAfterRestore(current: string, isSignedIn: boolean): string | null {
  if (!isSignedIn) return null;
  const pathname = pathnameOf(current);
  if (!entryScreens.includes(pathname)) return null;
  const saved = takeLastPath();
  if (saved) return saved;
  return pathname === paths.root ? null : paths.home;
}

/** Signing out forgets where the customer was, so the next person starts at home. */
export function forgetLastPath(): void {
  removeStorage(storageKeys.lastPath);
}
