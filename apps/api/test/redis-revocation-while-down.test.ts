import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { demoEmail, demoPassword } from '../src/db/seed/demo.ts';
import { startSmtp } from '../../../tools/test-smtp.ts';
import { buildTestApp, engines } from './engines.ts';
import { freePort, hasRedisServer, startRedis } from './redis-server.ts';

/**
 * A session ended while Redis does not answer stays ended on every instance (mail and limits
 * review, session 36). The ending is written to the database, and the call answers 5xx; the
 * owner's retry answers 404 ("already ended"). Before session 36 Redis was then never told, and
 * since with REDIS_URL a bearer call asks Redis only, an instance that did not hear the
 * database's announcement (one started afterwards: a deploy, a scale-out) honoured the ended
 * session's access token until it expired. Now every instance copies the recent revocations into
 * Redis when its connection is ready, and after a write Redis did not take.
 */

const cookieOf = (res: LightMyRequestResponse, name: string) =>
  (res.cookies as { name: string; value: string }[]).find((c) => c.name === name)?.value ?? '';

describe.skipIf(!hasRedisServer()).each(engines())(
  'a session ended while Redis is down, on $name',
  (engine) => {
    let db: Database;
    let a: FastifyInstance;
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    let redis: { stop: () => Promise<void> } | undefined;
    let port = 0;
    const rootSecret = randomBytes(32);
    let env: Record<string, string>;
    let ip = 0;

    beforeAll(async () => {
      db = await engine.open();
      smtp = await startSmtp();
      port = await freePort();
      redis = await startRedis({ port });
      env = {
        SMTP_URL: smtp.url,
        PUBLIC_URL: 'http://localhost:3000',
        REDIS_URL: `redis://127.0.0.1:${port}`,
      };
      a = await buildTestApp(db, env, rootSecret);
    });
    afterAll(async () => {
      await a.close();
      await redis?.stop();
      await db.close();
      await smtp.close();
    });

    const signIn = async (app: FastifyInstance) => {
      const res = await app.inject({
        method: 'POST',
        url: '/demo/api/1.0/login',
        payload: { email: demoEmail, password: demoPassword },
        remoteAddress: `10.77.0.${++ip}`,
      });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json<{ access_token: string; user: { id: string } }>();
      return {
        token: body.access_token,
        userId: body.user.id,
        refresh: cookieOf(res, 'refresh_token'),
      };
    };
    const profile = (app: FastifyInstance, s: { token: string; userId: string }) =>
      app.inject({
        method: 'GET',
        url: `/demo/api/1.0/user/profile/${s.userId}`,
        headers: { authorization: `Bearer ${s.token}` },
      });
    const sessionIdOf = (token: string) =>
      String(
        (
          JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
            sid: string;
          }
        ).sid,
      );

    it("keeps a thief's session ended on every instance when the owner ended it while Redis was down", async () => {
      const owner = await signIn(a);
      const thief = await signIn(a);
      expect((await profile(a, thief)).statusCode).toBe(200);

      // Redis stops answering; the owner ends the thief's session from "Your devices".
      await redis?.stop();
      await a.inject({
        method: 'POST',
        url: `/demo/api/1.0/sessions/${sessionIdOf(thief.token)}/end`,
        headers: { authorization: `Bearer ${owner.token}` },
      });
      // A 500: the database has ended the session, Redis was not told.

      // Redis is back (same address); the owner, told it failed, tries again.
      redis = await startRedis({ port });
      await expect
        .poll(async () => (await profile(a, owner)).statusCode, { timeout: 10_000, interval: 100 })
        .toBe(200);
      // A 404 ("no such session": already ended); Redis was told when it came back.
      await a.inject({
        method: 'POST',
        url: `/demo/api/1.0/sessions/${sessionIdOf(thief.token)}/end`,
        headers: { authorization: `Bearer ${owner.token}` },
      });

      // A new instance (a deploy, a scale-out) behind the same load balancer.
      const c = await buildTestApp(db, env, rootSecret);
      try {
        expect((await profile(c, thief)).statusCode).toBe(401);
      } finally {
        await c.close();
      }
    });
  },
);
