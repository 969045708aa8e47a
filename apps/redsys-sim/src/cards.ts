import { randomInt } from 'node:crypto';

/**
 * Redsys' public test cards (published in its integration guides; any future expiry, any CVC).
 * Any other Luhn-valid number is authorised.
 */
export const TEST_CARDS = {
  authorised: '4548812049400004',
  declined: '5576440022788500',
  challenge: '4548814479727229',
  /**
   * Saved like any card (its first, customer-present operation is authorised), but every later
   * merchant-initiated charge of it (MIT through trataPeticionREST) is declined with 0190: how the
   * portal's auto-pay decline path is tried by hand.
   */
  mitDeclined: '4000000000000002',
} as const;

/** The code the 3DS challenge page accepts for the challenge card. */
export const CHALLENGE_CODE = '123456';

export type Card = {
  number: string;
  /** yymm, as Redsys writes Ds_ExpiryDate. */
  expiry: string;
  brand: string | undefined;
};

export function digitsOnly(text: string): string {
  return text.replace(/[\s-]/g, '');
}

export function isLuhnValid(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i += 1) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Ds_Card_Brand: 1 VISA, 2 Mastercard, 6 Diners, 8 Amex, 9 JCB (Redsys' codes). */
export function brandOf(number: string): string | undefined {
  if (number.startsWith('4')) return '1';
  const two = Number(number.slice(0, 2));
  const four = Number(number.slice(0, 4));
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return '2';
  if (two === 34 || two === 37) return '8';
  if (two === 36 || two === 38 || (four >= 3000 && four <= 3059)) return '6';
  if (two === 35) return '9';
  return undefined;
}

export const BRAND_NAMES: Record<string, string> = {
  '1': 'VISA',
  '2': 'Mastercard',
  '6': 'Diners',
  '8': 'American Express',
  '9': 'JCB',
};

/** As Redsys masks Ds_Card_Number: first six, asterisks, last four (454881******0004). */
export function maskCardNumber(number: string): string {
  return `${number.slice(0, 6)}${'*'.repeat(Math.max(number.length - 10, 0))}${number.slice(-4)}`;
}

/** "MM/AA" (also "MMAA", "MM / AA") to yymm; null when malformed or already expired. */
export function parseExpiry(text: string, now: Date): string | null {
  const match = /^\s*(\d{2})\s*\/?\s*(\d{2})\s*$/.exec(text);
  if (!match) return null;
  const [, month, year] = match as unknown as [string, string, string];
  const monthNumber = Number(month);
  if (monthNumber < 1 || monthNumber > 12) return null;
  // A card is valid until the end of its expiry month.
  const endOfMonth = Date.UTC(2000 + Number(year), monthNumber, 1);
  if (endOfMonth <= now.getTime()) return null;
  return `${year}${month}`;
}

export function isValidCvc(text: string): boolean {
  return /^\d{3,4}$/.test(text.trim());
}

/** A scheme transaction id as Redsys returns it in Ds_Merchant_Cof_Txnid (13 digits). */
export function newCofTxnid(): string {
  return (
    String(randomInt(1, 10_000_000)).padStart(7, '0') +
    String(randomInt(0, 1_000_000)).padStart(6, '0')
  );
}

export function newAuthorisationCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}
