export function isLuhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Digits together, or in the usual groups (4-4-4-4, 4-4-4-4-3, Amex 4-6-5, Diners 4-6-4). */
const group = (first: number, ...rest: number[]) =>
  new RegExp(
    `(?<!\\d)(?<!\\d[ .-])\\d{${first}}([ -])${rest.map((n) => `\\d{${n}}`).join('\\1')}(?!\\d)`,
    'g',
  );
const candidates = [
  /(?<!\d)(?<!\d\.)\d{13,19}(?!\d)/g,
  group(4, 4, 4, 4),
  group(4, 4, 4, 4, 3),
  group(4, 6, 5),
  group(4, 6, 4),
];

/**
 * Card numbers (PANs) in a text: 13 to 19 digits, together or in the usual groups
 * ("4548 8120 4940 0004", "4548-8120-4940-0004"), that pass the Luhn check. Log timestamps
 * (pino's `"time":` in epoch milliseconds, 13 digits, and the same figure under another key or
 * inside a logged string), the decimals of a number (pino's
 * `"responseTime":15.457218999999895`) and UUIDs (request ids) are not card numbers and are left
 * out.
 */
export function findPans(text: string): string[] {
  const cleaned = text
    .replace(/"time":\d+/g, '"time":0')
    // The scheme's id of a card-on-file operation (Redsys' Ds_Merchant_Cof_Txnid, 13 digits here,
    // under that name or the portal's cof_txnid): a 13-digit one starting with 4 passes Luhn once
    // in ten, so one notification in a hundred read as a Visa number.
    .replace(/("[\w]*cof_?txnid"\s*:\s*)"\d+"/gi, '$1"cof"')
    // Request and row ids: a UUID's inner groups can read as 4-4-4-4 digits that pass Luhn.
    .replace(
      /(?<![\da-f-])[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}(?![\da-f-])/gi,
      'uuid',
    );
  const found = new Set<string>();
  for (const pattern of candidates) {
    for (const match of cleaned.matchAll(pattern)) {
      const digits = match[0].replace(/[ -]/g, '');
      if (digits.length < 13 || digits.length > 19 || !isLuhnValid(digits)) continue;
      // Only Visa issued 13-digit numbers (they start with 4); epoch milliseconds are 13 digits
      // starting with 1, wherever they are logged, and one in ten passes Luhn.
      if (digits.length === 13 && !digits.startsWith('4')) continue;
      found.add(digits);
    }
  }
  return [...found];
}
