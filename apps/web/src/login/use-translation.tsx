/**
 * What the sign-in screen uses of the app's `useTranslation`, for the /login entry only (`vite
 * build --mode login` resolves `@/lib/use-translation` here; docs/decisions/018 and 030): the
 * page language's `common` and `auth` strings, given by TextsProvider, already loaded. The app's
 * store of strings (lib/i18n.ts: detection, lazy namespaces, language changes) stays with the app,
 * which loads it after sign-in.
 *
 * The same lookups as the app's (lib/translate.ts). `entry-server.test.tsx` renders the screen
 * with both and compares.
 */
import { useContext } from 'react';
import { TextsContext } from '@/lib/texts-context';
import { type TranslateOptions, translate } from '@/lib/translate';

export { TextsProvider } from '@/lib/texts-context';

export function useTranslation(namespace?: string | readonly string[]) {
  const texts = useContext(TextsContext) ?? { language: 'es', resources: {} };
  const namespaces =
    namespace === undefined ? ['common'] : typeof namespace === 'string' ? [namespace] : namespace;
  return {
    t: (key: string, options?: TranslateOptions) => translate(texts, namespaces, key, options),
    i18n: { language: texts.language, resolvedLanguage: texts.language },
    ready: true,
  };
}
