import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { buildTestApp, engines } from './engines.ts';

/**
 * docs/ingestion.md, "Authentication": "A missing, revoked or malformed key, another tenant's key,
 * or a customer's access token is a `401 {"message":"Invalid API key","code":"unauthorized"}`,
 * always before the body is looked at."
 *
 * Until session 36 the key was checked in `preValidation` (plugins/app/require-api-key.ts), which
 * Fastify runs after its JSON parser: on every provider call whose body Fastify parses (all but the four batch calls,
 * which take raw bytes), a caller without any valid key learnt how its body was judged (400
 * `bad_request` for malformed JSON or a `__proto__` key) instead of the 401. It is `onRequest` now.
 */
const calls = [
  ['PUT', '/admin/webhook'],
  ['POST', '/admin/customers/invitations'],
  ['POST', '/admin/payment-method-requests/5b0c8c2e-6f1d-4a57-9a53-2f0f3a1d9e10/review'],
] as const;

describe.each(engines())('the API key comes before the body, on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;

  beforeAll(async () => {
    db = await engine.open();
    app = await buildTestApp(db);
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  it.each(calls)(
    '%s %s answers 401 to a caller without a key, whatever its body',
    async (method, path) => {
      for (const payload of ['{', '{"__proto__":{"x":1}}', '{"url":"https://erp.example.com/"}']) {
        for (const authorization of [undefined, `Bearer ptk_${'A'.repeat(43)}`]) {
          const res = await app.inject({
            method,
            url: `/demo/api/1.0${path}`,
            payload,
            headers: {
              'content-type': 'application/json',
              ...(authorization ? { authorization } : {}),
            },
          });
          expect(
            { status: res.statusCode, body: res.json<object>() },
            `${payload} with ${authorization ? 'an unknown key' : 'no key'}`,
          ).toEqual({ status: 401, body: { message: 'Invalid API key', code: 'unauthorized' } });
        }
      }
    },
  );
});
