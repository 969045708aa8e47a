import { createCipheriv, createHmac, timingSafeEqual } from 'node:crypto';
import { decodeLooseBase64 } from './base64.ts';
import { RedsysError } from './errors.ts';
import { decodeMerchantParameters, getParameter } from './merchant-parameters.ts';
import type { MerchantParameters } from './merchant-parameters.ts';

export const SIGNATURE_VERSIONS = ['HMAC_SHA256_V1', 'HMAC_SHA512_V2'] as const;
export type SignatureVersion = (typeof SIGNATURE_VERSIONS)[number];

export function isSignatureVersion(value: unknown): value is SignatureVersion {
  return (SIGNATURE_VERSIONS as readonly unknown[]).includes(value);
}

/**
 * The per-order HMAC key.
 * V1: 3DES (des-ede3-cbc, zero IV) of the order zero-padded to 8 bytes, no PKCS padding, keyed
 * with the base64-decoded 24-byte merchant secret; the raw ciphertext is the key.
 * V2: AES-128-CBC (zero IV, PKCS#7) of the order keyed with the first 16 bytes of the secret
 * *as text* right-padded with '0'; the key is the UTF-8 of that ciphertext's base64 string
 * (Redsys' official V2 library passes the base64 text to hash_hmac).
 * Both are checked against Redsys' published examples in known-answers.test.ts.
 */
export function deriveOrderKey(version: SignatureVersion, secret: string, order: string): Buffer {
  if (typeof order !== 'string' || order.length === 0) {
    throw new RedsysError('MISSING_ORDER', 'The order number is needed to derive the key');
  }
  if (typeof secret !== 'string' || secret.length === 0) {
    throw new RedsysError('INVALID_SECRET', 'The merchant secret is empty');
  }
  const orderBytes = Buffer.from(order, 'utf8');
  if (version === 'HMAC_SHA256_V1') {
    const key = decodeLooseBase64(secret);
    if (!key || key.length !== 24) {
      throw new RedsysError('INVALID_SECRET', 'An HMAC_SHA256_V1 secret is base64 of 24 bytes');
    }
    const padded = Buffer.alloc(Math.ceil(orderBytes.length / 8) * 8);
    orderBytes.copy(padded);
    const cipher = createCipheriv('des-ede3-cbc', key, Buffer.alloc(8));
    cipher.setAutoPadding(false);
    return Buffer.concat([cipher.update(padded), cipher.final()]);
  }
  const aesKey = Buffer.alloc(16, '0');
  Buffer.from(secret, 'utf8').subarray(0, 16).copy(aesKey);
  const cipher = createCipheriv('aes-128-cbc', aesKey, Buffer.alloc(16));
  const encrypted = Buffer.concat([cipher.update(orderBytes), cipher.final()]);
  return Buffer.from(encrypted.toString('base64'), 'utf8');
}

function computeMac(
  version: SignatureVersion,
  secret: string,
  order: string,
  merchantParameters: string,
): Buffer {
  const key = deriveOrderKey(version, secret, order);
  const algorithm = version === 'HMAC_SHA256_V1' ? 'sha256' : 'sha512';
  return createHmac(algorithm, key).update(merchantParameters, 'utf8').digest();
}

/**
 * Ds_Signature of a Ds_MerchantParameters string. V1 answers standard base64 (as Redsys'
 * request examples), V2 base64url without padding (as Redsys' official V2 library).
 * Throws `RedsysError` on an empty order or an unusable secret.
 */
export function sign(
  version: SignatureVersion,
  secret: string,
  order: string,
  merchantParameters: string,
): string {
  const mac = computeMac(version, secret, order, merchantParameters);
  return mac.toString(version === 'HMAC_SHA256_V1' ? 'base64' : 'base64url');
}

/** The order a signature is keyed on: Ds_Merchant_Order in a request, Ds_Order in a response. */
export function orderOf(params: MerchantParameters): string | undefined {
  return getParameter(params, 'Ds_Merchant_Order') ?? getParameter(params, 'Ds_Order');
}

/**
 * True only when `signature` (base64 or base64url, padded or not) is the signature of
 * `merchantParameters` under `secret`, keyed on the order inside the parameters. Compares the
 * decoded bytes in constant time. Never throws: unknown version, garbage or a bad secret is false.
 */
export function verify(
  version: string,
  secret: string,
  merchantParameters: string,
  signature: string,
): boolean {
  try {
    if (!isSignatureVersion(version)) return false;
    if (typeof merchantParameters !== 'string' || typeof signature !== 'string') return false;
    const order = orderOf(decodeMerchantParameters(merchantParameters));
    if (!order) return false;
    const received = decodeLooseBase64(signature, { canonical: true });
    const expected = computeMac(version, secret, order, merchantParameters);
    if (!received || received.length !== expected.length) return false;
    return timingSafeEqual(received, expected);
  } catch {
    return false;
  }
}
