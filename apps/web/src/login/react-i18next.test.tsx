import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import { languages } from '@/lib/i18n';
import { translate } from './react-i18next';

type Tree = { [key: string]: string | Tree };
const strings = import.meta.glob<Tree>(['../locales/*/common.json', '../locales/*/auth.json'], {
  eager: true,
  import: 'default',
});

const keysOf = (tree: Tree, prefix = ''): string[] =>
  Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keysOf(value, `${prefix}${key}.`),
  );

describe("the /login entry's stand-in for i18next", () => {
  it.each(languages)('gives every sign-in string in %s as i18next does', async (language) => {
    const resources = {
      common: strings[`../locales/${language}/common.json`] ?? {},
      auth: strings[`../locales/${language}/auth.json`] ?? {},
    };
    const i18n = createInstance();
    await i18n.init({
      lng: language,
      resources: { [language]: resources },
      ns: ['common', 'auth'],
      defaultNS: 'common',
      interpolation: { escapeValue: false },
    });
    const options = { min: 8, provider: 'Google', company: 'Club', count: 3 };
    let compared = 0;
    for (const namespace of ['common', 'auth'] as const) {
      // Keys read from the files, not typed ones: i18next's own `t` without the app's typing.
      const fixed = i18n.getFixedT(language, namespace);
      const t = (key: string, given: Record<string, unknown>) =>
        (fixed as unknown as (key: string, given: Record<string, unknown>) => string)(key, given);
      for (const key of keysOf(resources[namespace])) {
        const base = key.replace(/_(zero|one|two|few|many|other)$/, '');
        for (const count of [1, 3]) {
          const given = { ...options, count };
          expect(translate({ language, resources }, [namespace], base, given)).toBe(t(base, given));
          compared += 1;
        }
        // With the namespace in the key, from the other namespace.
        const other = namespace === 'common' ? 'auth' : 'common';
        expect(translate({ language, resources }, [other], `${namespace}:${base}`, options)).toBe(
          t(base, options),
        );
      }
    }
    expect(compared).toBeGreaterThan(50);
  });
});
