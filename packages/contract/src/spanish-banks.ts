/**
 * Names of the most common Spanish banks by the 4-digit entity code inside a Spanish IBAN
 * (positions 5-8), from the Bank of Spain's public register. Unknown codes leave the entity to
 * what the customer typed. Zod-free: the API and the bank-account form of the web app share it.
 */
const banks: Record<string, string> = {
  '0049': 'Banco Santander',
  '0075': 'Banco Santander',
  '0030': 'Banco Santander',
  '0182': 'BBVA',
  '2100': 'CaixaBank',
  '2038': 'CaixaBank',
  '0081': 'Banco Sabadell',
  '0128': 'Bankinter',
  '1465': 'ING',
  '0073': 'Openbank',
  '2085': 'Ibercaja',
  '3058': 'Cajamar',
  '2095': 'Kutxabank',
  '2080': 'Abanca',
  '0239': 'EVO Banco',
  '1491': 'Triodos Bank',
  '0061': 'Banca March',
  '3025': "Caixa d'Enginyers",
  '0019': 'Deutsche Bank',
  '0186': 'Banco Mediolanum',
  '0234': 'Banco Caminos',
  '2048': 'Liberbank',
  '0487': 'Banco Mare Nostrum',
  '3035': 'Caja Laboral Kutxa',
  '2103': 'Unicaja Banco',
  '0237': 'Cajasur',
  '3187': 'Caja Rural del Sur',
  '0083': 'Renta 4 Banco',
};

/** The bank of a Spanish IBAN (electronic format), when its entity code is known. */
export function spanishBankOf(iban: string): string | null {
  if (!/^ES\d{22}$/.test(iban)) return null;
  return banks[iban.slice(4, 8)] ?? null;
}
