import { useSyncExternalStore } from 'react';

/** Tailwind's `lg` (64rem): from here the lists are tables, below it cards. */
export const desktopQuery = '(min-width: 64rem)';

/**
 * Whether a media query matches now, kept current as the window changes. Where the browser has no
 * `matchMedia` (tests, the server) it answers false: the mobile layout, which works everywhere.
 */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (listener) => {
      const list = window.matchMedia?.(query);
      list?.addEventListener('change', listener);
      return () => list?.removeEventListener('change', listener);
    },
    () => window.matchMedia?.(query).matches ?? false,
    () => false,
  );
}
