import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { applyTheme, getInitialTheme, setTheme, useTheme } from './theme';

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
