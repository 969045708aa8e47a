/** A valid Spanish IBAN of account number `n`: both national check digits, then the IBAN's. */
export function spanishIban(n: number): string {
  const weights = [1, 2, 4, 8, 5, 10, 9, 7, 3, 6];
  const check = (digits: string) => {
    const sum = [...digits].reduce((acc, d, i) => acc + Number(d) * (weights[i] ?? 0), 0);
    const d = 11 - (sum % 11);
    return d === 11 ? 0 : d === 10 ? 1 : d;
  };
  const entity = '21000418';
  const account = String(n).padStart(10, '0');
  const bban = `${entity}${check(`00${entity}`)}${check(account)}${account}`;
  let remainder = 0;
  for (const digit of `${bban}142800`) remainder = (remainder * 10 + Number(digit)) % 97; // E=14 S=28
  return `ES${String(98 - remainder).padStart(2, '0')}${bban}`;
}
