import { describe, expect, it } from 'vitest';
import { languages } from '@/lib/i18n';

type Tree = { [key: string]: string | Tree };

const files = import.meta.glob<Tree>('../../locales/*/legal.json', {
  eager: true,
  import: 'default',
});

function flatten(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string'
      ? [[`${prefix}${key}`, value] as [string, string]]
      : flatten(value, `${prefix}${key}.`),
  );
}

function texts(language: string): Map<string, string> {
  const file = files[`../../locales/${language}/legal.json`];
  if (!file) throw new Error(`no legal texts in ${language}`);
  return new Map(flatten(file));
}
const tags = (text: string) => [...text.matchAll(/<\/?(\w+)>/g)].map((m) => m[0]);

describe('the legal texts', () => {
  const spanish = texts('es');

  it.each(languages)(
    'exist in %s, with every text of the Spanish ones and no other',
    (language) => {
      expect(spanish.size).toBeGreaterThan(10);
      expect([...texts(language).keys()].sort()).toEqual([...spanish.keys()].sort());
    },
  );

  it.each(languages.filter((l) => l !== 'es'))(
    'in %s keep the <mail> links of the Spanish texts, and nothing else marked up',
    (language) => {
      for (const [key, text] of texts(language)) {
        expect(tags(text), `${language} ${key}`).toEqual(tags(spanish.get(key) ?? ''));
      }
    },
  );

  it('mark up only whole mailboxes', () => {
    for (const [key, text] of spanish) {
      for (const tag of text.match(/<mail>.*?<\/mail>/g) ?? []) {
        expect(tag, key).toBe('<mail>{{email}}</mail>');
      }
    }
  });
});
