import { RedsysError } from './errors.ts';

// Either alphabet, padding optional: Redsys itself mixes them (base64 parameters, base64url
// notification signatures with padding, V2 examples without it).
const LOOSE_BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** Undoes both base64 alphabets; `null` when the text is not base64 at all. */
export function decodeLooseBase64(text: string, { canonical = false } = {}): Buffer | null {
  if (typeof text !== 'string' || !LOOSE_BASE64.test(text)) return null;
  const unpadded = text.replace(/=+$/, '').replaceAll('-', '+').replaceAll('_', '/');
  if (unpadded.length % 4 === 1) return null;
  const bytes = Buffer.from(unpadded, 'base64');
  // Buffer ignores the unused low bits of the last character, so two different strings can
  // decode to the same bytes; a signature must be the one canonical spelling of its bytes.
  if (canonical && bytes.toString('base64').replace(/=+$/, '') !== unpadded) return null;
  return bytes;
}

/** Redsys' notification spelling: the URL-safe alphabet but with the `=` padding kept. */
export function toUrlSafeKeepingPadding(standardBase64: string): string {
  return standardBase64.replaceAll('+', '-').replaceAll('/', '_');
}

export function requireBase64(text: string): Buffer {
  const bytes = decodeLooseBase64(text);
  if (!bytes || bytes.length === 0) {
    throw new RedsysError('INVALID_MERCHANT_PARAMETERS', 'Ds_MerchantParameters is not base64');
  }
  return bytes;
}
