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

/** Applies the theme of the stored choice or the system; the entry module calls it before React. */
export function initTheme(): Theme {
  const theme = getTheme();
  applyTheme(theme);
  return theme;
}

/** Applies, stores and announces a theme choice. */
export function setTheme(theme: Theme): void {
  current = theme;
  applyTheme(theme);
  writeStorage(storageKeys.theme, theme);
  for (const listener of listeners) listener();
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
