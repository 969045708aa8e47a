import { createHash, randomBytes } from 'node:crypto';
import { apiKeyPattern } from '@portal/contract';
import type { Sql, SqlQuery } from '../../db/database.ts';

/**
 * Tenant API keys: 256 random bits shown once to the operator; only their SHA-256 is stored (a key
 * this long cannot be guessed from its hash, so a slow password hash would only cost time on every
 * call). `prefix` (the first 12 characters) tells keys apart in a listing.
 */
export const hashApiKey = (key: string): Buffer => createHash('sha256').update(key).digest();

export const generateApiKey = (): string => `ptk_${randomBytes(32).toString('base64url')}`;

export const isApiKeyShaped = (value: string): boolean => apiKeyPattern.test(value);

export type ApiKeyRow = {
  id: string;
  name: string;
  prefix: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
};

/** Creates a key for the tenant of the transaction; answers the key itself, the only time it exists. */
export async function createApiKey(
  sql: Sql,
  name: string,
): Promise<{ key: string; row: ApiKeyRow }> {
  const key = generateApiKey();
  const [row] = await sql.query<ApiKeyRow>(
    `INSERT INTO api_keys (tenant_id, name, prefix, key_hash)
     VALUES (current_setting('app.tenant_id'), $1, $2, $3)
     RETURNING id, name, prefix, created_at, last_used_at, revoked_at`,
    [name, key.slice(0, 12), hashApiKey(key)],
  );
  if (!row) throw new Error('api key not created');
  return { key, row };
}

export async function listApiKeys(sql: SqlQuery): Promise<ApiKeyRow[]> {
  return sql.query<ApiKeyRow>(
    `SELECT id, name, prefix, created_at, last_used_at, revoked_at FROM api_keys
      WHERE tenant_id = current_setting('app.tenant_id') ORDER BY created_at, id`,
  );
}

export async function revokeApiKey(sql: SqlQuery, id: string): Promise<boolean> {
  const rows = await sql.query(
    `UPDATE api_keys SET revoked_at = now()
      WHERE tenant_id = current_setting('app.tenant_id') AND id::text = $1 AND revoked_at IS NULL
      RETURNING id`,
    [id],
  );
  return rows.length > 0;
}

/** The live key of the tenant with this hash, if any. */
export async function findApiKey(
  sql: SqlQuery,
  key: string,
): Promise<{ id: string; last_used_at: Date | null } | undefined> {
  const rows = await sql.query<{ id: string; last_used_at: Date | null }>(
    `SELECT id, last_used_at FROM api_keys
      WHERE tenant_id = current_setting('app.tenant_id') AND key_hash = decode($1, 'hex')
        AND revoked_at IS NULL`,
    // Hex text, not a Buffer: `readTenant` on PostgreSQL inlines parameters as text literals.
    [hashApiKey(key).toString('hex')],
  );
  return rows[0];
}
