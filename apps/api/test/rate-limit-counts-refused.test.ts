import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { buildTestApp, engines } from './engines.ts';

/**
 * Before session 37: the per-IP request limit of the API (`RATE_LIMIT_PER_MINUTE`, @fastify/rate-limit
 * in app.ts) is added by the plugin as a ROUTE-level `onRequest` hook (its `onRoute` pushes it at
 * the end of the route's hooks). Fastify runs the scope's hooks first: the tenant lookup
 * (plugins/app/tenant.ts, a database read for every id not cached), the same-origin check, and the
 * route's own `requireApiKey` (a database read for every key-shaped value). A request any of them
 * refuses (unknown tenant 404, a wrong API key 401, a foreign Origin 403, a wrong type 415) never
 * reaches the limiter and is never counted.
 *
 * Why it matters: the limit is the server's only cap on what one address may send. Exactly the
 * requests an attacker sends in bulk (guessing API keys, random tenant ids that each cost a
 * query and, past 10,000, empty the tenant cache for everyone) are unlimited: one address can
 * keep the database busy forever and is never answered 429.
 *
 * Right behaviour: the request limit counts every request of the API from the address, and
 * refuses past it with 429 before any lookup (register the limiter's hook on the API scope before
 * the tenant plugin, e.g. `global: false` + `api.addHook('onRequest', api.rateLimit())` first).
 */
describe.each(engines())('the request limit counts refused requests too, on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  const max = 3;

  beforeAll(async () => {
    db = await engine.open();
    app = await buildTestApp(db, {
      PUBLIC_URL: 'http://localhost:3000',
      RATE_LIMIT_PER_MINUTE: String(max),
    });
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  it('answers 429 past the limit to an address that sends the same public call (control)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < max + 2; i += 1) {
      const res = await app.inject({
        method: 'GET',
        url: '/demo/api/1.0/visual-config',
        remoteAddress: '198.51.100.1',
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
  });

  it('answers 429 past the limit to an address guessing API keys', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < max + 5; i += 1) {
      const res = await app.inject({
        method: 'GET',
        url: '/demo/api/1.0/admin/sign-in-methods',
        remoteAddress: '198.51.100.2',
        headers: { authorization: `Bearer ptk_${String(i).padStart(43, 'A')}` },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, max)).toEqual([401, 401, 401]);
    expect(statuses.slice(max)).toEqual(Array<number>(5).fill(429));
  });

  it('answers 429 past the limit to an address walking through tenant ids', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < max + 5; i += 1) {
      const res = await app.inject({
        method: 'GET',
        url: `/no-such-tenant-${i}/api/1.0/visual-config`,
        remoteAddress: '198.51.100.3',
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, max)).toEqual([404, 404, 404]);
    expect(statuses.slice(max)).toEqual(Array<number>(5).fill(429));
  });
});
