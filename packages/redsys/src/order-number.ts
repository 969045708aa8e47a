import { randomInt } from 'node:crypto';

const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * A fresh Redsys order number: 4 digits then 8 alphanumerics (Redsys: 4-12 characters, the first
 * 4 numeric), drawn with crypto.randomInt so the order cannot be guessed. ~2^61 values; the
 * caller still enforces uniqueness per merchant and terminal.
 */
export function newOrderNumber(): string {
  let order = String(randomInt(0, 10_000)).padStart(4, '0');
  for (let i = 0; i < 8; i += 1) order += ALPHANUMERIC[randomInt(0, ALPHANUMERIC.length)];
  return order;
}

/** Redsys' rule for Ds_Merchant_Order: 4-12 characters, the first 4 digits, then [0-9A-Za-z]. */
export function isValidOrderNumber(order: string): boolean {
  return typeof order === 'string' && /^\d{4}[0-9A-Za-z]{0,8}$/.test(order);
}
