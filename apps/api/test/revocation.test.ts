import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { decodeJwt } from 'jose';
import { routes, type TRouteName } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { demoEmail, demoPassword, secondEmail } from '../src/db/seed/demo.ts';
import { startSmtp } from '../../../tools/test-smtp.ts';
import { pastReuseWindow } from './refresh-window.ts';
import { urlOf, validRequests } from './contract-examples.ts';
import { buildTestApp, engines } from './engines.ts';
import { hasRedisServer, startRedis } from './redis-server.ts';

const bearerCalls = (Object.keys(routes) as TRouteName[]).filter(
  (n) => routes[n].auth === 'bearer',
);
const cookieOf = (res: LightMyRequestResponse, name: string) =>
  (res.cookies as { name: string; value: string }[]).find((c) => c.name === name)?.value ?? '';

type Session = { token: string; refresh: string; xsrf: string; userId: string };

/** What each scenario needs from one or two app instances sharing one database. */
function helpers() {
  let ip = 0;
  const nextIp = () => `10.66.${Math.floor(++ip / 250)}.${ip % 250}`;
  const signIn = async (
    app: FastifyInstance,
    email = demoEmail,
    password = demoPassword,
  ): Promise<Session> => {
    const res = await app.inject({
      method: 'POST',
      url: '/demo/api/1.0/login',
      payload: { email, password },
      remoteAddress: nextIp(),
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ access_token: string; user: { id: string } }>();
    return {
      token: body.access_token,
      refresh: cookieOf(res, 'refresh_token'),
      xsrf: cookieOf(res, 'XSRF-TOKEN'),
      userId: body.user.id,
    };
  };
  const profile = (app: FastifyInstance, s: Session) =>
    app.inject({
      method: 'GET',
      url: `/demo/api/1.0/user/profile/${s.userId}`,
      headers: { authorization: `Bearer ${s.token}` },
    });
  const logout = (app: FastifyInstance, s: Session) =>
    app.inject({
      method: 'POST',
      url: '/demo/api/1.0/logout',
      cookies: { refresh_token: s.refresh, 'XSRF-TOKEN': s.xsrf },
      headers: { 'x-xsrf-token': s.xsrf },
    });
  /**
   * Waits (2 s at most) until `app` refuses the session's token: on an instance other than the one
   * that ended it, the announcement arrives over the network a moment after the commit.
   */
  const heardOn = (app: FastifyInstance, s: Session) =>
    expect
      .poll(async () => (await profile(app, s)).statusCode, { timeout: 2_000, interval: 2 })
      .toBe(401);
  return { signIn, profile, logout, nextIp, heardOn };
}

describe.each(engines())('access tokens end with their session on $name', (engine) => {
  let db: Database;
  let a: FastifyInstance;
  let b: FastifyInstance;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  const rootSecret = randomBytes(32);
  const { signIn, profile, logout, nextIp, heardOn } = helpers();

  beforeAll(async () => {
    db = await engine.open();
    smtp = await startSmtp();
    const env = { SMTP_URL: smtp.url, PUBLIC_URL: 'http://localhost:3000' };
    // Two API instances on one database, as behind a load balancer.
    a = await buildTestApp(db, env, rootSecret);
    b = await buildTestApp(db, env, rootSecret);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await db.close();
    await smtp.close();
  });

  /** Every bearer call of the contract with this token: the statuses, by call. */
  const everyBearerCall = async (app: FastifyInstance, token: string) => {
    const statuses: Partial<Record<TRouteName, number>> = {};
    for (const name of bearerCalls) {
      const res = await app.inject({
        method: routes[name].method,
        url: urlOf('demo', name),
        headers: { authorization: `Bearer ${token}` },
        ...(validRequests[name].body ? { payload: validRequests[name].body } : {}),
      });
      statuses[name] = res.statusCode;
    }
    return statuses;
  };
  const all401 = Object.fromEntries(bearerCalls.map((n) => [n, 401]));

  it('names the session (the refresh family) in every access token', async () => {
    const s = await signIn(a);
    const { sid } = decodeJwt(s.token);
    expect(sid).toMatch(/^[0-9a-f-]{36}$/);
    // A refresh keeps the session: same sid, and the earlier token still works.
    const refreshed = await a.inject({
      method: 'POST',
      url: '/demo/api/1.0/refresh-token',
      cookies: { refresh_token: s.refresh, 'XSRF-TOKEN': s.xsrf },
      headers: { 'x-xsrf-token': s.xsrf },
    });
    expect(refreshed.statusCode).toBe(200);
    expect(decodeJwt(refreshed.json<{ access_token: string }>().access_token).sid).toBe(sid);
    expect((await profile(a, s)).statusCode).toBe(200);
  });

  it('refuses the access token on every bearer call as soon as its session logs out', async () => {
    const s = await signIn(a);
    const other = await signIn(a);
    // Verified once: the token is in the verification cache of both instances.
    expect((await profile(a, s)).statusCode).toBe(200);
    expect((await profile(b, s)).statusCode).toBe(200);
    expect((await logout(a, s)).statusCode).toBe(200);
    expect(await everyBearerCall(a, s.token)).toEqual(all401);
    // The other instance honours it as soon as the database's announcement reaches it (one hop
    // after the commit: modules/auth/revocation-cache.ts), then on every call.
    await heardOn(b, s);
    expect(await everyBearerCall(b, s.token)).toEqual(all401);
    // Another session of the same customer is untouched.
    expect((await profile(a, other)).statusCode).toBe(200);
    expect((await profile(b, other)).statusCode).toBe(200);
  });

  it('honours on one instance a logout made on the other', async () => {
    const s = await signIn(b);
    expect((await profile(a, s)).statusCode).toBe(200);
    expect((await logout(b, s)).statusCode).toBe(200);
    await heardOn(a, s);
    const res = await profile(a, s);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Not signed in', code: 'unauthorized' });
  });

  it("ends every access token of the customer on a password reset, and no one else's", async () => {
    const sessions = [await signIn(a), await signIn(a), await signIn(b)];
    const stranger = await signIn(a, secondEmail);
    for (const s of sessions) expect((await profile(b, s)).statusCode).toBe(200);

    await a.inject({
      method: 'POST',
      url: '/demo/api/1.0/forgot-password',
      payload: { email: demoEmail },
      remoteAddress: nextIp(),
    });
    const raw = (await smtp.waitFor(demoEmail)).raw;
    const link = /reset-password\?token=([\w-]+)&(?:amp;)?email=/.exec(raw);
    const reset = await b.inject({
      method: 'POST',
      url: '/demo/api/1.0/reset-password',
      payload: {
        token: link?.[1],
        email: demoEmail,
        password: demoPassword,
        password_confirmation: demoPassword,
      },
      remoteAddress: nextIp(),
    });
    expect(reset.statusCode, reset.body).toBe(200);

    for (const s of sessions) {
      await heardOn(a, s);
      expect((await profile(a, s)).statusCode).toBe(401);
      expect((await profile(b, s)).statusCode).toBe(401);
      expect(await everyBearerCall(a, s.token)).toEqual(all401);
    }
    expect((await profile(a, stranger)).statusCode).toBe(200);
    expect((await profile(b, stranger)).statusCode).toBe(200);
    // A new sign-in works at once.
    expect((await profile(b, await signIn(a))).statusCode).toBe(200);
  });

  it('ends the access tokens of a family whose rotated refresh token came back (theft)', async () => {
    const s = await signIn(a);
    const refresh = (token: string, xsrf: string) =>
      a.inject({
        method: 'POST',
        url: '/demo/api/1.0/refresh-token',
        cookies: { refresh_token: token, 'XSRF-TOKEN': xsrf },
        headers: { 'x-xsrf-token': xsrf },
      });
    const first = await refresh(s.refresh, s.xsrf);
    const stolen = { ...s, token: first.json<{ access_token: string }>().access_token };
    expect((await profile(b, stolen)).statusCode).toBe(200);
    await pastReuseWindow(db, 'demo');
    expect((await refresh(s.refresh, s.xsrf)).statusCode).toBe(401);
    await heardOn(b, stolen);
    expect((await profile(b, stolen)).statusCode).toBe(401);
  });
});

describe.skipIf(!hasRedisServer())('access tokens end with their session through Redis', () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let client: Redis;
  let db: Database;
  let a: FastifyInstance;
  let b: FastifyInstance;
  const rootSecret = randomBytes(32);
  const { signIn, profile, logout, heardOn } = helpers();

  beforeAll(async () => {
    redis = await startRedis();
    client = new Redis(redis.url);
    const [engine] = engines();
    if (!engine) throw new Error('no engine');
    db = await engine.open();
    const env = { PUBLIC_URL: 'http://localhost:3000', REDIS_URL: redis.url };
    a = await buildTestApp(db, env, rootSecret);
    b = await buildTestApp(db, env, rootSecret);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await db.close();
    client.disconnect();
    await redis.stop();
  });

  it('honours on one instance a logout made on the other, from a key that expires with the tokens', async () => {
    const s = await signIn(a);
    expect((await profile(b, s)).statusCode).toBe(200);
    expect((await logout(a, s)).statusCode).toBe(200);
    expect((await profile(a, s)).statusCode).toBe(401);
    await heardOn(b, s);
    const key = `portal:revoked:demo:${String(decodeJwt(s.token).sid)}`;
    const ttl = await client.pttl(key);
    expect(ttl).toBeGreaterThan(900_000);
    expect(ttl).toBeLessThanOrEqual(960_000);
    // Redis answers, not the database. With the key gone (a Redis restarted empty), those that
    // heard of the logout remember it, and an instance that did not (a new one) copies the recent
    // revocations into Redis when its connection is ready: the key is back before it answers
    // (before session 36 it let the token pass again).
    await client.del(key);
    expect((await profile(b, s)).statusCode).toBe(401);
    const c = await buildTestApp(
      db,
      { PUBLIC_URL: 'http://localhost:3000', REDIS_URL: redis.url },
      rootSecret,
    );
    try {
      await expect.poll(() => client.exists(key), { timeout: 10_000 }).toBe(1);
      expect((await profile(c, s)).statusCode).toBe(401);
      expect(await client.pttl(key)).toBeLessThanOrEqual(960_000);
    } finally {
      await c.close();
    }
  });

  it('falls back to the database when Redis is down', async () => {
    const s = await signIn(a);
    expect((await logout(a, s)).statusCode).toBe(200);
    await redis.stop();
    expect((await profile(b, s)).statusCode).toBe(401);
  });
});
