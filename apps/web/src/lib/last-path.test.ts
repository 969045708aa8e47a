import { describe, expect, it } from 'vitest';
import {
  forgetLastPath,
  isRestorablePath,
  pathAfterRestore,
  pathAfterSignIn,
  rememberPath,
  takeLastPath,
} from './last-path';

const saved = () => localStorage.getItem('lastPath');

describe('last visited path (spec §2)', () => {
  it('saves path and query, but never the sign-in screens', () => {
    rememberPath('/invoices?page=2');
    expect(saved()).toBe('/invoices?page=2');
    for (const path of [
      '/',
      '/login',
      '/login?signin_error=sign_in_failed',
      '/register',
      '/recover-password',
      '/reset-password?token=t&email=a%40b.es',
      '/auth/google/callback?code=c&state=s',
    ]) {
      rememberPath(path);
      expect(saved()).toBe('/invoices?page=2');
    }
  });

  it('goes back to the saved path after signing in, once, else /home', () => {
    localStorage.setItem('lastPath', '/invoice-detail/7?x=1');
    expect(pathAfterSignIn()).toBe('/invoice-detail/7?x=1');
    expect(saved()).toBeNull();
    expect(pathAfterSignIn()).toBe('/home');
  });

  it('ignores a saved root, /login or /register, and anything that is not an app path', () => {
    for (const path of ['/', '/login', '/register', '//evil.example/x', 'https://x.es/', '']) {
      localStorage.setItem('lastPath', path);
      expect(pathAfterSignIn()).toBe('/home');
    }
    expect(isRestorablePath('/user-profile')).toBe(true);
    expect(isRestorablePath('/login/')).toBe(false);
  });

  it('after a restored session: entry screens move on, deep links stay', () => {
    localStorage.setItem('lastPath', '/mis-pagos');
    expect(pathAfterRestore('/user-profile', true)).toBeNull();
    expect(pathAfterRestore('/login', false)).toBeNull();
    expect(pathAfterRestore('/login', true)).toBe('/mis-pagos');
    expect(saved()).toBeNull();
    expect(pathAfterRestore('/login', true)).toBe('/home');
    // The root keeps the route table's rule (to /invoices) when nothing was saved.
    expect(pathAfterRestore('/', true)).toBeNull();
    localStorage.setItem('lastPath', '/mi-actividad');
    expect(pathAfterRestore('/', true)).toBe('/mi-actividad');
  });

  it('is forgotten on sign-out and taken only once', () => {
    rememberPath('/home');
    forgetLastPath();
    expect(takeLastPath()).toBeNull();
  });
});
