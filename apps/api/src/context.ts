import { join } from 'node:path';
import type { onRequestHookHandler, preValidationHookHandler } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import {
  createMemoryRateLimiter,
  createRedisRateLimiter,
  type RateLimiter,
} from './lib/rate-limiter.ts';
import { createSecretBox, type SecretBox } from './lib/secret-box.ts';
import { deriveKey } from './lib/secrets.ts';
import {
  createAccessTokens,
  createXsrf,
  type AccessTokens,
  type Xsrf,
} from './modules/auth/tokens.ts';
import {
  createCachedRevocations,
  type CachedRevocations,
} from './modules/auth/revocation-cache.ts';
import {
  createDatabaseRevocations,
  createRedisRevocations,
  recentRevocationsOf,
} from './modules/auth/revocations.ts';
import { createMailer, type Mailer } from './modules/mail/mailer.ts';
import { createMetrics, type Metrics } from './modules/ops/metrics.ts';
import { requireCustomer } from './plugins/app/authenticate.ts';
import { requireApiKey } from './plugins/app/require-api-key.ts';
import { createHeavyWork, defaultWorkerThreads, type HeavyWork } from './workers/pool.ts';
import { prepareIdleGroup } from './workers/idle-group.ts';

/** What the modules share, built once per app from the configuration and the root secret. */
export type AppContext = {
  config: Config;
  db: Database;
  rootSecret: Buffer;
  tokens: AccessTokens;
  xsrf: Xsrf;
  limiter: RateLimiter;
  /** Ended sessions, whose access tokens are refused before their expiry. */
  revocations: CachedRevocations;
  mailer: Mailer;
  requireCustomer: preValidationHookHandler;
  /** The tenant API key check of the provider-integration calls (`/admin/...`). */
  requireApiKey: onRequestHookHandler;
  redis: Redis | null;
  /** Seals and opens the secrets kept in the database (lib/secret-box.ts). */
  secretBox: SecretBox;
  /** CPU-heavy work off the event loop (workers/pool.ts); closed with the app. */
  heavyWork: HeavyWork;
  /** The Prometheus metrics the modules count into (modules/ops/metrics.ts). */
  metrics: Metrics;
  /** The clock of "today" (Madrid) and overdue: tests set it to a moment near midnight. */
  now: () => Date;
};

/**
 * The Redis client when `REDIS_URL` is set. ioredis is loaded only then: a process without Redis
 * does not pay for reading it at start (about a tenth of the start on a two-core machine).
 */
export async function openRedis(config: Config): Promise<Redis | null> {
  if (!config.REDIS_URL) return null;
  const { Redis: Client } = await import('ioredis');
  return new Client(config.REDIS_URL, {
    maxRetriesPerRequest: 2,
    enableOfflineQueue: false,
    // A Redis that keeps the connection but stops answering (a paused process, a partition that
    // drops packets) fails its commands after a second, as one that is down fails them at once:
    // the limits count in memory and revocations are asked of the database. Without it every
    // sign-in and call waited on it for as long as it stayed silent (session 37).
    commandTimeout: 1000,
  });
}

export function createContext(
  config: Config,
  db: Database,
  rootSecret: Buffer,
  redis: Redis | null,
  log: (msg: string) => void,
  logError: (error: unknown, msg: string) => void = () => {},
  now: () => Date = () => new Date(),
): AppContext {
  const tokens = createAccessTokens(
    deriveKey(rootSecret, 'access-token'),
    config.ACCESS_TOKEN_TTL_SECONDS,
  );
  const threads = config.WORKER_THREADS ?? defaultWorkerThreads();
  // Without a listener ioredis prints every failed reconnection as an unhandled error.
  redis?.on('error', (error: unknown) => logError(error, 'Redis connection error'));
  const databaseRevocations = createDatabaseRevocations(db);
  const revocations = createCachedRevocations(
    redis
      ? createRedisRevocations(redis, databaseRevocations, {
          ttlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
          onError: (error) => logError(error, 'Redis revocation check failed; asked the database'),
          recent: recentRevocationsOf(db),
        })
      : databaseRevocations,
    { ttlSeconds: config.ACCESS_TOKEN_TTL_SECONDS },
  );
  const heavyWork = createHeavyWork({
    threads,
    maxQueue: config.WORKER_QUEUE ?? 16 * threads,
    // The same PostgreSQL as the app's, with the same options (none: the embedded database).
    database: db.postgres,
    idleGroup: prepareIdleGroup(config.HEAVY_WORK_CGROUP),
    log,
  });
  return {
    config,
    db,
    rootSecret,
    tokens,
    xsrf: createXsrf(deriveKey(rootSecret, 'xsrf')),
    limiter: redis ? createRedisRateLimiter(redis) : createMemoryRateLimiter(),
    revocations,
    mailer: createMailer({
      smtpUrl: config.SMTP_URL,
      outboxDir: join(config.DATA_DIR, 'outbox'),
      log,
    }),
    requireCustomer: requireCustomer(tokens, revocations),
    requireApiKey: requireApiKey(db),
    redis,
    secretBox: createSecretBox(rootSecret),
    heavyWork,
    metrics: createMetrics(db, {
      staleAfterMinutes: config.RECONCILE_AFTER_MINUTES,
      exposed: config.METRICS_TOKEN !== undefined,
      revocationListenerUp: () => revocations.listening,
      heavyWork: () => heavyWork.load(),
    }),
    now,
  };
}
