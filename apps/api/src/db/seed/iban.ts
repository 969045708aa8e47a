/** Computes the check digits of a Spanish IBAN from its 20-digit CCC (ISO 13616, mod 97). */
export function spanishIban(ccc: string): string {
  const rearranged = `${ccc}142800`; // "ES" = 14 28, check digits 00
  let remainder = 0;
  for (const digit of rearranged) remainder = (remainder * 10 + Number(digit)) % 97;
  return `ES${String(98 - remainder).padStart(2, '0')}${ccc}`;
}
