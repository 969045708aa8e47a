import { readStorage, storageKeys } from './storage';

/**
 * A language code safe to take from outside (storage, the browser): what i18next accepted as
 * one, so no markup can reach `<html lang>` through here.
 */
export const isSafeLanguageCode = (code: unknown): code is string =>
  typeof code === 'string' &&
  /^[A-Za-z0-9_@.-]{1,128}$/.test(code) &&
  !code.includes('..') &&
  !['__proto__', 'constructor', 'prototype'].includes(code);

/**
 * Spec §4: the stored choice, then the browser's languages, in that order; ./i18n.ts takes the
 * first it supports (by its language part), else `es`.
 *
 * Only a choice is stored (the language dialog, `changeLanguage` in ./i18n.ts), never what was
 * detected: a browser whose language changes is followed until the person picks one, and a
 * language seen for a moment (a page left while it starts) never sticks.
 */
export function detectLanguages(): string[] {
  // Rendering on the server (entry-server.tsx) there is no browser: the page says its language.
  if (typeof window === 'undefined') return [];
  const { languages = [], language } = window.navigator;
  const stored = readStorage(storageKeys.language);
  return [stored, ...languages, language].filter(isSafeLanguageCode);
}
