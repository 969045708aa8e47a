import { isSafeLanguageCode, type LanguageDetectorModule } from 'i18next';
import { readStorage, storageKeys } from './storage';

/**
 * Spec §4: the stored choice, then the browser's languages. What
 * i18next-browser-languagedetector did with `order: ['localStorage', 'navigator']`, in a few lines
 * instead of its 10 KB (issue 6 budgets /login's bytes). i18next picks the first code it supports
 * (`supportedLngs`, `load: 'languageOnly'`), else `es`.
 *
 * Only a choice is stored (the language dialog, `changeLanguage` in ./i18n.ts), never what was
 * detected: a browser whose language changes is followed until the person picks one, and a
 * language seen for a moment (a page left while it starts) never sticks.
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
};
