import { isSafeLanguageCode, type LanguageDetectorModule } from 'i18next';
import { readStorage, storageKeys, writeStorage } from './storage';

/**
 * Spec §4: the stored choice, then the browser's languages; every change is stored. What
 * i18next-browser-languagedetector did with `order: ['localStorage', 'navigator']` and
 * `caches: ['localStorage']`, in a few lines instead of its 10 KB (issue 6 budgets /login's bytes).
 * i18next picks the first code it supports (`supportedLngs`, `load: 'languageOnly'`), else `es`.
 */
export const languageDetector: LanguageDetectorModule = {
  type: 'languageDetector',
  detect() {
    // Rendering on the server (entry-server.tsx) there is no browser: the page says its language.
    if (typeof window === 'undefined') return [];
    const { languages = [], language } = window.navigator;
    const stored = readStorage(storageKeys.language);
    // Only codes i18next accepts from outside: no markup can reach `<html lang>` through here.
    return [stored, ...languages, language].filter((code): code is string =>
      isSafeLanguageCode(code),
    );
  },
  cacheUserLanguage(language) {
    // i18next's test language (`cimode`) is never remembered.
    if (language !== 'cimode') writeStorage(storageKeys.language, language);
  },
};
