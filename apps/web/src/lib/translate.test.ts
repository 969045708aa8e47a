import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import { languages } from './i18n';
import { interpolate, translate, type Tree } from './translate';

const files = import.meta.glob<Tree>('../locales/*/*.json', { eager: true, import: 'default' });

/** language -> namespace -> strings */
const resourcesOf = (language: string): Record<string, Tree> =>
  Object.fromEntries(
    Object.entries(files)
      .filter(([path]) => path.includes(`/locales/${language}/`))
      .map(([path, tree]) => [/([^/]+)\.json$/.exec(path)?.[1] ?? '', tree]),
  );

const keysOf = (tree: Tree, prefix = ''): string[] =>
  Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keysOf(value, `${prefix}${key}.`),
  );

/** Every placeholder of every file, given a value (a few left out: they stay as written). */
const values = (text: string) =>
  Object.fromEntries(
    [...text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)]
      .map((m) => m[1] ?? '')
      .filter((name) => name !== 'email')
      .map((name, i) => [name, `<${name}-${i}>`]),
  );

describe("the app's lookup of strings (docs/decisions/030), against i18next", () => {
  it.each(languages)(
    'gives every string of every namespace in %s as i18next does',
    async (language) => {
      const resources = resourcesOf(language);
      const spanish = resourcesOf('es');
      const namespaces = Object.keys(resources);
      const i18n = createInstance();
      await i18n.init({
        lng: language,
        fallbackLng: 'es',
        resources: { [language]: resources, es: spanish },
        ns: namespaces,
        defaultNS: 'common',
        interpolation: { escapeValue: false },
      });
      const texts = { language, resources, fallback: spanish };
      let compared = 0;
      for (const namespace of namespaces) {
        // Keys read from the files, not typed ones: i18next's own `t` without the app's typing.
        const fixed = i18n.getFixedT(language, namespace as 'common') as unknown as (
          key: string,
          given: Record<string, unknown>,
        ) => string;
        for (const key of keysOf(resources[namespace] ?? {})) {
          const base = key.replace(/_(zero|one|two|few|many|other)$/, '');
          for (const count of [0, 1, 3]) {
            const given = { ...values(findText(resources, namespace, key)), count };
            expect(translate(texts, [namespace], base, given), `${namespace}:${base}`).toBe(
              fixed(base, given),
            );
            compared += 1;
          }
          // With the namespace in the key, from another namespace.
          const other = namespace === 'common' ? 'auth' : 'common';
          expect(translate(texts, [other], `${namespace}:${base}`, {})).toBe(fixed(base, {}));
        }
      }
      expect(compared).toBeGreaterThan(1000);
    },
  );

  it('falls back to Spanish for a string the language lacks, and to the key for none', () => {
    const texts = {
      language: 'ca',
      resources: { common: { a: 'A en català' } },
      fallback: {
        common: { a: 'A', b: 'B en castellano', n_one: 'un {{count}}', n_other: '{{count}}' },
      },
    };
    expect(translate(texts, ['common'], 'a')).toBe('A en català');
    expect(translate(texts, ['common'], 'b')).toBe('B en castellano');
    expect(translate(texts, ['common'], 'n', { count: 1 })).toBe('un 1');
    expect(translate(texts, ['common'], 'missing.key')).toBe('missing.key');
    expect(translate(texts, ['common'], 'common:missing')).toBe('missing');
  });
});

function findText(resources: Record<string, Tree>, namespace: string, key: string): string {
  let node: string | Tree | undefined = resources[namespace];
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : '';
}

describe('interpolate', () => {
  it('gives one full stop where a value ending with one closes a sentence', () => {
    const text = 'El responsable es {{legalName}}. Escríbenos a {{email}}.';
    expect(interpolate(text, { legalName: 'Demo Fitness S.L.', email: 'a@b.es' })).toBe(
      'El responsable es Demo Fitness S.L. Escríbenos a a@b.es.',
    );
    expect(interpolate(text, { legalName: 'Club Las Encinas', email: 'a@b.es' })).toBe(
      'El responsable es Club Las Encinas. Escríbenos a a@b.es.',
    );
    expect(interpolate('{{name}}.', {})).toBe('{{name}}.');
  });
});
