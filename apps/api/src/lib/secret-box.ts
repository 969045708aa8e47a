import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { deriveKey } from './secrets.ts';

/**
 * Secrets kept in the database (a tenant's Redsys key, OIDC client secrets, the webhook signing
 * secret) are sealed with AES-256-GCM under a key derived from the root secret (APP_SECRET), so a
 * copy of the database alone does not give them away. The associated data binds a sealed value to
 * its tenant and column: a value copied into another tenant's row does not open.
 *
 * Format: `enc:v1:<iv>.<tag>.<ciphertext>` (base64url). A value without the prefix is a plaintext
 * written before this existed (or by hand); `open` returns it unchanged and `sealPlaintextSecrets`
 * seals it at the next start.
 */
export type SecretBox = {
  seal(plaintext: string, context: SecretContext): string;
  open(stored: string, context: SecretContext): string;
};

/** Where a sealed value lives: it opens only there. */
export type SecretContext = { tenantId: string; field: SecretField };
export type SecretField =
  'redsys_secret_key' | 'oidc_client_secret' | 'webhook_secret' | 'totp_secret';

const prefix = 'enc:v1:';

export const isSealed = (stored: string): boolean => stored.startsWith(prefix);

export function createSecretBox(rootSecret: Buffer): SecretBox {
  const key = deriveKey(rootSecret, 'secrets-at-rest');
  const aad = (c: SecretContext) => Buffer.from(`${c.tenantId}\u0000${c.field}`, 'utf8');
  return {
    seal(plaintext, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(aad(context));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return `${prefix}${iv.toString('base64url')}.${tag.toString('base64url')}.${body.toString('base64url')}`;
    },
    open(stored, context) {
      if (!isSealed(stored)) return stored;
      const [iv, tag, body] = stored.slice(prefix.length).split('.');
      if (iv === undefined || tag === undefined || body === undefined) {
        throw new Error(`A sealed ${context.field} of tenant ${context.tenantId} is malformed`);
      }
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAAD(aad(context));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([
          decipher.update(Buffer.from(body, 'base64url')),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        // Wrong APP_SECRET, or a value moved from another tenant or column.
        throw new Error(
          `The ${context.field} of tenant ${context.tenantId} does not open with this APP_SECRET`,
        );
      }
    },
  };
}
