import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  changeLanguage,
  firstChunkNamespaces,
  getLanguage,
  i18n,
  languages,
  lazyNamespaces,
  loadNamespace,
} from './i18n';

type Tree = { [key: string]: string | Tree };

const files = import.meta.glob<Tree>('../locales/*/*.json', { eager: true, import: 'default' });

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const keys = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') keys.set(path, value);
    else for (const [k, v] of flatten(value, path)) keys.set(k, v);
  }
  return keys;
}

/** language -> namespace -> flattened keys */
const bundles = new Map<string, Map<string, Map<string, string>>>();
for (const [path, tree] of Object.entries(files)) {
  const [, language, file] = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path) ?? [];
  if (!language || !file) continue;
  if (!bundles.has(language)) bundles.set(language, new Map());
  bundles.get(language)?.set(file, flatten(tree));
}

const placeholders = (text: string) =>
  [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('translations', () => {
  it('exist for exactly the four languages', () => {
    expect([...bundles.keys()].sort()).toEqual([...languages].sort());
  });

  const namespaces = new Set([...bundles.values()].flatMap((ns) => [...ns.keys()]));

  for (const namespace of namespaces) {
    const allKeys = new Set(
      [...bundles.values()].flatMap((ns) => [...(ns.get(namespace)?.keys() ?? [])]),
    );

    for (const language of languages) {
      it(`${language}/${namespace}.json has every key of every language, none empty`, () => {
        const keys = bundles.get(language)?.get(namespace);
        expect(keys, `${language}/${namespace}.json is missing`).toBeDefined();
        const missing = [...allKeys].filter((key) => !keys?.has(key));
        expect(missing, `missing in ${language}/${namespace}.json`).toEqual([]);
        const empty = [...(keys ?? [])].filter(([, text]) => !text.trim()).map(([key]) => key);
        expect(empty, `empty in ${language}/${namespace}.json`).toEqual([]);
      });

      it(`${language}/${namespace}.json uses the same placeholders as Spanish`, () => {
        const spanish = bundles.get('es')?.get(namespace);
        const keys = bundles.get(language)?.get(namespace);
        for (const [key, text] of keys ?? []) {
          expect(placeholders(text), `${language} ${key}`).toEqual(
            placeholders(spanish?.get(key) ?? ''),
          );
        }
      });
    }
  }
});

describe('lazy namespaces', () => {
  it('ships only what /login shows in the first chunk: Spanish common and auth', async () => {
    expect([...firstChunkNamespaces].sort()).toEqual(['auth', 'common']);
    // Every other namespace is lazy, and every lazy one has its files.
    const namespaces = [...(bundles.get('es')?.keys() ?? [])].sort();
    expect([...lazyNamespaces, 'auth', 'common'].sort()).toEqual(namespaces);
  });

  it('loads a lazy namespace on demand, in Spanish too', async () => {
    await loadNamespace('legal');
    expect(i18n.hasResourceBundle('es', 'legal')).toBe(true);
    expect(i18n.t('legal:links.privacy.title', { lng: 'es' })).toBe('Política de privacidad');
  });
});

describe('changeLanguage (spec §4: a change is stored)', () => {
  afterEach(async () => {
    vi.restoreAllMocks();
    await i18n.changeLanguage('es');
    localStorage.clear();
  });

  it('switches and stores the choice, which the next visit detects first', async () => {
    await changeLanguage('ca');
    expect(getLanguage()).toBe('ca');
    expect(document.documentElement.lang).toBe('ca');
    expect(localStorage.getItem('language')).toBe('ca');
  });

  it('still switches when the storage cannot be written', async () => {
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new Error('QuotaExceededError');
    });
    await changeLanguage('eu');
    expect(getLanguage()).toBe('eu');
  });
});
