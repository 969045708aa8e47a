import type { FlatNamespace, TFunction } from 'i18next';
import {
  cloneElement,
  Fragment,
  type ReactElement,
  type ReactNode,
  use,
  useContext,
  useSyncExternalStore,
} from 'react';
import {
  defaultNamespace,
  getState,
  i18n,
  type Language,
  pendingFor,
  subscribe,
  toLanguage,
} from './i18n';
import { TextsContext } from './texts-context';
import { type TranslateOptions, translate } from './translate';

/**
 * The app's `useTranslation` (docs/decisions/030), as react-i18next's was used: `t` for the
 * screen's namespaces, typed by i18next's types over the Spanish files (types/i18next.d.ts), the
 * language, and `ready`. A screen whose strings are not loaded yet suspends until they are
 * (`useSuspense: false` answers `ready: false` instead). Under a TextsProvider (the server's render
 * of /login) the strings it gives are used, and nothing suspends.
 */
type Namespaces = FlatNamespace | readonly FlatNamespace[];

export type UseTranslation<N extends Namespaces> = {
  t: TFunction<N>;
  i18n: {
    language: Language;
    resolvedLanguage: Language;
    t: typeof i18n.t;
  };
  ready: boolean;
};

const listOf = (namespace: Namespaces | undefined): readonly string[] =>
  namespace === undefined
    ? [defaultNamespace]
    : typeof namespace === 'string'
      ? [namespace]
      : namespace;

export function useTranslation<const N extends Namespaces = 'common'>(
  namespace?: N,
  options: { useSuspense?: boolean } = {},
): UseTranslation<N> {
  const given = useContext(TextsContext);
  const state = useSyncExternalStore(subscribe, getState, getState);
  const texts = given ?? state.texts;
  const namespaces = listOf(namespace);
  const pending = given ? undefined : pendingFor(state.language, namespaces);
  // Suspends on a promise the store keeps for the file, so every render waits on the same one.
  if (pending && options.useSuspense !== false) use(pending);
  const lookup = (key: string, values?: TranslateOptions) =>
    translate(texts, namespaces, key, values);
  const language = toLanguage(texts.language);
  return {
    // i18next's types give each key's check; the lookup takes every string at run time.
    t: lookup as unknown as TFunction<N>,
    i18n: { language, resolvedLanguage: language, t: i18n.t },
    ready: pending === undefined,
  };
}

/**
 * A translated sentence with elements in it, as react-i18next's `<Trans>` with `components`:
 * `<mail>{{email}}</mail>` in the string becomes `components.mail` holding the text between (as
 * text: React escapes it).
 */
export function Trans({
  text,
  components,
}: {
  /** The translated string, its values already in (`t(key, values)`). */
  text: string;
  components: Record<string, ReactElement<{ children?: ReactNode }>>;
}) {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(/<(\w+)>([\s\S]*?)<\/\1>/g)) {
    const [whole, name = '', inner] = match;
    const element = components[name];
    parts.push(text.slice(last, match.index));
    parts.push(element ? cloneElement(element, { key: match.index }, inner) : inner);
    last = match.index + whole.length;
  }
  parts.push(text.slice(last));
  return <Fragment>{parts}</Fragment>;
}
