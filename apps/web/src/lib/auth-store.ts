import { readStorage, storageKeys, writeStorage } from './storage';

/** Spec §3 "Auth state": local-storage key `auth`, JSON `{user, accessToken}`; `{}` when signed out. */
export type AuthUser = { id: string; code: string; name: string; email: string };
export type AuthState = { user?: AuthUser; accessToken?: string };

const listeners = new Set<() => void>();
let cachedRaw: string | null | undefined;
let cachedState: AuthState = {};

function parse(raw: string | null): AuthState {
  if (!raw) return {};
  try {
    const value: unknown = JSON.parse(raw);
    if (!value || typeof value !== 'object') return {};
    const { user, accessToken } = value as Record<string, unknown>;
    return {
      ...(user && typeof user === 'object' ? { user: user as AuthUser } : {}),
      ...(typeof accessToken === 'string' && accessToken ? { accessToken } : {}),
    };
  } catch {
    return {};
  }
}

/** The stored auth state; the same object until storage changes (as useSyncExternalStore needs). */
export function getAuth(): AuthState {
  const raw = readStorage(storageKeys.auth);
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cachedState = parse(raw);
  }
  return cachedState;
}

export function getAccessToken(): string | undefined {
  return getAuth().accessToken;
}

/** Spec §4: every auth update is written to storage. */
export function setAuth(state: AuthState): void {
  writeStorage(storageKeys.auth, JSON.stringify(state));
  for (const listener of listeners) listener();
}

export function clearAuth(): void {
  setAuth({});
}

export function subscribeAuth(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab signing in or out changes this one too.
  const onStorage = (event: StorageEvent) => {
    if (event.key === storageKeys.auth || event.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}
