/**
 * Local storage that never throws: private browsing, a full quota or a disabled storage only lose
 * the remembered value, never break the app.
 */
export function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStorage(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Nothing to do: the value is simply not remembered.
  }
}

export function removeStorage(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // Nothing to do: storage is unavailable, so nothing was stored either.
  }
}

/** Every local-storage key of the app (spec §3 "Storage"). */
export const storageKeys = {
  auth: 'auth',
  lastPath: 'lastPath',
  language: 'language',
  theme: 'theme',
  testingPaymentFails: 'testingPaymentFails',
} as const;
