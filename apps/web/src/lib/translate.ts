/**
 * The portal's lookup of a translated string (docs/decisions/030): what i18next's `t` gives with
 * the app's settings, in a few lines. `ns:key`, keys nested with `.`, plurals by `count` (`_one`,
 * `_other`... by `Intl.PluralRules`), `{{name}}` interpolation without escaping, the Spanish
 * string when the language has none, the key itself when nothing is found. The app's runtime
 * (./i18n.ts, ./use-translation.tsx) and the /login entry's (src/login/use-translation.tsx) both use
 * it; `translate.test.ts` compares it with i18next on every string of every language.
 */
export type Tree = { [key: string]: string | Tree };

export type Texts = {
  language: string;
  /** Namespace -> its strings, in `language`. */
  resources: Record<string, Tree>;
  /** Namespace -> its strings in the fallback language (Spanish), when `language` lacks one. */
  fallback?: Record<string, Tree>;
};

export type TranslateOptions = { count?: number; [name: string]: unknown };

const find = (tree: Tree | undefined, key: string): string | undefined => {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) {
    if (!node || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
};

const pluralRules = new Map<string, Intl.PluralRules>();
const pluralForm = (language: string, count: number): string => {
  let rules = pluralRules.get(language);
  if (!rules) {
    rules = new Intl.PluralRules(language);
    pluralRules.set(language, rules);
  }
  return rules.select(count);
};

function lookup(
  tree: Tree | undefined,
  language: string,
  path: string,
  count: number | undefined,
): string | undefined {
  if (!tree) return undefined;
  if (typeof count === 'number') {
    const plural =
      find(tree, `${path}_${pluralForm(language, count)}`) ?? find(tree, `${path}_other`);
    if (plural !== undefined) return plural;
  }
  return find(tree, path);
}

/**
 * `{{name}}` replaced by its value; a value not given leaves its placeholder, as i18next does. A
 * value that ends with a full stop where the text puts one after it (a company's legal name, "Demo
 * Fitness S.L.", at the end of a sentence) gives one full stop, not two.
 */
export const interpolate = (text: string, values: Record<string, unknown>): string =>
  text.replace(/\{\{\s*([\w.]+)\s*\}\}(\.?)/g, (placeholder, name: string, stop: string) => {
    const value = values[name];
    if (value === undefined) return placeholder;
    const written = String(value as string | number);
    return stop && written.endsWith('.') ? written : written + stop;
  });

/** One string, as i18next's `t` would give it. */
export function translate(
  texts: Texts,
  namespaces: readonly string[],
  key: string,
  options: TranslateOptions = {},
): string {
  const colon = key.indexOf(':');
  const namespace = colon > 0 ? key.slice(0, colon) : (namespaces[0] ?? 'common');
  const path = colon > 0 ? key.slice(colon + 1) : key;
  const value =
    lookup(texts.resources[namespace], texts.language, path, options.count) ??
    lookup(texts.fallback?.[namespace], 'es', path, options.count) ??
    path;
  return interpolate(value, options);
}
