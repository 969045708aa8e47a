import { useSyncExternalStore } from 'react';
import { readStorage, storageKeys, writeStorage } from './storage';

export type Theme = 'light' | 'dark';

/** Browser colour of each theme (the `theme-color` meta): white and gray-900. */
const themeColors: Record<Theme, string> = { light: '#ffffff', dark: '#101828' };

function isTheme(value: unknown): value is Theme {
  return value === 'light' || value === 'dark';
}

/** Spec §4: the stored choice, else the system's dark preference, else light. */
export function getInitialTheme(
  stored: string | null = readStorage(storageKeys.theme),
  prefersDark: boolean = window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false,
): Theme {
  if (isTheme(stored)) return stored;
  return prefersDark ? 'dark' : 'light';
}

/** Applies a theme as the class `dark` on `<html>`; Tailwind's `dark:` variant is bound to it. */
export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
  for (const meta of document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')) {
    meta.content = themeColors[theme];
  }
}

let current: Theme | null = null;
const listeners = new Set<() => void>();

function getTheme(): Theme {
  current ??= getInitialTheme();
  return current;
}

function announce(theme: Theme): void {
  current = theme;
  applyTheme(theme);
  for (const listener of listeners) listener();
}

/**
 * Spec §4 while the customer has not chosen: the system's preference, also when it changes with
 * the page open (a phone that turns dark at sunset). A stored choice always wins. Returns the
 * function that stops following.
 */
export function followSystemTheme(
  media: MediaQueryList | undefined = window.matchMedia?.('(prefers-color-scheme: dark)'),
): () => void {
  if (!media) return () => {};
  const onChange = (event: MediaQueryListEvent) => {
    if (isTheme(readStorage(storageKeys.theme))) return;
    announce(event.matches ? 'dark' : 'light');
  };
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
}

/**
 * Applies the theme of the stored choice or the system, and follows the system's from then on
 * while nothing is stored; the entry module calls it before React.
 */
export function initTheme(): Theme {
  const theme = getTheme();
  applyTheme(theme);
  followSystemTheme();
  return theme;
}

/** Applies, stores and announces a theme choice. */
export function setTheme(theme: Theme): void {
  writeStorage(storageKeys.theme, theme);
  announce(theme);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** What a prerendered page shows before hydration knows the theme (a closed menu's switch). */
const serverTheme = (): Theme => 'light';

export function useTheme(): [Theme, (theme: Theme) => void] {
  const theme = useSyncExternalStore(subscribe, getTheme, serverTheme);
  return [theme, setTheme];
}
