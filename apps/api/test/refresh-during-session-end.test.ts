import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { decodeJwt } from 'jose';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { demoEmail, demoPassword } from '../src/db/seed/demo.ts';
import { buildTestApp, engines } from './engines.ts';
import { hasRedisServer, startRedis } from './redis-server.ts';

/**
 * Sign-in review: a refresh in flight when the owner ends that session leaves its new refresh token
 * alive, and (with Redis, several instances) the session comes back once the ending's Redis key
 * expires.
 *
 * Scenario: the owner sees an unknown device in "Your devices" and ends it (the same holds for
 * "end every other session", the "was this you?" link, a reset and a logout: every ending is
 * `endFamilies`, one UPDATE of `refresh_tokens`). The thief's page refreshes its token at that
 * moment (a page refreshes on every 403 token_expired; a script can refresh continuously).
 *
 * Today: `refresh` locks the old token (FOR UPDATE), marks it rotated and inserts its successor.
 * The ending's UPDATE, waiting on that lock, took its snapshot before the successor committed: it
 * revokes the old token only, and the successor stays `revoked_at IS NULL`. `refresh` checks only
 * the presented row's `revoked_at`, so the successor keeps rotating for ever. SECURITY.md: ending a
 * session refuses "its access and refresh tokens at once". With one database and no Redis, the
 * access tokens it mints are refused (`isFamilyRevoked` sees the old revoked row); with
 * `REDIS_URL`, revocations are Redis keys that live TTL + 60 s, after which an instance that did not
 * hear of the ending accepts them: the thief is back in, for as long as they keep refreshing.
 *
 * Should: the ending and the rotation are serialised on the session, e.g. both lock the
 * `customer_sessions` row first (the ending marks it ended, `refresh` refuses an ended session while
 * holding that lock), or `refresh` refuses a family with any revoked token (`isFamilyRevoked`) after
 * locking its row, and `endFamilies` re-runs / uses a session-level flag so a successor inserted
 * concurrently is covered.
 *
 * The pause: the thief's refresh transaction is held after its statements ran and before COMMIT
 * (as `ingestion-concurrency.test.ts` holds a batch), which is where a concurrent ending meets it.
 * Two connections are needed for the race, so this runs on PostgreSQL only (PGlite runs one
 * transaction at a time and cannot interleave them).
 */

type Browser = { refresh?: string; xsrf?: string; token?: string };
const cookieOf = (res: LightMyRequestResponse, name: string) =>
  (res.cookies as { name: string; value: string }[]).find((c) => c.name === name)?.value;

/** `db`, whose next refresh transaction (the one marking a token rotated) waits before COMMIT. */
function holdingRefresh(db: Database) {
  let armed = false;
  let release!: () => void;
  let gate = Promise.resolve();
  let held!: () => void;
  let isHeld = Promise.resolve();
  const wrapped: Database = {
    ...db,
    withTenant: (tenantId, fn) =>
      db.withTenant(tenantId, async (sql) => {
        let rotated = false;
        const result = await fn({
          ...sql,
          query: (text: string, params?: readonly unknown[]) => {
            if (/SET rotated_at = now\(\)/.test(text)) rotated = true;
            return sql.query(text, params as unknown[]);
          },
        } as typeof sql);
        if (armed && rotated) {
          armed = false;
          held();
          await gate;
        }
        return result;
      }),
  };
  return {
    db: wrapped,
    arm() {
      armed = true;
      gate = new Promise<void>((resolve) => (release = resolve));
      isHeld = new Promise<void>((resolve) => (held = resolve));
      return { isHeld, release: () => release() };
    },
  };
}

const postgres = engines().filter((e) => e.name === 'postgres');

