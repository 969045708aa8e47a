import i18n, { type BackendModule, type ReadCallback, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { languageDetector } from './language-detector';
import { storageKeys, writeStorage } from './storage';
import {
  type TLanguage as Language,
  defaultLanguage,
  isLanguage,
  languages,
} from '@portal/contract/languages';

export {
  defaultLanguage,
  isLanguage,
  languageNames,
  languages,
  type TLanguage as Language,
} from '@portal/contract/languages';

export const defaultNamespace = 'common';

const fileName = (path: string): string => path.slice(path.lastIndexOf('/') + 1, -'.json'.length);

/**
 * Namespaces of the screens behind the sign-in and of the legal pages: lazy in every language,
 * Spanish included, so the first chunk carries only what /login shows (`common`, `auth`; issue 6
 * budgets /login's bytes). The router loads a screen's namespaces with its code (app/router.tsx);
 * i18next then loads them with every language change too. Keep in step with the globs below.
 */
export const lazyNamespaces = [
  'invoices',
  'checkout',
  'payment-methods',
  'notifications',
  'contact',
  'legal',
  'sessions',
] as const;
export type LazyNamespace = (typeof lazyNamespaces)[number];

/** Spanish `common` and `auth` ship in the first chunk (Spanish is the default and fallback)... */
const spanishFiles = import.meta.glob<ResourceKey>(
  ['../locales/es/common.json', '../locales/es/auth.json'],
  { eager: true, import: 'default' },
);
const spanish = Object.fromEntries(
  Object.entries(spanishFiles).map(([path, resource]) => [fileName(path), resource]),
);

/** The namespaces bundled in the first chunk, as built. */
export const firstChunkNamespaces: readonly string[] = Object.keys(spanish);

/** ...every other file is a separate chunk, fetched when needed. */
const lazyFiles = import.meta.glob<ResourceKey>(
  ['../locales/*/*.json', '!../locales/es/common.json', '!../locales/es/auth.json'],
  { import: 'default' },
);

/** A minimal i18next backend that reads the lazy chunks above; i18next retries it (spec §9). */
const lazyBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language: string, namespace: string, callback: ReadCallback) {
    const load = lazyFiles[`../locales/${language}/${namespace}.json`];
    if (!load) {
      callback(new Error(`No translations for ${language}/${namespace}`), false);
      return;
    }
    load().then(
      (resource) => callback(null, resource),
      // `true` asks i18next to retry: a failed chunk download is usually a passing network error.
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), true),
    );
  },
};

/** The language of a (possibly regional) code, `es` when it is none of ours. */
export function toLanguage(code: string | undefined): Language {
  const base = code?.toLowerCase().split('-')[0];
  return isLanguage(base) ? base : defaultLanguage;
}

i18n.on('languageChanged', (language) => {
  // Not on the server (entry-server.tsx), where no document is.
  if (typeof document !== 'undefined') document.documentElement.lang = toLanguage(language);
});

/** Resolves once the detected language's strings are loaded. */
export const i18nReady = i18n
  .use(lazyBackend)
  .use(languageDetector)
  .use(initReactI18next)
  .init({
    resources: { es: spanish },
    partialBundledLanguages: true,
    fallbackLng: defaultLanguage,
    supportedLngs: languages,
    load: 'languageOnly',
    ns: Object.keys(spanish),
    defaultNS: defaultNamespace,
    // Spec §4: stored choice, then the browser (./language-detector.ts); a choice is stored below.
    // Spec §9: up to 10 parallel reads, 5 retries, 350 ms doubling.
    maxParallelReads: 10,
    maxRetries: 5,
    retryTimeout: 350,
    interpolation: { escapeValue: false },
    react: { useSuspense: true },
  });

/**
 * Loads a lazy namespace in the current language (and Spanish, the fallback). From then on i18next
 * loads it with every language change too, before switching.
 */
export async function loadNamespace(
  namespace: LazyNamespace | readonly LazyNamespace[],
): Promise<void> {
  await i18nReady;
  await i18n.loadNamespaces(typeof namespace === 'string' ? namespace : [...namespace]);
}

/** The person's choice: loads its strings, switches, updates `<html lang>` and stores it. */
export async function changeLanguage(language: Language): Promise<void> {
  await i18n.changeLanguage(language);
  writeStorage(storageKeys.language, language);
}

export function getLanguage(): Language {
  return toLanguage(i18n.resolvedLanguage ?? i18n.language);
}

export { i18n };
