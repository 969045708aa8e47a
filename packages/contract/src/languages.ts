/**
 * The portal's four languages (PRODUCT.md: Spanish first; ca, en, eu): the one list the web app's
 * translations, the contract's `language` fields and the server's mail and PDF texts all read.
 * Free of zod: the browser's first chunk imports it.
 */
export const languages = ['es', 'ca', 'en', 'eu'] as const;
export type TLanguage = (typeof languages)[number];
export const defaultLanguage: TLanguage = 'es';

/** Each language in its own name (an endonym reads the same in every language, so not translated). */
export const languageNames: Record<TLanguage, string> = {
  es: 'Español',
  ca: 'Català',
  en: 'English',
  eu: 'Euskara',
};

export function isLanguage(value: unknown): value is TLanguage {
  return languages.includes(value as TLanguage);
}
