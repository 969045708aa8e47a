/**
 * Spanish tax identifiers (NIF): DNI (8 digits + letter), NIE (X/Y/Z + 7 digits + letter) and CIF
 * (organisation letter + 7 digits + control digit or letter), with their check characters.
 */
const dniLetters = 'TRWAGMYFPDXBNJZSQVHLCKE';

export function normalizeTaxId(value: string): string {
  return value.toUpperCase().replace(/[\s.-]/g, '');
}

function isDni(id: string): boolean {
  const match = /^(\d{8})([A-Z])$/.exec(id);
  return !!match && dniLetters[Number(match[1]) % 23] === match[2];
}

function isNie(id: string): boolean {
  const match = /^([XYZ])(\d{7})([A-Z])$/.exec(id);
  if (!match) return false;
  const number = Number(`${'XYZ'.indexOf(match[1] ?? '')}${match[2]}`);
  return dniLetters[number % 23] === match[3];
}

function isCif(id: string): boolean {
  const match = /^([ABCDEFGHJNPQRSUVW])(\d{7})([0-9A-J])$/.exec(id);
  if (!match) return false;
  const [, kind = '', digits = '', control = ''] = match;
  let sum = 0;
  for (let i = 0; i < 7; i++) {
    const d = Number(digits[i]);
    if (i % 2 === 0) {
      const doubled = d * 2;
      sum += Math.floor(doubled / 10) + (doubled % 10);
    } else sum += d;
  }
  const check = (10 - (sum % 10)) % 10;
  const letter = 'JABCDEFGHI'[check];
  if ('PQRSWN'.includes(kind)) return control === letter;
  if ('ABEH'.includes(kind)) return control === String(check);
  return control === String(check) || control === letter;
}

/** True for a valid DNI, NIE or CIF (spaces, dots and dashes ignored). */
export function isSpanishTaxId(value: string): boolean {
  const id = normalizeTaxId(value);
  return isDni(id) || isNie(id) || isCif(id);
}
