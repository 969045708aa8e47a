import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { demoEmail, demoPassword, secondEmail } from '../src/db/seed/demo.ts';
import { buildTestApp, engines } from './engines.ts';

/** A credential as a browser would send it, made up: no authenticator signed it. */
const forged = (id = 'AAAA') => ({
  id,
  rawId: id,
  type: 'public-key',
  response: {
    clientDataJSON: Buffer.from(JSON.stringify({ type: 'webauthn.get' })).toString('base64url'),
    authenticatorData: 'AAAA',
    signature: 'AAAA',
  },
  clientExtensionResults: {},
});

/**
 * Passkeys (issue 24) at the API: challenges per tenant host, refusals of what no authenticator of
 * this portal signed, and the customer's own list. The whole ceremony with an authenticator is
 * e2e/passkeys.spec.ts (Chromium's virtual authenticator).
 */
describe.each(engines())('passkeys on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let ip = 0;

  beforeAll(async () => {
    db = await engine.open();
    app = await buildTestApp(db, { PUBLIC_URL: 'http://localhost:3000' }, randomBytes(32));
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  const post = (url: string, payload: object = {}, token?: string) =>
    app.inject({
      method: 'POST',
      url,
      payload,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      remoteAddress: `10.91.0.${++ip % 250}`,
    });
  const signIn = async (tenant: string, email: string) =>
    (await post(`/${tenant}/api/1.0/login`, { email, password: demoPassword })).json<{
      access_token: string;
    }>().access_token;

  it("asks each portal's own host to sign, with a single-use challenge", async () => {
    const one = await post('/1/api/1.0/passkeys/sign-in/options');
    const demo = await post('/demo/api/1.0/passkeys/sign-in/options');
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toMatchObject({ rpId: 'localhost', userVerification: 'required' });
    expect(demo.json()).toMatchObject({ rpId: 'demo.localhost' });
    const token = await signIn('1', demoEmail);
    const register = await post(
      '/1/api/1.0/passkeys/register/options',
      { current_password: demoPassword },
      token,
    );
    expect(register.json()).toMatchObject({
      rp: { id: 'localhost', name: 'Club Deportivo Las Encinas' },
      user: { name: demoEmail },
      authenticatorSelection: { residentKey: 'required' },
    });
    const [stored] = await db.withOwner((sql) =>
      sql.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM webauthn_challenges WHERE tenant_id = '1' AND used_at IS NULL",
      ),
    );
    expect(stored?.n).toBe(2);
  });

  it('refuses a passkey no authenticator of this portal signed, and a malformed one', async () => {
    const unknown = await post('/demo/api/1.0/passkeys/sign-in', { credential: forged() });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({
      message: 'Passkey not accepted',
      code: 'invalid_credentials',
    });
    expect(unknown.cookies).toEqual([]);
    const malformed = await post('/demo/api/1.0/passkeys/sign-in', {
      credential: { ...forged(), type: 'password' },
    });
    expect(malformed.statusCode).toBe(422);
    const token = await signIn('demo', demoEmail);
    const bogus = await post('/demo/api/1.0/passkeys/register', { credential: forged() }, token);
    expect(bogus.statusCode).toBe(400);
  });

  it("lists the customer's own passkeys, and another's id is a 404", async () => {
    const token = await signIn('demo', secondEmail);
    const list = await app.inject({
      method: 'GET',
      url: '/demo/api/1.0/passkeys',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(list.json()).toEqual({ passkeys: [] });
    const someone = '00000000-0000-4000-8000-000000000000';
    expect((await post(`/demo/api/1.0/passkeys/${someone}/delete`, {}, token)).statusCode).toBe(
      404,
    );
    const rename = await post(`/demo/api/1.0/passkeys/${someone}/rename`, { name: 'x' }, token);
    expect(rename.statusCode).toBe(404);
    const empty = await post(`/demo/api/1.0/passkeys/${someone}/rename`, { name: ' ' }, token);
    expect(empty.statusCode).toBe(422);
  });

  it('is refused where the operator turned passkeys off', async () => {
    await db.withOwner((sql) => sql.query("UPDATE tenants SET passkeys = false WHERE id = 'demo'"));
    const fresh = await buildTestApp(db, { PUBLIC_URL: 'http://localhost:3000' });
    try {
      const res = await fresh.inject({
        method: 'POST',
        url: '/demo/api/1.0/passkeys/sign-in/options',
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'sign_in_method_off' });
      const config = await fresh.inject({ method: 'GET', url: '/demo/api/1.0/visual-config' });
      expect(config.json()).toMatchObject({ passkeys: false });
    } finally {
      await db.withOwner((sql) =>
        sql.query("UPDATE tenants SET passkeys = true WHERE id = 'demo'"),
      );
      await fresh.close();
    }
  });
});
