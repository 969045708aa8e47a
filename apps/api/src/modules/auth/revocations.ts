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

export function createRedisRevocations(
  redis: Redis,
  fallback: Revocations,
  {
    ttlSeconds,
    onError,
    prefix = 'portal:revoked:',
  }: { ttlSeconds: number; onError: (error: unknown) => void; prefix?: string },
): Revocations {
  const key = (tenantId: string, sessionId: string) => `${prefix}${tenantId}:${sessionId}`;
  // An access token lives ttlSeconds from its iat; a minute more covers clock skew between hosts.
  const keepMillis = (ttlSeconds + 60) * 1000;
  return {
    async isRevoked(tenantId, sessionId) {
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
      const results = await batch.exec();
      // Not written to Redis, the other instances would keep honouring the session's tokens: the
      // call fails (5xx) and the client retries; the database already holds the revocation.
      const failed = results?.find(([error]) => error);
      if (!results || failed) throw failed?.[0] ?? new Error('Redis did not record a revocation');
    },
  };
}
