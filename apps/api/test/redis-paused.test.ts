import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { demoEmail, demoPassword } from '../src/db/seed/demo.ts';
import { buildTestApp, engines } from './engines.ts';
import { hasRedisServer, startRedis, type TestRedis } from './redis-server.ts';

/**
 * A Redis that keeps its connections open but stops answering (a paused process, a network
 * partition that drops packets) does not stall the API. Its client had no command timeout: every
 * sign-in waited on the limiter, and every call of the API on the request limit and the
 * revocation check, for as long as Redis stayed silent (HTTP edge review, session 37). A command
 * now gives up after a second; the limits then count in memory and the revocations are asked of
 * the database, as when Redis is down.
 */
/** The answer, or `hung` when there is none within `ms` (the call would wait for ever). */
const within = <T>(ms: number, work: Promise<T>): Promise<T | 'hung'> =>
  Promise.race([work, new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), ms))]);

describe.skipIf(!hasRedisServer()).each(engines())(
  'a Redis that stops answering, on $name',
  (engine) => {
    let db: Database;
    let app: FastifyInstance;
    let redis: TestRedis;

    beforeAll(async () => {
      db = await engine.open();
      redis = await startRedis();
      app = await buildTestApp(db, {
        PUBLIC_URL: 'http://localhost:3000',
        REDIS_URL: redis.url,
      });
    });
    afterAll(async () => {
      redis.signal('SIGCONT');
      await app.close();
      redis.signal('SIGKILL');
      await db.close();
    });

    const signIn = () =>
      app.inject({
        method: 'POST',
        url: '/demo/api/1.0/login',
        payload: { email: demoEmail, password: demoPassword },
        remoteAddress: '10.78.0.1',
      });

    it('still signs in and answers calls, without waiting on it', async () => {
      const before = await signIn();
      expect(before.statusCode, before.body).toBe(200);
      const token = before.json<{ access_token: string }>().access_token;

      // The process stops: its connections stay open, nothing answers.
      redis.signal('SIGSTOP');
      const again = await within(15_000, signIn());
      expect(again === 'hung' ? 'hung' : again.statusCode).toBe(200);
      const invoices = await within(
        15_000,
        app.inject({
          method: 'POST',
          url: '/demo/api/1.0/invoices',
          headers: { authorization: `Bearer ${token}` },
          payload: { datefrom: '20000101', dateto: '20991231', page: '1' },
        }),
      );
      expect(invoices === 'hung' ? 'hung' : (invoices as LightMyRequestResponse).statusCode).toBe(
        200,
      );
      redis.signal('SIGCONT');
    }, 60_000);
  },
);
