import type { Sql } from '../../db/database.ts';

export type TotpRow = { secret: string; confirmed_at: Date | null; last_step: string };

export type ChallengeRow = {
  id: string;
  customer_id: string;
  method: 'password' | 'link';
  remember: boolean;
  next_path: string;
  failures: number;
  expires_at: Date;
  used_at: Date | null;
};

/**
 * The second factor's tables (migration 015): the auth module writes them. Every method takes the
 * transaction of `withTenant`: RLS limits it to that tenant.
 */
export function createSecondFactorRepository() {
  return {
    async findTotp(sql: Sql, customerId: string): Promise<TotpRow | undefined> {
      const rows = await sql.query<TotpRow>(
        `SELECT secret, confirmed_at, last_step::text AS last_step FROM customer_totp
          WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1 FOR UPDATE`,
        [customerId],
      );
      return rows[0];
    },
    /** A new pending secret, replacing a pending one; a confirmed one is left alone. */
    async savePendingTotp(sql: Sql, customerId: string, sealed: string): Promise<boolean> {
      const rows = await sql.query<{ customer_id: string }>(
        `INSERT INTO customer_totp (tenant_id, customer_id, secret)
         VALUES (current_setting('app.tenant_id'), $1, $2)
         ON CONFLICT (tenant_id, customer_id) DO UPDATE
           SET secret = EXCLUDED.secret, last_step = 0, created_at = now()
           WHERE customer_totp.confirmed_at IS NULL
         RETURNING customer_id`,
        [customerId, sealed],
      );
      return rows.length > 0;
    },
    async acceptStep(sql: Sql, customerId: string, step: number, confirm: boolean): Promise<void> {
      await sql.query(
        `UPDATE customer_totp
            SET last_step = $2, confirmed_at = CASE WHEN $3 THEN coalesce(confirmed_at, now()) ELSE confirmed_at END
          WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1`,
        [customerId, step, confirm],
      );
    },
    async deleteTotp(sql: Sql, customerId: string): Promise<void> {
      await sql.query(
        `DELETE FROM customer_totp WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1`,
        [customerId],
      );
      await sql.query(
        `DELETE FROM customer_recovery_codes
          WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1`,
        [customerId],
      );
    },
    async replaceRecoveryCodes(sql: Sql, customerId: string, hashes: Buffer[]): Promise<void> {
      await sql.query(
        `DELETE FROM customer_recovery_codes
          WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1`,
        [customerId],
      );
      for (const hash of hashes) {
        await sql.query(
          `INSERT INTO customer_recovery_codes (tenant_id, customer_id, code_hash)
           VALUES (current_setting('app.tenant_id'), $1, $2)`,
          [customerId, hash],
        );
      }
    },
    /** Spends a recovery code: true when it was the customer's and unused. */
    async spendRecoveryCode(sql: Sql, customerId: string, hash: Buffer): Promise<boolean> {
      const rows = await sql.query<{ customer_id: string }>(
        `UPDATE customer_recovery_codes SET used_at = now()
          WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1
            AND code_hash = $2 AND used_at IS NULL
          RETURNING customer_id`,
        [customerId, hash],
      );
      return rows.length > 0;
    },
    async countRecoveryCodesLeft(sql: Sql, customerId: string): Promise<number> {
      const rows = await sql.query<{ left: number }>(
        `SELECT count(*)::int AS left FROM customer_recovery_codes
          WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1 AND used_at IS NULL`,
        [customerId],
      );
      return rows[0]?.left ?? 0;
    },

    async insertChallenge(
      sql: Sql,
      row: {
        customerId: string;
        tokenHash: Buffer;
        method: 'password' | 'link';
        remember: boolean;
        nextPath: string;
        expiresAt: Date;
      },
    ): Promise<void> {
      await sql.query(
        `INSERT INTO sign_in_challenges
           (tenant_id, customer_id, token_hash, method, remember, next_path, expires_at)
         VALUES (current_setting('app.tenant_id'), $1, $2, $3, $4, $5, $6)`,
        [row.customerId, row.tokenHash, row.method, row.remember, row.nextPath, row.expiresAt],
      );
    },
    /** Locks the challenge: two codes sent at once are judged one after the other. */
    async findChallengeForUpdate(sql: Sql, tokenHash: Buffer): Promise<ChallengeRow | undefined> {
      const rows = await sql.query<ChallengeRow>(
        `SELECT id, customer_id, method, remember, next_path, failures, expires_at, used_at
           FROM sign_in_challenges
          WHERE tenant_id = current_setting('app.tenant_id') AND token_hash = $1 FOR UPDATE`,
        [tokenHash],
      );
      return rows[0];
    },
    async countChallengeFailure(sql: Sql, id: string): Promise<void> {
      await sql.query(
        `UPDATE sign_in_challenges SET failures = failures + 1
          WHERE tenant_id = current_setting('app.tenant_id') AND id = $1`,
        [id],
      );
    },
    async spendChallenge(sql: Sql, id: string): Promise<void> {
      await sql.query(
        `UPDATE sign_in_challenges SET used_at = now()
          WHERE tenant_id = current_setting('app.tenant_id') AND id = $1`,
        [id],
      );
    },
  };
}
