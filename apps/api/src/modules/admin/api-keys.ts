import { createHash, randomBytes } from 'node:crypto';
import { apiKeyPattern } from '@portal/contract';
import type { Sql, SqlQuery } from '../../db/database.ts';
import { createApiKeyRepository, type ApiKeyRow } from './repository.ts';

export type { ApiKeyRow } from './repository.ts';

/**
 * Tenant API keys: 256 random bits shown once to the operator; only their SHA-256 is stored (a key
 * this long cannot be guessed from its hash, so a slow password hash would only cost time on every
 * call). `prefix` (the first 12 characters) tells keys apart in a listing.
 */
export const hashApiKey = (key: string): Buffer => createHash('sha256').update(key).digest();

export const generateApiKey = (): string => `ptk_${randomBytes(32).toString('base64url')}`;

export const isApiKeyShaped = (value: string): boolean => apiKeyPattern.test(value);

const repository = createApiKeyRepository();

/** Creates a key for the tenant of the transaction; answers the key itself, the only time it exists. */
export async function createApiKey(
  sql: Sql,
  name: string,
): Promise<{ key: string; row: ApiKeyRow }> {
  const key = generateApiKey();
  const row = await repository.insert(sql, {
    name,
    prefix: key.slice(0, 12),
    hash: hashApiKey(key),
  });
  if (!row) throw new Error('api key not created');
  return { key, row };
}

export function listApiKeys(sql: SqlQuery): Promise<ApiKeyRow[]> {
  return repository.list(sql);
}

export function countApiKeys(sql: SqlQuery): Promise<{ active: number; revoked: number }> {
  return repository.count(sql);
}

export function revokeApiKey(sql: SqlQuery, id: string): Promise<boolean> {
  return repository.revoke(sql, id);
}

/** The live key of the tenant with this hash, if any. */
export function findApiKey(
  sql: SqlQuery,
  key: string,
): Promise<{ id: string; last_used_at: Date | null } | undefined> {
  // Hex text, not a Buffer: `readTenant` on PostgreSQL inlines parameters as text literals.
  return repository.findLive(sql, hashApiKey(key).toString('hex'));
}

/** Notes that the key was just used (`last_used_at`). */
export function touchApiKey(sql: SqlQuery, id: string): Promise<void> {
  return repository.touch(sql, id);
}
