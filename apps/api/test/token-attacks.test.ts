import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { decodeJwt, exportJWK, SignJWT, UnsecuredJWT, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { demoEmail, demoPassword, secondEmail } from '../src/db/seed/demo.ts';
import { deriveKey } from '../src/lib/secrets.ts';
import { tokenAudience, tokenIssuer } from '../src/modules/auth/tokens.ts';
import { buildTestApp, engines } from './engines.ts';
import { pastReuseWindow } from './refresh-window.ts';

type Cookie = { name: string; value: string };
const cookieOf = (res: LightMyRequestResponse, name: string) =>
  (res.cookies as Cookie[]).find((c) => c.name === name)?.value ?? '';
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * Forged, altered and misused access tokens, and cookie calls without their CSRF proofs, against
 * the real app: every one is refused before any data is read.
 */
describe.each(engines())('token attacks on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  const rootSecret = randomBytes(32);
  const key = deriveKey(rootSecret, 'access-token');
  let me: { id: string; token: string };
  let otherId: string;
  let ip = 0;

  const login = async (email: string) => {
    const res = await app.inject({
      method: 'POST',
      url: '/demo/api/1.0/login',
      payload: { email, password: demoPassword },
      remoteAddress: `10.8.0.${++ip}`,
    });
    expect(res.statusCode).toBe(200);
    return res;
  };
  const profile = (token: string, id = me.id) =>
    app.inject({
      method: 'GET',
      url: `/demo/api/1.0/user/profile/${id}`,
      headers: { authorization: `Bearer ${token}` },
    });
  /** A token as this server would sign it, with `change` applied to its claims or header. */
  const forge = (claims: JWTPayload = {}, header: Record<string, unknown> = {}, secret = key) =>
    new SignJWT({ tid: 'demo', sid: decodeJwt(me.token).sid, ...claims })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT', ...header })
      .setIssuer((claims.iss as string | undefined) ?? tokenIssuer)
      .setAudience((claims.aud as string | undefined) ?? tokenAudience('demo'))
      .setSubject((claims.sub as string | undefined) ?? me.id)
      .setIssuedAt()
      .setExpirationTime((claims.exp as number | undefined) ?? '5m')
      .sign(secret);
  const expectRefused = async (token: string, id = me.id) => {
    const res = await profile(token, id);
    expect(res.statusCode, res.body).toBe(401);
    expect(res.json()).toEqual({ message: 'Not signed in', code: 'unauthorized' });
  };

  beforeAll(async () => {
    db = await engine.open();
    app = await buildTestApp(db, { PUBLIC_URL: 'http://localhost:3000' }, rootSecret);
    const mine = (await login(demoEmail)).json<{ access_token: string; user: { id: string } }>();
    me = { id: mine.user.id, token: mine.access_token };
    otherId = (await login(secondEmail)).json<{ user: { id: string } }>().user.id;
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  it('accepts the genuine token and a token forged with the real key (the baseline)', async () => {
    expect((await profile(me.token)).statusCode).toBe(200);
    expect((await profile(await forge())).statusCode).toBe(200);
  });

  it('refuses alg:none, with or without a signature', async () => {
    const none = new UnsecuredJWT({ tid: 'demo' })
      .setIssuer(tokenIssuer)
      .setAudience(tokenAudience('demo'))
      .setSubject(me.id)
      .setIssuedAt()
      .setExpirationTime('5m')
      .encode();
    await expectRefused(none);
    const [, payload] = me.token.split('.');
    for (const alg of ['none', 'None', 'NONE']) {
      await expectRefused(`${b64({ alg, typ: 'JWT' })}.${payload}.`);
      await expectRefused(`${b64({ alg, typ: 'JWT' })}.${payload}.${me.token.split('.')[2]}`);
    }
  });

  it('refuses algorithm confusion: RS256, ES256, HS512 and HS256 keyed with a public key', async () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const claims = {
      tid: 'demo',
      sub: me.id,
      iss: tokenIssuer,
      aud: tokenAudience('demo'),
      iat: Math.floor(Date.now() / 1000),
      exp: Math.floor(Date.now() / 1000) + 300,
    };
    const rs256 = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256' })
      .sign(rsa.privateKey);
    await expectRefused(rs256);
    // The public key shipped with the token as a JWK, as if the server trusted embedded keys.
    const embedded = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', jwk: await exportJWK(rsa.publicKey) })
      .sign(rsa.privateKey);
    await expectRefused(embedded);
    // The classic confusion: HMAC keyed with the (public) RSA key, as a PEM string.
    const pem = rsa.publicKey.export({ type: 'spki', format: 'pem' });
    const confused = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(String(pem)));
    await expectRefused(confused);
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    await expectRefused(
      await new SignJWT(claims).setProtectedHeader({ alg: 'ES256' }).sign(ec.privateKey),
    );
    // Even the real key is refused with another algorithm than the one pinned.
    await expectRefused(await new SignJWT(claims).setProtectedHeader({ alg: 'HS512' }).sign(key));
  });

  it('refuses a tampered payload: another customer, another tenant, a later expiry', async () => {
    const [header, payload, signature] = me.token.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as JWTPayload;
    for (const change of [
      { sub: otherId },
      { tid: '1', aud: tokenAudience('1') },
      { exp: (claims.exp ?? 0) + 86_400 },
      { iss: 'someone-else' },
    ]) {
      const tampered = `${header}.${b64({ ...claims, ...change })}.${signature}`;
      await expectRefused(tampered, change.sub ?? me.id);
    }
    await expectRefused(`${header}.${payload}.`);
    await expectRefused(`${header}.${payload}.${(signature ?? '').slice(0, -4)}AAAA`);
  });

  it('refuses a wrong issuer, audience or tenant claim, a future nbf and missing claims', async () => {
    await expectRefused(await forge({ iss: 'https://evil.example' }));
    await expectRefused(await forge({ aud: tokenAudience('1') }));
    await expectRefused(await forge({ aud: 'tenant:demo-other' }));
    await expectRefused(await forge({ tid: '1' }));
    await expectRefused(await forge({ nbf: Math.floor(Date.now() / 1000) + 3600 }));
    const withoutTid = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(tokenIssuer)
      .setAudience(tokenAudience('demo'))
      .setSubject(me.id)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(key);
    await expectRefused(withoutTid);
    const withoutExp = await new SignJWT({ tid: 'demo' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(tokenIssuer)
      .setAudience(tokenAudience('demo'))
      .setSubject(me.id)
      .setIssuedAt()
      .sign(key);
    await expectRefused(withoutExp);
    // No session id (`sid`): nothing says whether its session was ended.
    const withoutSid = await new SignJWT({ tid: 'demo' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(tokenIssuer)
      .setAudience(tokenAudience('demo'))
      .setSubject(me.id)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(key);
    await expectRefused(withoutSid);
    // Signed by another server (another root secret).
    await expectRefused(await forge({}, {}, deriveKey(randomBytes(32), 'access-token')));
  });

  it("answers another customer's id with 404 even with a valid token", async () => {
    expect((await profile(me.token, otherId)).statusCode).toBe(404);
    // A genuine token names its customer: a forged `sub` needs the key.
    expect((await profile(await forge({ sub: otherId }), otherId)).statusCode).toBe(200);
  });

  it('answers 403 token_expired (spec §4: the web app refreshes) only to a genuine expired token', async () => {
    const past = Math.floor(Date.now() / 1000) - 60;
    const expired = await forge({ exp: past });
    const res = await profile(expired);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'Access token expired', code: 'token_expired' });
    // An expired token from elsewhere is just invalid.
    await expectRefused(await forge({ exp: past }, {}, deriveKey(randomBytes(32), 'access-token')));
  });

  it.each([
    ['no scheme', (t: string) => t],
    ['basic scheme', (t: string) => `Basic ${t}`],
    ['two tokens', (t: string) => `Bearer ${t} ${t}`],
    ['a cookie instead of the header', () => ''],
  ])('refuses a token sent with %s', async (_name, header) => {
    const res = await app.inject({
      method: 'GET',
      url: `/demo/api/1.0/user/profile/${me.id}`,
      headers: header(me.token) ? { authorization: header(me.token) } : {},
      cookies: { access_token: me.token },
    });
    expect(res.statusCode).toBe(401);
  });

  describe('cookie calls (refresh, logout) without their CSRF proofs', () => {
    const session = async () => {
      const res = await login(demoEmail);
      return { refresh: cookieOf(res, 'refresh_token'), xsrf: cookieOf(res, 'XSRF-TOKEN') };
    };
    const cookieCall = (
      path: '/refresh-token' | '/logout',
      s: { refresh: string; xsrf: string },
      headers: Record<string, string>,
    ) =>
      app.inject({
        method: 'POST',
        url: `/demo/api/1.0${path}`,
        cookies: { refresh_token: s.refresh, 'XSRF-TOKEN': s.xsrf },
        headers,
      });

    it.each(['/refresh-token', '/logout'] as const)(
      '%s answers 403 without the XSRF header, with another value, or from a foreign Origin',
      async (path) => {
        const s = await session();
        const attempts: Record<string, string>[] = [
          {},
          { 'x-xsrf-token': (await session()).xsrf },
          { 'x-xsrf-token': s.xsrf, origin: 'https://evil.example' },
          { 'x-xsrf-token': s.xsrf, origin: 'null' },
          { 'x-xsrf-token': s.xsrf, origin: 'http://1.localhost:3000' },
        ];
        for (const headers of attempts) {
          const res = await cookieCall(path, s, headers);
          expect(res.statusCode, JSON.stringify(headers)).toBe(403);
          expect(res.json()).toMatchObject({ code: 'forbidden' });
        }
        // None of them ended or rotated the session: with its proofs, the call works.
        const ok = await cookieCall(path, s, {
          'x-xsrf-token': s.xsrf,
          origin: 'http://demo.localhost:3000',
        });
        expect(ok.statusCode).toBe(200);
      },
    );

    it('revokes the whole family when a rotated refresh token comes back, on either side', async () => {
      const s = await session();
      const first = await cookieCall('/refresh-token', s, { 'x-xsrf-token': s.xsrf });
      expect(first.statusCode).toBe(200);
      const next = {
        refresh: cookieOf(first, 'refresh_token'),
        xsrf: cookieOf(first, 'XSRF-TOKEN'),
      };
      // Past the reuse window (a page that lost its answer has long retried by then)...
      await pastReuseWindow(db, 'demo');
      // The thief replays the old one: refused, and the legitimate successor dies with it...
      expect((await cookieCall('/refresh-token', s, { 'x-xsrf-token': s.xsrf })).statusCode).toBe(
        401,
      );
      expect(
        (await cookieCall('/refresh-token', next, { 'x-xsrf-token': next.xsrf })).statusCode,
      ).toBe(401);
      // ...while the access tokens already issued run out on their own (15 minutes at most).
      const rows = await db.withOwner((sql) =>
        sql.query<{ revoked: number }>(
          "SELECT count(*) FILTER (WHERE revoked_at IS NOT NULL)::int AS revoked FROM refresh_tokens WHERE tenant_id = 'demo'",
        ),
      );
      expect(rows[0]?.revoked).toBeGreaterThanOrEqual(2);
    });
  });
});
