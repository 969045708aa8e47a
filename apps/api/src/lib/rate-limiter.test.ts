import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createMemoryRateLimiter,
  createRedisRateLimiter,
  type RateLimiter,
} from './rate-limiter.ts';

async function redisOrNull(): Promise<Redis | null> {
  const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  try {
    await redis.connect();
    return redis;
  } catch {
    redis.disconnect();
    return null;
  }
}

const redis = await redisOrNull();
afterAll(() => redis?.disconnect());

const limiters: [string, RateLimiter][] = [['memory', createMemoryRateLimiter()]];
if (redis) limiters.push(['redis', createRedisRateLimiter(redis, `portal:test:${process.pid}:`)]);

describe.each(limiters)('%s rate limiter', (_name, limiter) => {
  it('allows up to the limit in a window, then tells how long to wait', async () => {
    const key = `k-${Math.random()}`;
    const verdicts = [];
    for (let i = 0; i < 4; i++) verdicts.push(await limiter.hit(key, 3, 60));
    expect(verdicts.map((v) => v.allowed)).toEqual([true, true, true, false]);
    expect(verdicts.map((v) => v.count)).toEqual([1, 2, 3, 4]);
    expect(verdicts[3]?.retryAfterSeconds).toBeGreaterThan(0);
    expect(verdicts[3]?.retryAfterSeconds).toBeLessThanOrEqual(60);
  });

  it('keeps keys apart and can be reset', async () => {
    const a = `a-${Math.random()}`;
    const b = `b-${Math.random()}`;
    await limiter.hit(a, 1, 60);
    expect((await limiter.hit(a, 1, 60)).allowed).toBe(false);
    expect((await limiter.hit(b, 1, 60)).allowed).toBe(true);
    await limiter.reset(a);
    expect((await limiter.hit(a, 1, 60)).allowed).toBe(true);
  });
});

describe('memory rate limiter windows', () => {
  it('opens a new window when the old one ends', async () => {
    let t = 0;
    const limiter = createMemoryRateLimiter(() => t);
    expect((await limiter.hit('k', 1, 10)).allowed).toBe(true);
    expect((await limiter.hit('k', 1, 10)).allowed).toBe(false);
    t = 10_000;
    expect((await limiter.hit('k', 1, 10)).allowed).toBe(true);
  });
});

describe('Redis rate limiter while Redis does not answer', () => {
  it('counts in memory instead of failing the request, limits still in force', async () => {
    // Nothing listens on port 1: every command fails at once (no offline queue).
    const down = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    down.on('error', () => {});
    const limiter = createRedisRateLimiter(down, 'down:');
    const verdicts = [];
    for (let i = 0; i < 3; i++) verdicts.push(await limiter.hit('login:ip:203.0.113.9', 2, 60));
    expect(verdicts.map((v) => v.allowed)).toEqual([true, true, false]);
    await limiter.reset('login:ip:203.0.113.9');
    expect((await limiter.hit('login:ip:203.0.113.9', 2, 60)).allowed).toBe(true);
    down.disconnect();
  });
});
