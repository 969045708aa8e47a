import type { Redis } from 'ioredis';

/** `count`: hits in the current window, this one included. */
export type LimitVerdict = { allowed: boolean; retryAfterSeconds: number; count: number };

/**
 * Fixed-window counters for limits keyed by something other than the IP (an account, an
 * account+IP pair). In memory for one process; in Redis when several API instances share limits.
 */
export type RateLimiter = {
  hit(key: string, limit: number, windowSeconds: number): Promise<LimitVerdict>;
  reset(key: string): Promise<void>;
};

export function createMemoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  return {
    async hit(key, limit, windowSeconds) {
      const t = now();
      if (windows.size > 100_000) {
        for (const [k, w] of windows) if (w.resetAt <= t) windows.delete(k);
      }
      let w = windows.get(key);
      if (!w || w.resetAt <= t) {
        w = { count: 0, resetAt: t + windowSeconds * 1000 };
        windows.set(key, w);
      }
      w.count += 1;
      return {
        allowed: w.count <= limit,
        retryAfterSeconds: Math.max(1, Math.ceil((w.resetAt - t) / 1000)),
        count: w.count,
      };
    },
    async reset(key) {
      windows.delete(key);
    },
  };
}

/**
 * Counters in Redis, shared by every instance. While Redis does not answer, each instance counts
 * in its own memory instead (limits stay in force, per instance) rather than failing the request.
 */
export function createRedisRateLimiter(
  redis: Redis,
  prefix = 'portal:rl:',
  fallback: RateLimiter = createMemoryRateLimiter(),
): RateLimiter {
  return {
    async hit(key, limit, windowSeconds) {
      const k = prefix + key;
      try {
        const result = await redis.multi().incr(k).pttl(k).exec();
        const count = Number(result?.[0]?.[1] ?? 0);
        let ttl = Number(result?.[1]?.[1] ?? -1);
        if (ttl < 0) {
          await redis.pexpire(k, windowSeconds * 1000);
          ttl = windowSeconds * 1000;
        }
        return {
          allowed: count <= limit,
          retryAfterSeconds: Math.max(1, Math.ceil(ttl / 1000)),
          count,
        };
      } catch {
        return fallback.hit(key, limit, windowSeconds);
      }
    },
    async reset(key) {
      await fallback.reset(key);
      await redis.del(prefix + key).catch(() => undefined);
    },
  };
}
