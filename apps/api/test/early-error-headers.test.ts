import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { buildTestApp, engines } from './engines.ts';

/**
 * Before session 37: the 400 `bad_request` Fastify answers through `frameworkErrors` (app.ts: a path
 * that does not decode, `%ED%A0%80` or `%ZZ`, or a path parameter over 600 characters) is sent
 * before any `onRequest` hook runs. The security headers (plugins/external/security.ts) and the
 * API's `Cache-Control: no-store` (plugins/app/tenant.ts) are set in such hooks, so that answer
 * carries none of them: no Content-Security-Policy, no `frame-ancestors`, no `X-Frame-Options`,
 * no `nosniff`, no HSTS behind TLS, no `Cache-Control`.
 *
 * Why it matters: SECURITY.md promises the strict CSP, nosniff and X-Frame-Options "on API
 * answers, errors and pages", and HSTS on every answer behind TLS. Any visitor (or a link in an
 * e-mail) reaches this answer with one bad byte in the URL; on a signed document link
 * (`/documents/receipt/<token>`) a mangled token is exactly this case.
 *
 * Right behaviour: the framework's 400 gets the same headers as every other error (set them in
 * `frameworkErrors` too, or in an `onSend`/`onRequest` of the root that Fastify runs for them).
 */
describe.each(engines())('headers of the framework 400, on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;

  beforeAll(async () => {
    db = await engine.open();
    app = await buildTestApp(db, { PUBLIC_URL: 'https://portal.example.com' });
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  it.each([
    ['a page path that does not decode', '/%ZZ'],
    ['an API path that does not decode', '/demo/api/1.0/user/profile/%ED%A0%80'],
    [
      'a signed link whose parameter is over 600 characters',
      `/demo/api/1.0/documents/receipt/${'a'.repeat(700)}`,
    ],
  ])('sends the security headers on %s', async (_name, url) => {
    const res = await app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Bad request', code: 'bad_request' });
    // What every other error answer of the server carries (test/headers.test.ts).
    const reference = await app.inject({ method: 'GET', url: '/demo/api/1.0/no-such-call' });
    expect(String(reference.headers['content-security-policy'])).toContain(
      "frame-ancestors 'none'",
    );
    expect(
      {
        csp: res.headers['content-security-policy'],
        frameOptions: res.headers['x-frame-options'],
        nosniff: res.headers['x-content-type-options'],
        hsts: res.headers['strict-transport-security'],
      },
      url,
    ).toEqual({
      csp: reference.headers['content-security-policy'],
      frameOptions: 'SAMEORIGIN',
      nosniff: 'nosniff',
      hsts: 'max-age=31536000; includeSubDomains',
    });
  });

  it('keeps the answer to an API path out of every cache', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/demo/api/1.0/user/profile/%ED%A0%80',
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['cache-control']).toBe('no-store');
  });
});
