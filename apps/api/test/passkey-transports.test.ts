import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { demoPassword } from '../src/db/seed/demo.ts';
import { buildTestApp, engines } from './engines.ts';
import { signedIn } from './session.ts';
import { softwareAuthenticator } from './software-authenticator.ts';

/**
 * Session 34's accounts review: odd input on the auth calls must get a documented 4xx, never a
 * 500 (SECURITY.md, "Bad input"). The passkey's `response.transports` is what the browser (or
 * whoever posts) says, passed through the WebAuthn library unchecked and written with
 * `textArray`. Failed on the code it was written against.
 */
describe.each(engines())('odd input on the passkey calls, on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let origin = '';
  let ip = 0;
  const nextIp = () => `10.66.${Math.floor(++ip / 250)}.${ip % 250}`;

  beforeAll(async () => {
    db = await engine.open();
    app = await buildTestApp(db, { PUBLIC_URL: 'http://localhost:3000' });
    const [tenant] = await db.withOwner((sql) =>
      sql.query<{ canonical_url: string }>("SELECT canonical_url FROM tenants WHERE id = 'demo'"),
    );
    origin = new URL(tenant?.canonical_url ?? '').origin;
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  const post = (url: string, payload: object, token: string) =>
    app.inject({
      method: 'POST',
      url: `/demo/api/1.0${url}`,
      payload,
      headers: { authorization: `Bearer ${token}` },
      remoteAddress: nextIp(),
    });

  it.each([
    ['a number', [1]],
    ['null', [null]],
    ['an object', {}],
    ['a nested list', [['usb']]],
    ['a string', 'usb'],
  ])(
    'adds the passkey without the unknown transports (not a 500) for transports holding %s',
    async (_what, transports) => {
      const me = await signedIn(app, 'demo');
      const options = await post(
        '/passkeys/register/options',
        { current_password: demoPassword },
        me.token,
      );
      expect(options.statusCode, options.body).toBe(200);
      const credential = softwareAuthenticator(origin).create(options.json());
      const res = await post(
        '/passkeys/register',
        { credential: { ...credential, response: { ...credential.response, transports } } },
        me.token,
      );
      expect(res.statusCode, res.body).toBe(201);
      const [stored] = await db.withOwner((sql) =>
        sql.query<{ transports: string[] }>(
          'SELECT transports FROM customer_passkeys WHERE id = $1',
          [res.json<{ id: string }>().id],
        ),
      );
      expect(stored?.transports).toEqual([]);
    },
  );
});
