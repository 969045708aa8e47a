/**
 * Ds_Merchant_ConsumerLanguage: the language of the gateway's pages. Redsys' codes (S3, sheet
 * DS_MERCHANT_CONSUMERLANGUAGE; the same list in redsys libraries such as orumad/laravel-redsys-
 * gateway): 001 Spanish, 002 English, 003 Catalan, 004 French, 005 German, 006 Dutch, 007 Italian,
 * 008 Swedish, 009 Portuguese, 010 Valencian, 011 Polish, 012 Galician, 013 Basque; 0 lets the
 * gateway choose. The portal's four languages are sent as their code; one list for the portal that
 * sends them and the simulator that reads them.
 */
export const CONSUMER_LANGUAGES = { es: '001', en: '002', ca: '003', eu: '013' } as const;
export type ConsumerLanguage = keyof typeof CONSUMER_LANGUAGES;

/** Valencian (010) is read as Catalan: the same language, and the page the portal has for it. */
const BY_NUMBER: Readonly<Record<number, ConsumerLanguage>> = {
  1: 'es',
  2: 'en',
  3: 'ca',
  10: 'ca',
  13: 'eu',
};

/**
 * Which of the four languages a Ds_Merchant_ConsumerLanguage asks for ("2" and "002" alike), or
 * undefined for any other code, a malformed value or none.
 */
export function consumerLanguageOf(code: string | undefined): ConsumerLanguage | undefined {
  if (code === undefined || !/^\d{1,3}$/.test(code.trim())) return undefined;
  return BY_NUMBER[Number(code.trim())];
}
