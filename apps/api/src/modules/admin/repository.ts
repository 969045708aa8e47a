import type { Sql, SqlQuery } from '../../db/database.ts';

/** The tenant API keys (`api_keys`, migration 006): this module is the table's only writer. */
export type ApiKeyRow = {
  id: string;
  name: string;
  prefix: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
};

export function createApiKeyRepository() {
  return {
    async insert(
      sql: Sql,
      key: { name: string; prefix: string; hash: Buffer },
    ): Promise<ApiKeyRow | undefined> {
      const [row] = await sql.query<ApiKeyRow>(
        `INSERT INTO api_keys (tenant_id, name, prefix, key_hash)
         VALUES (current_setting('app.tenant_id'), $1, $2, $3)
         RETURNING id, name, prefix, created_at, last_used_at, revoked_at`,
        [key.name, key.prefix, key.hash],
      );
      return row;
    },

    list(sql: SqlQuery): Promise<ApiKeyRow[]> {
      return sql.query<ApiKeyRow>(
        `SELECT id, name, prefix, created_at, last_used_at, revoked_at FROM api_keys
          WHERE tenant_id = current_setting('app.tenant_id') ORDER BY created_at, id`,
      );
    },

    /** How many keys of the tenant are live and how many revoked (the admin CLI's `tenant show`). */
    async count(sql: SqlQuery): Promise<{ active: number; revoked: number }> {
      const [keys] = await sql.query<{ active: number; revoked: number }>(
        `SELECT count(*) FILTER (WHERE revoked_at IS NULL)::int AS active,
                count(*) FILTER (WHERE revoked_at IS NOT NULL)::int AS revoked
           FROM api_keys WHERE tenant_id = current_setting('app.tenant_id')`,
      );
      return keys ?? { active: 0, revoked: 0 };
    },

    async revoke(sql: SqlQuery, id: string): Promise<boolean> {
      const rows = await sql.query(
        `UPDATE api_keys SET revoked_at = now()
          WHERE tenant_id = current_setting('app.tenant_id') AND id::text = $1 AND revoked_at IS NULL
          RETURNING id`,
        [id],
      );
      return rows.length > 0;
    },

    /** The live key with this SHA-256 (hex), if any. */
    async findLive(
      sql: SqlQuery,
      hashHex: string,
    ): Promise<{ id: string; last_used_at: Date | null } | undefined> {
      const rows = await sql.query<{ id: string; last_used_at: Date | null }>(
        `SELECT id, last_used_at FROM api_keys
          WHERE tenant_id = current_setting('app.tenant_id') AND key_hash = decode($1, 'hex')
            AND revoked_at IS NULL`,
        [hashHex],
      );
      return rows[0];
    },

    async touch(sql: SqlQuery, id: string): Promise<void> {
      await sql.query(
        `UPDATE api_keys SET last_used_at = now() WHERE tenant_id = current_setting('app.tenant_id') AND id = $1`,
        [id],
      );
    },
  };
}
