import type { SignatureVersion } from './signature.ts';
import { decodeLooseBase64 } from './base64.ts';

/**
 * Redsys' public test merchant. This is public test data published by Redsys for its test
 * environment (sis-t.redsys.es), not a secret: it moves no money and is what the local
 * simulator and the demo tenants use.
 */
export const PUBLIC_TEST_MERCHANT = {
  merchantCode: '999008881',
  terminal: '1',
  secretKey: 'sq7HjrUOBfKmC576ILgskD5srU870gJ7',
  allowedVersions: ['HMAC_SHA256_V1', 'HMAC_SHA512_V2'] as readonly SignatureVersion[],
} as const;

/**
 * Whether `key` signs as the public test key does: the same bytes once decoded (how V1 reads a
 * key, padding and alphabet optional) or the same first 16 characters (how V2 reads it). A live
 * tenant's key must not (session 36: `<public key>=` passed a plain string comparison).
 */
export function signsAsPublicTestKey(key: string): boolean {
  const publicKey = PUBLIC_TEST_MERCHANT.secretKey;
  const bytes = decodeLooseBase64(key.trim());
  if (bytes && bytes.equals(decodeLooseBase64(publicKey) ?? Buffer.alloc(0))) return true;
  return key.trim().slice(0, 16) === publicKey.slice(0, 16);
}
