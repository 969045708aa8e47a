import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { applyTheme, followSystemTheme, getInitialTheme, setTheme, useTheme } from './theme';

describe('getInitialTheme (spec §4)', () => {
  it('prefers the stored choice over the system preference', () => {
    expect(getInitialTheme('light', true)).toBe('light');
    expect(getInitialTheme('dark', false)).toBe('dark');
  });

  it('follows the system dark preference when nothing is stored', () => {
    expect(getInitialTheme(null, true)).toBe('dark');
  });

  it('is light otherwise, also when the stored value is not a theme', () => {
    expect(getInitialTheme(null, false)).toBe('light');
    expect(getInitialTheme('purple', false)).toBe('light');
  });

  it('reads the local-storage key "theme" by default', () => {
    localStorage.setItem('theme', 'dark');
    expect(getInitialTheme()).toBe('dark');
  });
});

describe('applyTheme and setTheme', () => {
  it('toggles the class "dark" on <html>', () => {
    applyTheme('dark');
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    applyTheme('light');
    expect(document.documentElement.classList.contains('dark')).toBe(false);
  });

  it('stores the choice and notifies the hook', () => {
    const { result } = renderHook(() => useTheme());
    act(() => setTheme('dark'));
    expect(result.current[0]).toBe('dark');
    expect(localStorage.getItem('theme')).toBe('dark');
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    act(() => result.current[1]('light'));
    expect(result.current[0]).toBe('light');
    expect(localStorage.getItem('theme')).toBe('light');
  });
});

/** A `(prefers-color-scheme: dark)` list whose system preference the test changes. */
function systemPreference(dark: boolean) {
  const target = new EventTarget();
  const media = Object.assign(target, { matches: dark, media: '(prefers-color-scheme: dark)' });
  const change = (next: boolean) => {
    media.matches = next;
    act(() => {
      media.dispatchEvent(Object.assign(new Event('change'), { matches: next }));
    });
  };
  return { media: media as unknown as MediaQueryList, change };
}

describe('followSystemTheme (spec §4: the system preference while nothing is chosen)', () => {
  it('switches the page and the hook when the system changes, if nothing is stored', () => {
    localStorage.removeItem('theme');
    const { media, change } = systemPreference(false);
    const stop = followSystemTheme(media);
    const { result } = renderHook(() => useTheme());
    change(true);
    expect(result.current[0]).toBe('dark');
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    expect(localStorage.getItem('theme')).toBeNull();
    change(false);
    expect(result.current[0]).toBe('light');
    expect(document.documentElement.classList.contains('dark')).toBe(false);
    stop();
    change(true);
    expect(result.current[0]).toBe('light');
  });

  it('leaves a stored choice alone', () => {
    const { media, change } = systemPreference(false);
    const stop = followSystemTheme(media);
    const { result } = renderHook(() => useTheme());
    act(() => setTheme('light'));
    change(true);
    expect(result.current[0]).toBe('light');
    expect(document.documentElement.classList.contains('dark')).toBe(false);
    stop();
  });
});
