/**
 * Review (web, shared device): the customer's own data answered by the API's GET calls (the
 * profile with name, e-mail, tax id and fiscal address; the payment methods; the devices) carries
 * no `Cache-Control` at all. A browser's HTTP cache is private, so it stores them on disk with the
 * rest of the profile, where they stay after sign-out: the next person on a shared computer reads
 * them from the disk cache (Firefox lists and shows each entry at about:cache, the profile's cache
 * folder holds them in every browser). The signed documents already say `private, no-store`
 * (invoice PDF, receipts, statements, mandates) for that reason; the JSON of the same data does not.
 *
 * Should: `Cache-Control: no-store` (or `private, no-store`) on every answer of a bearer call.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { buildTestApp, engines } from './engines.ts';
import { signedIn } from './session.ts';

describe.each(engines())('personal data answered to a signed-in browser on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;

  beforeAll(async () => {
    db = await engine.open();
    app = await buildTestApp(db, { PUBLIC_URL: 'https://portal.example' });
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  it('is not stored by the browser: every GET of the customer data says no-store', async () => {
    const me = await signedIn(app, 'demo');
    for (const path of [
      `/user/profile/${me.user.id}`,
      '/payment-methods',
      '/sessions',
      '/balance',
    ]) {
      const res = await me.get(path);
      expect(res.statusCode, path).toBe(200);
      expect(String(res.headers['cache-control'] ?? '(none)'), path).toMatch(/no-store/);
    }
  });
});
