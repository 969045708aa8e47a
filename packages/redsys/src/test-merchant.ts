import type { SignatureVersion } from './signature.ts';

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
