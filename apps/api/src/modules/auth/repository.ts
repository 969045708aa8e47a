import type { TDeviceType, TSignInMethod, TSignInProvider } from '@portal/contract';
import type { Sql, SqlQuery } from '../../db/database.ts';
import { textArray } from '../../db/text-array.ts';

export type CustomerAuthRow = {
  id: string;
  code: string;
  name: string;
  last_name: string;
  email: string;
  password_hash: string | null;
  language: string;
};

export type RefreshRow = {
  id: string;
  family_id: string;
  customer_id: string;
  persistent: boolean;
  expires_at: Date;
  rotated_at: Date | null;
  revoked_at: Date | null;
  /** Rotated less than `refreshReuseSeconds` ago (on the database's clock). */
  rotated_recently: boolean | null;
};

/**
 * The channel on which the database announces each ended session, as `tenant_id family_id`, when
 * the transaction that ended it commits (revocation-cache.ts listens to it).
 */
export const revocationChannel = 'portal_revocations';

/**
 * Ends the families of the tenant's refresh tokens that match `where` and are not ended yet, and
 * announces each on `revocationChannel` in the same statement, so no path ends a session without
 * telling every instance: the announcement goes out if and when the transaction commits. Answers
 * each ended family once.
 */
const endFamilies = (where: string): string =>
  `WITH ended AS (
     UPDATE refresh_tokens SET revoked_at = now()
      WHERE tenant_id = current_setting('app.tenant_id') AND ${where} AND revoked_at IS NULL
      RETURNING family_id)
   SELECT family_id, pg_notify('${revocationChannel}', current_setting('app.tenant_id') || ' ' || family_id) AS announced
     FROM (SELECT DISTINCT family_id FROM ended) families`;

/**
 * How long a rotated refresh token still gets a successor instead of ending its family: a page
 * closed or navigated away while its refresh was in flight never stored the rotated cookie, and
 * its next load presents the old one again (decision 026).
 */
export const refreshReuseSeconds = 30;

export type SignInLinkRow = {
  id: string;
  customer_id: string;
  next_path: string;
  remember: boolean;
  expires_at: Date;
  used_at: Date | null;
};

export type ResetRow = {
  id: string;
  customer_id: string | null;
  email: string;
  expires_at: Date;
  used_at: Date | null;
  /** The address given with the token is the one it was sent to, lower-cased by PostgreSQL. */
  email_matches: boolean;
};

export type SessionRow = {
  id: string;
  method: TSignInMethod;
  browser: string;
  os: string;
  device_type: TDeviceType;
  network: string;
  created_at: Date;
  last_used_at: Date;
};

const customerColumns = 'id, code, name, last_name, email, password_hash, language';

