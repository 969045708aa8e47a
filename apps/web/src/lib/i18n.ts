import { detectLanguages } from './language-detector';
import { storageKeys, writeStorage } from './storage';
import { type Texts, type TranslateOptions, type Tree, translate } from './translate';
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

/**
 * The app's translations (docs/decisions/030): which language is shown, which namespaces of it
 * are loaded, and the strings, for `useTranslation` (./use-translation.tsx) to read. What the app
 * used of i18next and react-i18next (detection, lazy namespaces with retries, a change of
 * language that loads before it switches, Spanish as the fallback), without their 20 KiB on
 * every signed-in screen. The lookup itself is ./translate.ts.
 */

export const defaultNamespace = 'common';

const fileName = (path: string): string => path.slice(path.lastIndexOf('/') + 1, -'.json'.length);

/**
 * Namespaces of the screens behind the sign-in and of the legal pages: lazy in every language,
 * Spanish included, so the first chunk carries only what /login shows (`common`, `auth`; issue 6
 * budgets /login's bytes). The router loads a screen's namespaces with its code (app/router.tsx);
 * a change of language loads every namespace loaded so far. Keep in step with the globs below.
 */
export const lazyNamespaces = [
  'invoices',
  'checkout',
  'payment-methods',
  'notifications',
  'contact',
  'legal',
  'sessions',
  'profile',
  'fiscal-data',
  'threads',
] as const;
export type LazyNamespace = (typeof lazyNamespaces)[number];

/** Spanish `common` and `auth` ship in the first chunk (Spanish is the default and fallback)... */
const spanishFiles = import.meta.glob<Tree>(
  ['../locales/es/common.json', '../locales/es/auth.json'],
  { eager: true, import: 'default' },
);
const spanish = Object.fromEntries(
  Object.entries(spanishFiles).map(([path, resource]) => [fileName(path), resource]),
);

/** The namespaces bundled in the first chunk, as built. */
export const firstChunkNamespaces: readonly string[] = Object.keys(spanish);

/** ...every other file is a separate chunk, fetched when needed. */
const lazyFiles = import.meta.glob<Tree>(
  ['../locales/*/*.json', '!../locales/es/common.json', '!../locales/es/auth.json'],
  { import: 'default' },
);

/** The language of a (possibly regional) code, `es` when it is none of ours. */
export function toLanguage(code: string | undefined): Language {
  const base = code?.toLowerCase().split('-')[0];
  return isLanguage(base) ? base : defaultLanguage;
}

/** The first of these codes whose language part is one of ours, else Spanish. */
const firstSupported = (codes: readonly string[]): Language =>
  codes.map((code) => code.toLowerCase().split(/[-_]/)[0]).find(isLanguage) ?? defaultLanguage;

// ---- The store ----

/** What a screen reads: replaced (never changed in place) whenever a language or strings come. */
export type TranslationState = { language: Language; texts: Texts };

const strings: Record<Language, Record<string, Tree>> = Object.fromEntries(
  languages.map((language) => [language, language === 'es' ? { ...spanish } : {}]),
) as Record<Language, Record<string, Tree>>;
/** `language/namespace` loaded, or given up on after the retries (the Spanish strings show). */
const settled = new Set<string>(firstChunkNamespaces.map((ns) => `es/${ns}`));
const loading = new Map<string, Promise<void>>();
/** Namespaces asked for so far: a change of language loads them all before it switches. */
const inUse = new Set<string>(firstChunkNamespaces);
const listeners = new Set<() => void>();

const stateOf = (language: Language): TranslationState => ({
  language,
  texts: { language, resources: strings[language], fallback: strings.es },
});
let state = stateOf(firstSupported(detectLanguages()));

function publish(language: Language) {
  state = stateOf(language);
  listeners.forEach((listener) => listener());
}

