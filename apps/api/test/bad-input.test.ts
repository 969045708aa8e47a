import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import errorHandler from '../src/plugins/app/error-handler.ts';
import { buildTestApp, engines } from './engines.ts';
import { signedIn } from './session.ts';

/**
 * Bad input outside the JSON bodies the fuzz tests generate: headers, form posts, URLs that do not
 * decode, and the error handler's last line of defence when a value reaches the database anyway.
 */
describe.each(engines())('bad input beyond the JSON bodies on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let token: string;
  let ip = 0;

  beforeAll(async () => {
    db = await engine.open();
    app = await buildTestApp(db);
    token = (await signedIn(app, 'demo')).token;
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  const remoteAddress = () => `10.11.${Math.floor(++ip / 250)}.${ip % 250}`;

  it.each([
    ['a NUL byte', ['SELECT $1::text AS v'], ['a\u0000b']],
    ['an integer beyond int4', ['SELECT $1::int4 AS v'], ['2147483648']],
    ['a bigint beyond int8', ['SELECT $1::int8 AS v'], ['99999999999999999999']],
    ['text that is not a uuid', ['SELECT $1::uuid AS v'], ['x']],
    [
      'a string longer than its column',
      ['CREATE TEMP TABLE probe (v varchar(3))', 'INSERT INTO probe VALUES ($1)'],
      ['abcdef'],
    ],
    ['a NUL in jsonb', ['SELECT $1::jsonb AS v'], ['"a\\u0000b"']],
    ['a date beyond the calendar', ['SELECT make_date($1::int, 1, 1) AS v'], ['9999999']],
  ])(
    'answers 400 bad_request, not 500, when the database refuses %s',
    async (_what, statements, params) => {
      const probe = Fastify({ logger: false });
      await probe.register(errorHandler);
      probe.post('/probe', async () =>
        db.withOwner(async (sql) => {
          for (const [i, statement] of statements.entries())
            await sql.query(statement, i === statements.length - 1 ? params : []);
          return { written: true };
        }),
      );
      const res = await probe.inject({ method: 'POST', url: '/probe' });
      await probe.close();
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({ message: 'Bad request', code: 'bad_request' });
    },
  );

  it('refuses poison in the headers that reach a lookup: cookies and credentials', async () => {
    for (const value of ['a\u0000b', '\u0000', 'x'.repeat(70_000)]) {
      for (const url of ['/demo/api/1.0/refresh-token', '/demo/api/1.0/logout']) {
        const res = await app.inject({
          method: 'POST',
          url,
          headers: {
            cookie: `refresh_token=${encodeURIComponent(value)}; xsrf=${encodeURIComponent(value)}`,
            'x-xsrf-token': encodeURIComponent(value),
          },
          remoteAddress: remoteAddress(),
        });
        expect(res.statusCode, `${url} ${res.body}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${url} ${res.body}`).toBeLessThan(500);
      }
      for (const [url, authorization] of [
        ['/demo/api/1.0/payment-methods', `Bearer ${value}`],
        ['/demo/api/1.0/admin/webhook', `Bearer ptk_${value}`],
      ] as const) {
        const res = await app.inject({
          method: 'GET',
          url,
          headers: { authorization },
          remoteAddress: remoteAddress(),
        });
        expect(res.statusCode, res.body).toBe(401);
      }
    }
  });

  it('refuses poison in form posts (the Redsys notification, a provider form_post)', async () => {
    for (const value of ['a\u0000b', '\ud800', 'x\u0001']) {
      const form = new URLSearchParams({
        Ds_SignatureVersion: 'HMAC_SHA256_V1',
        Ds_MerchantParameters: value,
        Ds_Signature: value,
      }).toString();
      const notification = await app.inject({
        method: 'POST',
        url: '/demo/api/1.0/redsys/notification',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        // URLSearchParams writes a lone surrogate as U+FFFD: put the raw text in as well.
        payload: `${form}&extra=${value}`,
        remoteAddress: remoteAddress(),
      });
      expect(notification.statusCode, notification.body).toBeGreaterThanOrEqual(400);
      expect(notification.statusCode, notification.body).toBeLessThan(500);
    }
  });

  it('answers a path that does not decode, or a parameter too long, with the documented 400', async () => {
    for (const url of [
      '/demo/api/1.0/payment-methods/%ED%A0%80',
      '/demo/api/1.0/payment-methods/%E0%A4%A',
      `/demo/api/1.0/payment-methods/${'x'.repeat(700)}`,
    ]) {
      const res = await app.inject({
        method: 'PATCH',
        url,
        headers: { authorization: `Bearer ${token}` },
        payload: { alias: 'x' },
        remoteAddress: remoteAddress(),
      });
      expect(res.statusCode, `${url} ${res.body}`).toBe(400);
      expect(res.json()).toEqual({ message: 'Bad request', code: 'bad_request' });
    }
  });

  it('names the field and the code of a poison value, so the web app can word it', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/demo/api/1.0/contact',
      headers: { authorization: `Bearer ${token}` },
      payload: {
        name: 'Laura\u0000',
        company: 'Empresa',
        subject: 'Hola\ud800',
        message: 'Mensaje\r\ncon\tsaltos',
        acceptPrivacy: true,
      },
      remoteAddress: remoteAddress(),
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toEqual({
      message: 'Validation failed',
      code: 'validation_failed',
      errors: { name: ['invalid_characters'], subject: ['invalid_characters'] },
    });
  });
});