/** Every method takes the transaction of `withTenant`: RLS limits it to that tenant. */
export function createAuthRepository() {
  return {
    async findCustomerByEmail(sql: Sql, email: string): Promise<CustomerAuthRow | undefined> {
      const rows = await sql.query<CustomerAuthRow>(
        `SELECT ${customerColumns} FROM customers WHERE tenant_id = current_setting('app.tenant_id') AND lower(email) = lower($1)`,
        [email],
      );
      return rows[0];
    },
    async findCustomerById(sql: Sql, id: string): Promise<CustomerAuthRow | undefined> {
      const rows = await sql.query<CustomerAuthRow>(
        `SELECT ${customerColumns} FROM customers WHERE tenant_id = current_setting('app.tenant_id') AND id = $1`,
        [id],
      );
      return rows[0];
    },
    async setPasswordHash(sql: Sql, customerId: string, hash: string): Promise<void> {
      await sql.query(
        `UPDATE customers SET password_hash = $2, updated_at = now()
          WHERE tenant_id = current_setting('app.tenant_id') AND id = $1`,
        [customerId, hash],
      );
    },

    /**
     * A stronger hash of the same password, written only while the password is still the one
     * checked (`oldHash`): a reset committed meanwhile is never undone by it. Answers whether it
     * was written.
     */
    async rehashPassword(
      sql: Sql,
      customerId: string,
      oldHash: string,
      newHash: string,
    ): Promise<boolean> {
      const rows = await sql.query(
        `UPDATE customers SET password_hash = $3
          WHERE tenant_id = current_setting('app.tenant_id') AND id = $1 AND password_hash = $2
          RETURNING id`,
        [customerId, oldHash, newHash],
      );
      return rows.length > 0;
    },

    /**
     * The customer's password hash now, locked against a change until the caller's transaction
     * ends (a reset or change waits for the session it opens, and then ends it).
     */
    async lockPasswordHash(sql: Sql, customerId: string): Promise<string | null | undefined> {
      const rows = await sql.query<{ password_hash: string | null }>(
        `SELECT password_hash FROM customers
          WHERE tenant_id = current_setting('app.tenant_id') AND id = $1 FOR SHARE`,
        [customerId],
      );
      return rows[0] ? rows[0].password_hash : undefined;
    },

    /**
     * The customer's password hash, the row locked for a change of theirs (the e-mail change):
     * two changes at once take turns, and a password change or reset in flight is waited for.
     */
    async lockCustomerForChange(sql: Sql, customerId: string): Promise<string | null | undefined> {
      const rows = await sql.query<{ password_hash: string | null }>(
        `SELECT password_hash FROM customers
          WHERE tenant_id = current_setting('app.tenant_id') AND id = $1 FOR UPDATE`,
        [customerId],
      );
      return rows[0] ? rows[0].password_hash : undefined;
    },

    async insertRefresh(
      sql: Sql,
      row: {
        familyId: string;
        customerId: string;
        tokenHash: Buffer;
        persistent: boolean;
        expiresAt: Date;
      },
    ): Promise<void> {
      await sql.query(
        `INSERT INTO refresh_tokens (tenant_id, family_id, customer_id, token_hash, persistent, expires_at)
         VALUES (current_setting('app.tenant_id'), $1, $2, $3, $4, $5)`,
        [row.familyId, row.customerId, row.tokenHash, row.persistent, row.expiresAt],
      );
    },
    /** Describes a new session (refresh family); the same transaction inserts its first token. */
    async insertSession(
      sql: Sql,
      row: {
        id: string;
        customerId: string;
        method: TSignInMethod;
        browser: string;
        os: string;
        deviceType: TDeviceType;
        network: string;
        deviceHash: Buffer;
        endTokenHash: Buffer | null;
        passkeyId: string | null;
      },
    ): Promise<void> {
      await sql.query(
        `INSERT INTO customer_sessions
           (tenant_id, id, customer_id, method, browser, os, device_type, network, device_hash,
            end_token_hash, passkey_id)
         VALUES (current_setting('app.tenant_id'), $1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          row.id,
          row.customerId,
          row.method,
          row.browser,
          row.os,
          row.deviceType,
          row.network,
          row.deviceHash,
          row.endTokenHash,
          row.passkeyId,
        ],
      );
    },
    /** Whether the customer signed in before at all, and before from this browser. */
    async devicesSeen(
      sql: Sql,
      customerId: string,
      deviceHash: Buffer,
    ): Promise<{ any: boolean; this: boolean }> {
      const rows = await sql.query<{ any: boolean; this: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM customer_sessions
                         WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1) AS any,
                EXISTS (SELECT 1 FROM customer_sessions
                         WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1
                           AND device_hash = $2) AS this`,
        [customerId, deviceHash],
      );
      return { any: rows[0]?.any === true, this: rows[0]?.this === true };
    },
    /** Whether this customer's session signed in (not refreshed: signed in) within `minutes`. */
    async signedInWithin(
      sql: Sql,
      customerId: string,
      sessionId: string,
      minutes: number,
    ): Promise<boolean> {
      const rows = await sql.query<{ recent: boolean }>(
        `SELECT created_at > now() - make_interval(mins => $3) AS recent FROM customer_sessions
          WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1 AND id = $2`,
        [customerId, sessionId, minutes],
      );
      return rows[0]?.recent === true;
    },
    async touchSession(sql: Sql, id: string): Promise<void> {
      await sql.query(
        `UPDATE customer_sessions SET last_used_at = now()
          WHERE tenant_id = current_setting('app.tenant_id') AND id = $1`,
        [id],
      );
    },
    /**
     * The customer's open sessions, last used first: a family with a live token (not rotated, not
     * expired) and none revoked.
     */
    async listOpenSessions(sql: Sql, customerId: string): Promise<SessionRow[]> {
      return sql.query<SessionRow>(
        `SELECT s.id, s.method, s.browser, s.os, s.device_type, s.network, s.created_at, s.last_used_at
           FROM customer_sessions s
          WHERE s.tenant_id = current_setting('app.tenant_id') AND s.customer_id = $1
            AND EXISTS (SELECT 1 FROM refresh_tokens r
                         WHERE r.tenant_id = s.tenant_id AND r.family_id = s.id
                           AND r.rotated_at IS NULL AND r.expires_at > now())
            AND NOT EXISTS (SELECT 1 FROM refresh_tokens r
                             WHERE r.tenant_id = s.tenant_id AND r.family_id = s.id
                               AND r.revoked_at IS NOT NULL)
          ORDER BY s.last_used_at DESC, s.created_at DESC
          LIMIT 100`,
        [customerId],
      );
    },
    /** Ends one session of this customer; answers whether it was open. */
    async revokeSessionOfCustomer(sql: Sql, customerId: string, id: string): Promise<boolean> {
      const rows = await sql.query<{ family_id: string }>(
        endFamilies(`customer_id = $1 AND family_id = $2`),
        [customerId, id],
      );
      return rows.length > 0;
    },
    /** Spends a "was this you?" link: answers its session and customer, once. */
    async spendEndToken(
      sql: Sql,
      tokenHash: Buffer,
    ): Promise<{ id: string; customer_id: string } | undefined> {
      const rows = await sql.query<{ id: string; customer_id: string }>(
        `UPDATE customer_sessions SET end_token_hash = NULL
          WHERE tenant_id = current_setting('app.tenant_id') AND end_token_hash = $1
          RETURNING id, customer_id`,
        [tokenHash],
      );
      return rows[0];
    },

    /** Locks the row so that two refreshes with one token cannot both rotate it. */
    async findRefreshForUpdate(sql: Sql, tokenHash: Buffer): Promise<RefreshRow | undefined> {
      const rows = await sql.query<RefreshRow>(
        `SELECT id, family_id, customer_id, persistent, expires_at, rotated_at, revoked_at,
                rotated_at > now() - make_interval(secs => ${refreshReuseSeconds}) AS rotated_recently
           FROM refresh_tokens WHERE tenant_id = current_setting('app.tenant_id') AND token_hash = $1
          FOR UPDATE`,
        [tokenHash],
      );
      return rows[0];
    },
    async markRotated(sql: Sql, id: string): Promise<void> {
      await sql.query(
        `UPDATE refresh_tokens SET rotated_at = now() WHERE tenant_id = current_setting('app.tenant_id') AND id = $1`,
        [id],
      );
    },
    async revokeFamily(sql: Sql, familyId: string): Promise<void> {
      await sql.query(endFamilies(`family_id = $1`), [familyId]);
    },
    /** Ends every session of the customer; answers the families (sessions) it ended. */
    async revokeAllOfCustomer(sql: Sql, customerId: string): Promise<string[]> {
      const rows = await sql.query<{ family_id: string }>(endFamilies(`customer_id = $1`), [
        customerId,
      ]);
      return rows.map((r) => r.family_id);
    },
    /** Ends the sessions a passkey opened but `keep`; answers the families it ended. */
    async revokeSessionsOfPasskey(
      sql: Sql,
      customerId: string,
      passkeyId: string,
      keep: string,
    ): Promise<string[]> {
      const rows = await sql.query<{ family_id: string }>(
        endFamilies(`customer_id = $1 AND family_id <> $3 AND family_id IN (
          SELECT id FROM customer_sessions
           WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1
             AND passkey_id::text = $2)`),
        [customerId, passkeyId, keep],
      );
      return rows.map((r) => r.family_id);
    },
    /** Ends every session of the customer but `keep`; answers the families it ended. */
    async revokeOthersOfCustomer(sql: Sql, customerId: string, keep: string): Promise<string[]> {
      const rows = await sql.query<{ family_id: string }>(
        endFamilies(`customer_id = $1 AND family_id <> $2`),
        [customerId, keep],
      );
      return rows.map((r) => r.family_id);
    },
    /**
     * Every session ended in the last `seconds`, across tenants (tenant and family ids only, read
     * as the owner): what a Redis that restarted empty or missed a write must hold again.
     */
    async recentRevocations(
      sql: SqlQuery,
      seconds: number,
    ): Promise<{ tenant_id: string; family_id: string; age_ms: number }[]> {
      return sql.query(
        `SELECT tenant_id, family_id::text AS family_id,
                (extract(epoch FROM now() - max(revoked_at)) * 1000)::int8 AS age_ms
           FROM refresh_tokens
          WHERE revoked_at IS NOT NULL AND revoked_at > now() - make_interval(secs => $1)
          GROUP BY tenant_id, family_id`,
        [seconds],
      );
    },
    /** True when the session (refresh family) was ended; one statement, on the family's index. */
    async isFamilyRevoked(sql: SqlQuery, familyId: string): Promise<boolean> {
      const rows = await sql.query<{ revoked: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM refresh_tokens
                         WHERE tenant_id = current_setting('app.tenant_id') AND family_id = $1
                           AND revoked_at IS NOT NULL) AS revoked`,
        [familyId],
      );
      return rows[0]?.revoked === true;
    },

    async insertReset(
      sql: Sql,
      row: { customerId: string; email: string; tokenHash: Buffer; expiresAt: Date },
    ): Promise<void> {
      await sql.query(
        `INSERT INTO password_resets (tenant_id, customer_id, email, token_hash, expires_at)
         VALUES (current_setting('app.tenant_id'), $1, lower($2), $3, $4)`,
        [row.customerId, row.email, row.tokenHash, row.expiresAt],
      );
    },
    /**
     * The reset of the token, and whether `email` is the address it was sent to. Compared by
     * PostgreSQL's lower(), as it stored it: JavaScript lower-cases some letters otherwise (`İ`
     * becomes `i` and a combining dot), and such an address never matched (session 37).
     */
    async findResetForUpdate(
      sql: Sql,
      tokenHash: Buffer,
      email: string,
    ): Promise<ResetRow | undefined> {
      const rows = await sql.query<ResetRow>(
        `SELECT id, customer_id, email, expires_at, used_at, email = lower($2) AS email_matches
           FROM password_resets
          WHERE tenant_id = current_setting('app.tenant_id') AND token_hash = $1 FOR UPDATE`,
        [tokenHash, email],
      );
      return rows[0];
    },
    /** Spends every outstanding reset token of the customer (the used one and any older ones). */
    async spendResets(sql: Sql, customerId: string): Promise<void> {
      await sql.query(
        `UPDATE password_resets SET used_at = now()
          WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1 AND used_at IS NULL`,
        [customerId],
      );
    },

    /**
     * What proved the owner only through the old sign-in e-mail ends when it changes (the owner's
     * confirmed change, or the provider's): reset links and invitations, sign-in links, e-mail
     * changes waiting for their link, and the Google/Apple/Microsoft accounts linked because they
     * vouched for that address (migration 013's customer_identities; linked again, by the new
     * address, at the next such sign-in), with the sessions such accounts opened: before session
     * 38 the unlinked account's session kept working (and its refresh token renewing it).
     * Answers the sessions (refresh families) it ended.
     */
    async spendAfterEmailMoved(sql: Sql, customerIds: string[]): Promise<string[]> {
      if (customerIds.length === 0) return [];
      for (const table of ['password_resets', 'sign_in_links', 'email_changes']) {
        await sql.query(
          `UPDATE ${table} SET used_at = now()
            WHERE tenant_id = current_setting('app.tenant_id') AND customer_id::text = ANY($1)
              AND used_at IS NULL`,
          [customerIds],
        );
      }
      await sql.query(
        `DELETE FROM customer_identities
          WHERE tenant_id = current_setting('app.tenant_id') AND customer_id::text = ANY($1)`,
        [customerIds],
      );
      // Every provider account of theirs is unlinked above, so every session opened through one.
      const ended = await sql.query<{ family_id: string }>(
        endFamilies(`customer_id::text = ANY($1) AND family_id IN (
          SELECT id FROM customer_sessions
           WHERE tenant_id = current_setting('app.tenant_id') AND customer_id::text = ANY($1)
             AND method = 'external')`),
        [customerIds],
      );
      return ended.map((r) => r.family_id);
    },
    /**
     * What was begun with the old password and not finished ends when it changes: a second-factor
     * set-up not yet confirmed, a passkey challenge not yet answered (each needed the password to
     * start; finishing needs only an access token), and a sign-in waiting for its second factor
     * (kept, it signed a thief in after the reset).
     */
    async endPendingSetups(sql: Sql, customerId: string): Promise<void> {
      await sql.query(
        `UPDATE sign_in_challenges SET used_at = now()
          WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1
            AND used_at IS NULL`,
        [customerId],
      );
      await sql.query(
        `DELETE FROM customer_totp WHERE tenant_id = current_setting('app.tenant_id')
            AND customer_id = $1 AND confirmed_at IS NULL`,
        [customerId],
      );
      await sql.query(
        `UPDATE webauthn_challenges SET used_at = now()
          WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1
            AND purpose = 'register' AND used_at IS NULL`,
        [customerId],
      );
    },
    /**
     * A reset by the owner's mailbox unlinks every Google, Apple or Microsoft account: one may be
     * a thief's, linked once when it vouched for the address (linked again at the owner's next
     * such sign-in).
     */
    async unlinkIdentitiesOf(sql: Sql, customerId: string): Promise<void> {
      await sql.query(
        `DELETE FROM customer_identities
          WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1`,
        [customerId],
      );
    },
    /** A reset by the owner's mailbox removes every passkey: one may be a thief's. */
    async deletePasskeysOf(sql: Sql, customerId: string): Promise<number> {
      const rows = await sql.query(
        `DELETE FROM customer_passkeys
          WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1 RETURNING id`,
        [customerId],
      );
      return rows.length;
    },
    /**
     * A reset by the owner's mailbox turns off a second factor turned on less than `hours` ago:
     * it may be a thief's, turned on with the password they used, which would otherwise keep the
     * owner out after the reset too. Answers when it had been turned on, or null.
     */
    async dropSecondFactorSince(sql: Sql, customerId: string, hours: number): Promise<Date | null> {
      const rows = await sql.query<{ confirmed_at: Date }>(
        `WITH dropped AS (
           DELETE FROM customer_totp
            WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1
              AND confirmed_at > now() - make_interval(hours => $2)
            RETURNING confirmed_at),
         codes AS (
           DELETE FROM customer_recovery_codes
            WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1
              AND EXISTS (SELECT 1 FROM dropped))
         SELECT confirmed_at FROM dropped`,
        [customerId, hours],
      );
      return rows[0]?.confirmed_at ?? null;
    },
    /** A change of the sign-in e-mail waiting for the new address (migration 020). */
    async insertEmailChange(
      sql: Sql,
      row: {
        customerId: string;
        newEmail: string;
        tokenHash: Buffer;
        expiresAt: Date;
        /** The session that asked (migration 036): ending it ends the change. */
        sessionId: string;
      },
    ): Promise<void> {
      await sql.query(
        `INSERT INTO email_changes (tenant_id, customer_id, new_email, token_hash, expires_at, session_id)
         VALUES (current_setting('app.tenant_id'), $1, $2, $3, $4, $5)`,
        [row.customerId, row.newEmail, row.tokenHash, row.expiresAt, row.sessionId],
      );
    },
    /** The owner ended these sessions: the e-mail changes they asked for end with them. */
    async spendEmailChangesFrom(sql: Sql, sessionIds: readonly string[]): Promise<void> {
      if (sessionIds.length === 0) return;
      await sql.query(
        `UPDATE email_changes SET used_at = now()
          WHERE tenant_id = current_setting('app.tenant_id') AND session_id::text = ANY($1)
            AND used_at IS NULL`,
        [sessionIds],
      );
    },
    /** Spends the change of this token, once: answers it (expired or not), or undefined. */
    async spendEmailChange(
      sql: Sql,
      tokenHash: Buffer,
    ): Promise<{ customer_id: string; new_email: string; expires_at: Date } | undefined> {
      const rows = await sql.query<{ customer_id: string; new_email: string; expires_at: Date }>(
        `UPDATE email_changes SET used_at = now()
          WHERE tenant_id = current_setting('app.tenant_id') AND token_hash = $1 AND used_at IS NULL
          RETURNING customer_id, new_email, expires_at`,
        [tokenHash],
      );
      return rows[0];
    },
    /** The customer's other changes waiting: spent once one is confirmed (or the e-mail taken). */
    async spendEmailChangesOf(sql: Sql, customerId: string): Promise<void> {
      await sql.query(
        `UPDATE email_changes SET used_at = now()
          WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1 AND used_at IS NULL`,
        [customerId],
      );
    },
    /** The sign-in e-mail; false when another customer of the tenant has it already. */
    async setEmail(sql: Sql, customerId: string, email: string): Promise<boolean> {
      const rows = await sql.query(
        `UPDATE customers SET email = $2, updated_at = now()
          WHERE tenant_id = current_setting('app.tenant_id') AND id = $1
            AND NOT EXISTS (SELECT 1 FROM customers o
                             WHERE o.tenant_id = current_setting('app.tenant_id')
                               AND lower(o.email) = lower($2) AND o.id <> $1)
          RETURNING id`,
        [customerId, email],
      );
      return rows.length > 0;
    },

    async insertSignInLink(
      sql: Sql,
      row: {
        customerId: string;
        tokenHash: Buffer;
        nextPath: string;
        remember: boolean;
        expiresAt: Date;
      },
    ): Promise<void> {
      await sql.query(
        `INSERT INTO sign_in_links (tenant_id, customer_id, token_hash, next_path, remember, expires_at)
         VALUES (current_setting('app.tenant_id'), $1, $2, $3, $4, $5)`,
        [row.customerId, row.tokenHash, row.nextPath, row.remember, row.expiresAt],
      );
    },
    /** Locks the link so that two tabs redeeming it at once cannot both sign in. */
    async findSignInLinkForUpdate(sql: Sql, tokenHash: Buffer): Promise<SignInLinkRow | undefined> {
      const rows = await sql.query<SignInLinkRow>(
        `SELECT id, customer_id, next_path, remember, expires_at, used_at FROM sign_in_links
          WHERE tenant_id = current_setting('app.tenant_id') AND token_hash = $1 FOR UPDATE`,
        [tokenHash],
      );
      return rows[0];
    },
    /** Spends every sign-in link of the customer not used yet. */
    async spendSignInLinksOf(sql: Sql, customerId: string): Promise<void> {
      await sql.query(
        `UPDATE sign_in_links SET used_at = now()
          WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1 AND used_at IS NULL`,
        [customerId],
      );
    },
    async spendSignInLink(sql: Sql, id: string): Promise<void> {
      await sql.query(
        `UPDATE sign_in_links SET used_at = now()
          WHERE tenant_id = current_setting('app.tenant_id') AND id = $1`,
        [id],
      );
    },

    async findIdentity(sql: Sql, issuer: string, subject: string): Promise<string | undefined> {
      const rows = await sql.query<{ customer_id: string }>(
        `SELECT customer_id FROM customer_identities
          WHERE tenant_id = current_setting('app.tenant_id') AND issuer = $1 AND subject = $2`,
        [issuer, subject],
      );
      return rows[0]?.customer_id;
    },
    /** The tenant's configuration of a sign-in provider, its client secret as stored (sealed). */
    async findSignInProvider(sql: SqlQuery, provider: string) {
      const rows = await sql.query<{
        tenant_id: string;
        provider: TSignInProvider;
        issuer: string;
        client_id: string;
        client_secret: string;
      }>(
        `SELECT tenant_id, provider, issuer, client_id, client_secret FROM tenant_sign_in_providers
          WHERE tenant_id = current_setting('app.tenant_id') AND provider = $1`,
        [provider],
      );
      return rows[0];
    },
    async linkIdentity(
      sql: Sql,
      row: { issuer: string; subject: string; customerId: string; provider: string },
    ) {
      await sql.query(
        `INSERT INTO customer_identities (tenant_id, issuer, subject, customer_id, provider)
         VALUES (current_setting('app.tenant_id'), $1, $2, $3, $4) ON CONFLICT DO NOTHING`,
        [row.issuer, row.subject, row.customerId, row.provider],
      );
    },
  };
}

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
  /** The customer's password hash as the challenge is read (and spent): the session it opens
   * is saved only while it is still theirs (`openSession`). */
  password_hash: string | null;
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
    /** Spends a recovery code stored as one of `hashes`: true when it was the customer's and unused. */
    async spendRecoveryCode(sql: Sql, customerId: string, hashes: Buffer[]): Promise<boolean> {
      const rows = await sql.query<{ customer_id: string }>(
        // One code is stored one way only (a set is replaced whole), so at most one row matches.
        `UPDATE customer_recovery_codes SET used_at = now()
          WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1
            AND code_hash = ANY($2::bytea[]) AND used_at IS NULL
          RETURNING customer_id`,
        [customerId, hashes],
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
        `SELECT s.id, s.customer_id, s.method, s.remember, s.next_path, s.failures, s.expires_at,
                s.used_at, c.password_hash
           FROM sign_in_challenges s
           JOIN customers c ON c.tenant_id = s.tenant_id AND c.id = s.customer_id
          WHERE s.tenant_id = current_setting('app.tenant_id') AND s.token_hash = $1
          FOR UPDATE OF s`,
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

export type PasskeyRow = {
  id: string;
  customer_id: string;
  credential_id: string;
  public_key: Uint8Array;
  counter: string;
  transports: string[];
  name: string;
  backed_up: boolean;
  created_at: Date;
  last_used_at: Date | null;
};

const passkeyColumns =
  'id, customer_id, credential_id, public_key, counter::text AS counter, transports, name, backed_up, created_at, last_used_at';

/** Passkeys and their challenges (migration 016); the auth module writes them. */
export function createPasskeyRepository() {
  return {
    async insertChallenge(
      sql: Sql,
      row: {
        challenge: string;
        purpose: 'register' | 'authenticate';
        customerId: string | null;
        expiresAt: Date;
      },
    ): Promise<void> {
      await sql.query(
        `INSERT INTO webauthn_challenges (tenant_id, challenge, purpose, customer_id, expires_at)
         VALUES (current_setting('app.tenant_id'), $1, $2, $3, $4)`,
        [row.challenge, row.purpose, row.customerId, row.expiresAt],
      );
    },
    /** Spends a challenge of this purpose that has not expired: answers its customer (if any). */
    async spendChallenge(
      sql: Sql,
      challenge: string,
      purpose: 'register' | 'authenticate',
    ): Promise<{ customer_id: string | null } | undefined> {
      const rows = await sql.query<{ customer_id: string | null }>(
        `UPDATE webauthn_challenges SET used_at = now()
          WHERE tenant_id = current_setting('app.tenant_id') AND challenge = $1 AND purpose = $2
            AND used_at IS NULL AND expires_at > now()
          RETURNING customer_id`,
        [challenge, purpose],
      );
      return rows[0];
    },
    async listOfCustomer(sql: Sql, customerId: string): Promise<PasskeyRow[]> {
      return sql.query<PasskeyRow>(
        `SELECT ${passkeyColumns} FROM customer_passkeys
          WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1
          ORDER BY created_at`,
        [customerId],
      );
    },
    async findByCredential(sql: Sql, credentialId: string): Promise<PasskeyRow | undefined> {
      const rows = await sql.query<PasskeyRow>(
        `SELECT ${passkeyColumns} FROM customer_passkeys
          WHERE tenant_id = current_setting('app.tenant_id') AND credential_id = $1 FOR UPDATE`,
        [credentialId],
      );
      return rows[0];
    },
    async insertPasskey(
      sql: Sql,
      row: {
        customerId: string;
        credentialId: string;
        publicKey: Uint8Array;
        counter: number;
        transports: string[];
        name: string;
        backedUp: boolean;
      },
    ): Promise<void> {
      await sql.query(
        `INSERT INTO customer_passkeys
           (tenant_id, customer_id, credential_id, public_key, counter, transports, name, backed_up)
         VALUES (current_setting('app.tenant_id'), $1, $2, $3, $4, $5, $6, $7)`,
        [
          row.customerId,
          row.credentialId,
          Buffer.from(row.publicKey),
          row.counter,
          textArray(row.transports),
          row.name,
          row.backedUp,
        ],
      );
    },
    async markUsed(sql: Sql, id: string, counter: number): Promise<void> {
      await sql.query(
        `UPDATE customer_passkeys SET counter = $2, last_used_at = now()
          WHERE tenant_id = current_setting('app.tenant_id') AND id = $1`,
        [id, counter],
      );
    },
    /** Any id text: one that is no passkey of the customer (or no uuid at all) changes nothing. */
    async rename(sql: Sql, customerId: string, id: string, name: string): Promise<boolean> {
      const rows = await sql.query<{ id: string }>(
        `UPDATE customer_passkeys SET name = $3
          WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1 AND id::text = $2
          RETURNING id`,
        [customerId, id, name],
      );
      return rows.length > 0;
    },
    /**
     * Whether the passkey is still the customer's, locked against its removal until the caller's
     * transaction ends (a removal waits for the session it opens, and then ends it).
     */
    async lockPasskey(sql: Sql, customerId: string, id: string): Promise<boolean> {
      const rows = await sql.query(
        `SELECT 1 FROM customer_passkeys
          WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1 AND id = $2
          FOR SHARE`,
        [customerId, id],
      );
      return rows.length > 0;
    },

    async remove(sql: Sql, customerId: string, id: string): Promise<boolean> {
      const rows = await sql.query<{ id: string }>(
        `DELETE FROM customer_passkeys
          WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1 AND id::text = $2
          RETURNING id`,
        [customerId, id],
      );
      return rows.length > 0;
    },
  };
}
