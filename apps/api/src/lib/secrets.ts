import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The server's root secret: from APP_SECRET (base64, at least 32 bytes) in production; in the
 * embedded mode generated once and kept in the data folder, so sessions survive a restart.
 * Purpose-bound keys are derived from it, so one variable is all an operator sets.
 */
export function loadRootSecret(options: {
  appSecret?: string;
  dataDir: string;
  embedded: boolean;
}): Buffer {
  if (options.appSecret) {
    const secret = Buffer.from(options.appSecret, 'base64');
    if (secret.length < 32) throw new Error('APP_SECRET must be at least 32 bytes, base64-encoded');
    return secret;
  }
  if (!options.embedded) {
    throw new Error('APP_SECRET is required with DATABASE_URL (openssl rand -base64 32)');
  }
  const file = join(options.dataDir, 'app-secret');
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  mkdirSync(options.dataDir, { recursive: true });
  const secret = randomBytes(32);
  writeFileSync(file, secret.toString('base64'), { mode: 0o600 });
  return secret;
}

/** A key for one purpose ("cookie", "jwt", "pdf-url", ...), derived from the root secret. */
export function deriveKey(root: Buffer, purpose: string): Buffer {
  return createHmac('sha256', root).update(`portal:${purpose}`).digest();
}