export const subscribe = (listener: () => void): (() => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
export const getState = (): TranslationState => state;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One file, fetched once however many screens ask. Spec §9: a failed download is retried up to 5
 * times, 350 ms apart and doubling; after that the Spanish strings stand in (as with i18next).
 */
async function fetchFile(language: Language, namespace: string): Promise<void> {
  const load = lazyFiles[`../locales/${language}/${namespace}.json`];
  for (let attempt = 0; load; attempt++) {
    try {
      strings[language][namespace] = await load();
      break;
    } catch (error) {
      if (attempt >= 5) {
        console.warn(`Translations ${language}/${namespace} could not be loaded`, error);
        break;
      }
      await sleep(350 * 2 ** attempt);
    }
  }
  settled.add(`${language}/${namespace}`);
}

/** Settled already, or the promise of that file's loading (the same one for every caller). */
export function loadFile(language: Language, namespace: string): Promise<void> | undefined {
  const key = `${language}/${namespace}`;
  if (settled.has(key)) return undefined;
  let pending = loading.get(key);
  if (!pending) {
    pending = fetchFile(language, namespace).finally(() => {
      loading.delete(key);
      // The screens that show this language see the new strings.
      if (state.language === language || language === defaultLanguage) publish(state.language);
    });
    loading.set(key, pending);
  }
  return pending;
}

/**
 * Starts loading what a screen needs in this language (and in Spanish, the fallback): undefined
 * when everything is there, else the promise of one file still loading.
 */
export function pendingFor(language: Language, namespaces: readonly string[]) {
  let first: Promise<void> | undefined;
  for (const namespace of namespaces) {
    inUse.add(namespace);
    for (const lng of language === defaultLanguage ? [language] : [language, defaultLanguage]) {
      // Every file starts now, in parallel; the first still loading is answered.
      const pending = loadFile(lng, namespace);
      first ??= pending;
    }
  }
  return first;
}

async function loadAll(language: Language, namespaces: readonly string[]): Promise<void> {
  for (;;) {
    const pending = pendingFor(language, namespaces);
    if (!pending) return;
    await pending;
  }
}

const setDocumentLanguage = (language: Language) => {
  // Not on the server (entry-server.tsx), where no document is.
  if (typeof document !== 'undefined') document.documentElement.lang = language;
};

/** Resolves once the detected language's strings are loaded. */
export const i18nReady: Promise<void> = (async () => {
  setDocumentLanguage(state.language);
  await loadAll(state.language, firstChunkNamespaces);
})();

/**
 * Loads a lazy namespace in the current language (and Spanish, the fallback). From then on a
 * change of language loads it too, before switching.
 */
export async function loadNamespace(
  namespace: LazyNamespace | readonly LazyNamespace[],
): Promise<void> {
  await i18nReady;
  await loadAll(state.language, typeof namespace === 'string' ? [namespace] : namespace);
}

let latestChange = 0;

/** Switches once every namespace in use is loaded in that language; the last change asked wins. */
async function switchLanguage(language: Language): Promise<void> {
  const change = ++latestChange;
  await loadAll(language, [...inUse]);
  if (change !== latestChange) return;
  setDocumentLanguage(language);
  publish(language);
}

/** The person's choice: loads its strings, switches, updates `<html lang>` and stores it. */
export async function changeLanguage(language: Language): Promise<void> {
  await switchLanguage(language);
  writeStorage(storageKeys.language, language);
}

export function getLanguage(): Language {
  return state.language;
}

/** One string in the current language, or in `lng`, outside a component. */
export function t(key: string, options: TranslateOptions & { lng?: Language } = {}): string {
  const { lng, ...values } = options;
  const texts = lng ? stateOf(lng).texts : state.texts;
  return translate(texts, [defaultNamespace], key, values);
}

/** The few i18next-like reads the app and its tests make of the current state. */
export const i18n = {
  get language(): Language {
    return state.language;
  },
  get resolvedLanguage(): Language {
    return state.language;
  },
  t,
  /** Switches without storing a choice (tests; the person's choice is `changeLanguage`). */
  changeLanguage: switchLanguage,
  hasResourceBundle: (language: Language, namespace: string): boolean =>
    strings[language][namespace] !== undefined,
};
