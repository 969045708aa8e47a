import type { Redis } from 'ioredis';
import type { Database } from '../../db/database.ts';
import { createAuthRepository } from './repository.ts';

/**
 * Ended sessions, checked on every bearer call: an access token names its session (the refresh
 * family, claim `sid`), and a logout, a password reset or the reuse of a rotated refresh token
 * ends the family, so every access token of it is refused at once instead of living to its `exp`.
 *
 * The database is the truth (`refresh_tokens.revoked_at` of the family, written in the same
 * transaction that ends it). Without Redis each bearer call reads it: one single-statement
 * round trip on the family's index. With Redis (several instances) each ended session is also a
 * key that lives as long as an access token can, and a bearer call asks Redis only (one EXISTS);
 * if Redis fails, the database answers.
 */
export type Revocations = {
  isRevoked(tenantId: string, sessionId: string): Promise<boolean>;
  /** Called after the transaction that revoked these families committed. */
  revoked(tenantId: string, sessionIds: readonly string[]): Promise<void>;
};

export function createDatabaseRevocations(db: Database): Revocations {
  const repository = createAuthRepository();
  return {
    isRevoked: (tenantId, sessionId) =>
      db.readTenant(tenantId, (sql) => repository.isFamilyRevoked(sql, sessionId)),
    async revoked() {
      // The transaction that revoked the family already wrote what isRevoked reads.
    },
  };
}

/** A session ended lately, as the database holds it: what Redis must hold until it can expire. */
export type RecentRevocation = { tenant_id: string; family_id: string; age_ms: number };

/** The sessions the database ended in the last `seconds`, every tenant (read as the owner). */
export const recentRevocationsOf =
  (db: Database) =>
  (seconds: number): Promise<RecentRevocation[]> =>
    db.withOwner((sql) => createAuthRepository().recentRevocations(sql, seconds));

export function createRedisRevocations(
  redis: Redis,
  fallback: Revocations,
  {
    ttlSeconds,
    onError,
    prefix = 'portal:revoked:',
    recent,
  }: {
    ttlSeconds: number;
    onError: (error: unknown) => void;
    prefix?: string;
    /**
     * The sessions the database ended in the last `seconds` (every tenant). Copied into Redis
     * whenever the connection is ready (at start, and after Redis was down or restarted empty)
     * and after a write Redis did not take, at the next check: before session 36 a session ended
     * while Redis did not answer was in the database only, and an instance that had not heard the
     * database's announcement (one started later) honoured its tokens until they expired.
     */
    recent?: (seconds: number) => Promise<RecentRevocation[]>;
  },
): Revocations {
  const key = (tenantId: string, sessionId: string) => `${prefix}${tenantId}:${sessionId}`;
  // An access token lives ttlSeconds from its iat; a minute more covers clock skew between hosts.
  const keepMillis = (ttlSeconds + 60) * 1000;

  let copying: Promise<void> | undefined;
  /** A copy is owed: the last one or a write failed. */
  let owed = false;
  const copyRecent = () => {
    if (!recent) return;
    copying ??= (async () => {
      try {
        owed = false;
        const rows = await recent(keepMillis / 1000);
        const batch = redis.multi();
        for (const row of rows) {
          const left = keepMillis - Number(row.age_ms);
          if (left > 0) batch.set(key(row.tenant_id, row.family_id), '1', 'PX', left);
        }
        const results = await batch.exec();
        if (!results || results.some(([error]) => error))
          throw new Error('Redis did not take the recent revocations');
      } catch (error) {
        owed = true;
        onError(error);
      } finally {
        copying = undefined;
      }
    })();
  };
  redis.on('ready', copyRecent);
  if (redis.status === 'ready') copyRecent();

  return {
    async isRevoked(tenantId, sessionId) {
      // A write Redis missed while it answered: copy again (when it is down, the database answers
      // below, and its return is a 'ready').
      if (owed && redis.status === 'ready') copyRecent();
      // While a copy is being written, Redis may not hold everything yet: wait for it (one query
      // and one write; before, a new instance answered from a Redis not yet filled).
      if (copying) await copying;
      try {
        return (await redis.exists(key(tenantId, sessionId))) === 1;
      } catch (error) {
        onError(error);
        return fallback.isRevoked(tenantId, sessionId);
      }
    },
    async revoked(tenantId, sessionIds) {
      if (sessionIds.length === 0) return;
      const batch = redis.multi();
      for (const id of sessionIds) batch.set(key(tenantId, id), '1', 'PX', keepMillis);
      const results = await batch.exec().catch((error: unknown) => {
        owed = true;
        throw error;
      });
      // Not written to Redis, the other instances would keep honouring the session's tokens: the
      // call fails (5xx) and the client retries; the database already holds the revocation, and
      // the next copy of the recent ones (when Redis answers again) writes it.
      const failed = results?.find(([error]) => error);
      if (!results || failed) {
        owed = true;
        throw failed?.[0] ?? new Error('Redis did not record a revocation');
      }
    },
  };
}
