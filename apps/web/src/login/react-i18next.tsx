/**
 * What the sign-in screen uses of react-i18next, for the /login entry only (`vite build --mode
 * login` resolves `react-i18next` here; docs/decisions/018): `useTranslation` over the page
 * language's `common` and `auth` strings, already loaded. i18next itself (its plugins, its
 * backends, its formatters) stays with the app, which loads it after sign-in.
 *
 * The same lookups as i18next with the app's settings (lib/i18n.ts): `ns:key`, keys nested with
 * `.`, plurals by `count` (`_one`, `_other`... by `Intl.PluralRules`), `{{name}}` interpolation
 * without escaping, the key itself when nothing is found. `entry-server.test.tsx` renders the
 * screen with both and compares.
 */
import { createContext, type ReactNode, useContext } from 'react';

type Tree = { [key: string]: string | Tree };
export type Texts = {
  language: string;
  /** Namespace -> its strings, in `language`. */
  resources: Record<string, Tree>;
};

const TextsContext = createContext<Texts>({ language: 'es', resources: {} });

export function TextsProvider({ texts, children }: { texts: Texts; children: ReactNode }) {
  return <TextsContext value={texts}>{children}</TextsContext>;
}

type Options = { count?: number; [name: string]: unknown };

const find = (tree: Tree | undefined, key: string): string | undefined => {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) {
    if (!node || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
};

/** One string, as i18next's `t` would give it. */
export function translate(
  texts: Texts,
  namespaces: readonly string[],
  key: string,
  options: Options = {},
): string {
  const colon = key.indexOf(':');
  const namespace = colon > 0 ? key.slice(0, colon) : (namespaces[0] ?? 'common');
  const path = colon > 0 ? key.slice(colon + 1) : key;
  const tree = texts.resources[namespace];
  let value: string | undefined;
  if (typeof options.count === 'number') {
    const form = new Intl.PluralRules(texts.language).select(options.count);
    value = find(tree, `${path}_${form}`) ?? find(tree, `${path}_other`);
  }
  value ??= find(tree, path) ?? path;
  // A value not given leaves its placeholder, as i18next does.
  return value.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (placeholder, name: string) => {
    const replacement = options[name];
    return replacement === undefined ? placeholder : String(replacement as string | number);
  });
}

export function useTranslation(namespace?: string | readonly string[]) {
  const texts = useContext(TextsContext);
  const namespaces =
    namespace === undefined ? ['common'] : typeof namespace === 'string' ? [namespace] : namespace;
  return {
    t: (key: string, options?: Options) => translate(texts, namespaces, key, options),
    i18n: { language: texts.language, resolvedLanguage: texts.language },
    ready: true,
  };
}