describe.skipIf(postgres.length === 0 || !hasRedisServer()).each(postgres)(
  'a refresh in flight when its session is ended, on $name with Redis',
  (engine) => {
    let redis: Awaited<ReturnType<typeof startRedis>>;
    let client: Redis;
    let db: Database;
    let holding: ReturnType<typeof holdingRefresh>;
    let app: FastifyInstance;
    const rootSecret = randomBytes(32);
    const env = () => ({ PUBLIC_URL: 'http://localhost:3000', REDIS_URL: redis.url });
    let ip = 0;

    beforeAll(async () => {
      redis = await startRedis();
      client = new Redis(redis.url);
      db = await engine.open();
      holding = holdingRefresh(db);
      app = await buildTestApp(holding.db, env(), rootSecret);
    });
    afterAll(async () => {
      await app.close();
      await db.close();
      client.disconnect();
      await redis.stop();
    });

    const signIn = async (): Promise<Browser> => {
      const res = await app.inject({
        method: 'POST',
        url: '/demo/api/1.0/login',
        payload: { email: demoEmail, password: demoPassword },
        remoteAddress: `10.151.0.${++ip}`,
      });
      expect(res.statusCode, res.body).toBe(200);
      return {
        refresh: cookieOf(res, 'refresh_token'),
        xsrf: cookieOf(res, 'XSRF-TOKEN'),
        token: res.json<{ access_token: string }>().access_token,
      };
    };
    const refresh = async (on: FastifyInstance, b: Browser): Promise<Browser> => {
      const res = await on.inject({
        method: 'POST',
        url: '/demo/api/1.0/refresh-token',
        cookies: { refresh_token: b.refresh ?? '', 'XSRF-TOKEN': b.xsrf ?? '' },
        headers: { 'x-xsrf-token': b.xsrf ?? '' },
      });
      return res.statusCode === 200
        ? {
            refresh: cookieOf(res, 'refresh_token'),
            xsrf: cookieOf(res, 'XSRF-TOKEN'),
            token: res.json<{ access_token: string }>().access_token,
          }
        : {};
    };
    const waitingOnALock = async () => {
      for (let i = 0; i < 200; i++) {
        const [row] = await db.withOwner((sql) =>
          sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted`),
        );
        if ((row?.n ?? 0) > 0) return;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error('the ending never waited on the refresh');
    };

    it("refuses the session's refresh tokens once the owner ended it, also one rotated meanwhile", async () => {
      const owner = await signIn();
      const thief = await signIn();
      const thiefSession = String(decodeJwt(thief.token ?? '').sid);

      // The thief's page refreshes; the owner ends that session in "Your devices" meanwhile.
      const { isHeld, release } = holding.arm();
      const thiefRefresh = refresh(app, thief);
      await isHeld;
      const ending = app.inject({
        method: 'POST',
        url: `/demo/api/1.0/sessions/${thiefSession}/end`,
        headers: { authorization: `Bearer ${owner.token}` },
      });
      await waitingOnALock();
      release();
      const ended = await ending;
      expect(ended.statusCode, ended.body).toBe(200);
      const rotated = await thiefRefresh;
      expect(rotated.refresh, 'the refresh in flight got its successor').toBeTruthy();

      // Ended: every refresh token of that session is refused from now on...
      const later = await refresh(app, rotated);
      expect
        .soft(
          later.token,
          'the refresh token rotated while the owner ended the session still refreshes',
        )
        .toBeUndefined();

      // (What it opens, where it is not refused: an instance that did not hear of the ending,
      // once the Redis key of the ending has expired - TTL + 60 s, stood in for by deleting it.)
      await client.del(`portal:revoked:demo:${thiefSession}`);
      const other = await buildTestApp(db, env(), rootSecret);
      try {
        const back = await refresh(other, later.refresh ? later : rotated);
        const profile = await other.inject({
          method: 'GET',
          url: '/demo/api/1.0/sessions',
          headers: { authorization: `Bearer ${back.token}` },
        });
        expect(profile.statusCode, 'the ended session is signed in again').not.toBe(200);
      } finally {
        await other.close();
      }
    });
  },
);
