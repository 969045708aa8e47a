import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { decodeJwt, SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { demoEmail, demoPassword, secondEmail } from '../src/db/seed/demo.ts';
import { deriveKey } from '../src/lib/secrets.ts';
import { tokenAudience, tokenIssuer } from '../src/modules/auth/tokens.ts';
import { buildTestApp, engines } from './engines.ts';
import { startSmtp } from '../../../tools/test-smtp.ts';
import { pastReuseWindow } from './refresh-window.ts';

type Cookie = {
  name: string;
  value: string;
  path?: string;
  maxAge?: number;
  httpOnly?: boolean;
  sameSite?: string;
};
const cookieOf = (res: LightMyRequestResponse, name: string) =>
  (res.cookies as Cookie[]).find((c) => c.name === name);

describe.each(engines())('accounts and sessions on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  const rootSecret = randomBytes(32);
  let ipCounter = 0;
  const nextIp = () => `10.0.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

  beforeAll(async () => {
    db = await engine.open();
    smtp = await startSmtp();
    app = await buildTestApp(
      db,
      { SMTP_URL: smtp.url, PUBLIC_URL: 'http://localhost:3000' },
      rootSecret,
    );
  });
  afterAll(async () => {
    await app.close();
    await db.close();
    await smtp.close();
  });

  const login = (tenant: string, body: object, ip = nextIp()) =>
    app.inject({
      method: 'POST',
      url: `/${tenant}/api/1.0/login`,
      payload: body,
      remoteAddress: ip,
    });

  /** Signs in and returns what a browser would keep. */
  async function signIn(tenant = 'demo', remember = false) {
    const res = await login(tenant, { email: demoEmail, password: demoPassword, remember });
    expect(res.statusCode).toBe(200);
    const refresh = cookieOf(res, 'refresh_token');
    const xsrf = cookieOf(res, 'XSRF-TOKEN');
    return {
      body: res.json<{ access_token: string; user: { id: string; code: string } }>(),
      refresh,
      xsrf,
      res,
    };
  }

  const refresh = (
    tenant: string,
    refreshToken: string | undefined,
    xsrf: string | undefined,
    headers = {},
  ) =>
    app.inject({
      method: 'POST',
      url: `/${tenant}/api/1.0/refresh-token`,
      cookies: {
        ...(refreshToken ? { refresh_token: refreshToken } : {}),
        ...(xsrf ? { 'XSRF-TOKEN': xsrf } : {}),
      },
      headers: { ...(xsrf ? { 'x-xsrf-token': xsrf } : {}), ...headers },
    });

  const profile = (tenant: string, id: string, token?: string) =>
    app.inject({
      method: 'GET',
      url: `/${tenant}/api/1.0/user/profile/${id}`,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });

  describe('login', () => {
    it('answers the access token and the user, and sets a browser-session refresh cookie', async () => {
      const { body, refresh: cookie, xsrf } = await signIn();
      expect(body.access_token.split('.')).toHaveLength(3);
      expect(body.user).toMatchObject({
        email: demoEmail,
        name: 'Laura García Martín',
        code: 'DF-000123',
      });
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/demo/api/1.0' });
      expect(cookie?.maxAge).toBeUndefined();
      expect(xsrf?.httpOnly).toBeFalsy();
    });

    it('makes the cookie persistent for 30 days with remember-me', async () => {
      const { refresh: cookie, xsrf } = await signIn('demo', true);
      expect(cookie?.maxAge).toBe(30 * 86400);
      expect(xsrf?.maxAge).toBe(30 * 86400);
    });

    it('takes the e-mail case-insensitively', async () => {
      const res = await login('1', { email: 'CLIENTE@Demo.TEST', password: demoPassword });
      expect(res.statusCode).toBe(200);
    });

    it('gives an unknown e-mail and a wrong password the same answer', async () => {
      const wrong = await login('demo', { email: demoEmail, password: 'Wrong1234!' });
      const unknown = await login('demo', { email: 'nobody@demo.test', password: 'Wrong1234!' });
      expect(wrong.statusCode).toBe(401);
      expect(unknown.statusCode).toBe(401);
      expect(wrong.body).toBe(unknown.body);
      expect(wrong.json()).toEqual({ message: 'Invalid credentials', code: 'invalid_credentials' });
      expect(wrong.cookies).toEqual([]);
    });

    it('validates the body with field errors', async () => {
      const res = await login('demo', { email: 'not-an-email', password: '' });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({
        code: 'validation_failed',
        errors: { email: ['invalid_email'], password: ['required'] },
      });
    });

    it('answers 400 to malformed JSON, never a 500', async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/demo/api/1.0/login',
        headers: { 'content-type': 'application/json' },
        payload: '{"email":',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'Bad request', code: 'bad_request' });
    });

    it('limits attempts per account and IP with 429 and Retry-After, without locking out other IPs', async () => {
      const ip = nextIp();
      const statuses: number[] = [];
      let last: LightMyRequestResponse | undefined;
      for (let i = 0; i < 11; i++) {
        last = await login('1', { email: secondEmail, password: 'Nope1234!' }, ip);
        statuses.push(last.statusCode);
      }
      expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
      expect(statuses[10]).toBe(429);
      expect(Number(last?.headers['retry-after'])).toBeGreaterThan(0);
      // Even the right password is refused from that IP for now...
      expect(
        (await login('1', { email: secondEmail, password: demoPassword }, ip)).statusCode,
      ).toBe(429);
      // ...but the customer elsewhere still signs in.
      expect((await login('1', { email: secondEmail, password: demoPassword })).statusCode).toBe(
        200,
      );
    });
  });

  describe('access tokens', () => {
    it("opens the customer's own profile by id or by code", async () => {
      const { body } = await signIn();
      for (const ref of [body.user.id, body.user.code]) {
        const res = await profile('demo', ref, body.access_token);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({
          name: 'Laura',
          lastName: 'García Martín',
          client_id: 'DF-000123',
          nif: '12345678Z',
          country: 'España',
        });
      }
    });

    it("answers 404 for another customer's profile", async () => {
      const { body } = await signIn();
      const other = await login('demo', { email: secondEmail, password: demoPassword });
      const otherUser = other.json<{ user: { id: string; code: string } }>().user;
      expect((await profile('demo', otherUser.id, body.access_token)).statusCode).toBe(404);
      expect((await profile('demo', otherUser.code, body.access_token)).statusCode).toBe(404);
    });

    it('answers 401 without a token, with garbage, and with a token of another tenant', async () => {
      const { body } = await signIn('demo');
      expect((await profile('demo', body.user.id)).statusCode).toBe(401);
      expect((await profile('demo', body.user.id, 'abc.def.ghi')).statusCode).toBe(401);
      const res = await profile('1', body.user.id, body.access_token);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Not signed in', code: 'unauthorized' });
    });

    it('answers 401 to alg:none and to a wrong audience', async () => {
      const { body } = await signIn('demo');
      const none = new UnsecuredJWT({ tid: 'demo' })
        .setIssuer(tokenIssuer)
        .setAudience(tokenAudience('demo'))
        .setSubject(body.user.id)
        .setIssuedAt()
        .setExpirationTime('5m')
        .encode();
      expect((await profile('demo', body.user.id, none)).statusCode).toBe(401);
      const key = deriveKey(rootSecret, 'access-token');
      const wrongAudience = await new SignJWT({ tid: 'demo' })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer(tokenIssuer)
        .setAudience(tokenAudience('1'))
        .setSubject(body.user.id)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(key);
      expect((await profile('demo', body.user.id, wrongAudience)).statusCode).toBe(401);
    });

    it('answers 403 token_expired to an expired token', async () => {
      const { body } = await signIn('demo');
      const key = deriveKey(rootSecret, 'access-token');
      const now = Math.floor(Date.now() / 1000);
      const expired = await new SignJWT({ tid: 'demo', sid: decodeJwt(body.access_token).sid })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer(tokenIssuer)
        .setAudience(tokenAudience('demo'))
        .setSubject(body.user.id)
        .setIssuedAt(now - 1000)
        .setExpirationTime(now - 10)
        .sign(key);
      const res = await profile('demo', body.user.id, expired);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: 'Access token expired', code: 'token_expired' });
    });
  });

  describe('refresh and logout', () => {
    it('rotates the refresh token and answers a working access token under both names', async () => {
      const { body, refresh: cookie, xsrf } = await signIn();
      const res = await refresh('demo', cookie?.value, xsrf?.value);
      expect(res.statusCode).toBe(200);
      const json = res.json<{ access_token: string; accessToken: string }>();
      expect(json.accessToken).toBe(json.access_token);
      expect((await profile('demo', body.user.id, json.access_token)).statusCode).toBe(200);
      const rotated = cookieOf(res, 'refresh_token');
      expect(rotated?.value).toBeTruthy();
      expect(rotated?.value).not.toBe(cookie?.value);
    });

    it('revokes the whole family when a spent token is used again', async () => {
      const { refresh: cookie, xsrf } = await signIn();
      const first = await refresh('demo', cookie?.value, xsrf?.value);
      const next = cookieOf(first, 'refresh_token')?.value;
      const nextXsrf = cookieOf(first, 'XSRF-TOKEN')?.value;
      await pastReuseWindow(db, 'demo');
      // The stolen, already rotated token comes back: refused...
      const replay = await refresh('demo', cookie?.value, xsrf?.value);
      expect(replay.statusCode).toBe(401);
      // ...and the legitimate successor is dead too.
      expect((await refresh('demo', next, nextXsrf)).statusCode).toBe(401);
    });

    it('refuses a refresh without the XSRF header, with a forged one, or from a foreign Origin', async () => {
      const { refresh: cookie, xsrf } = await signIn();
      const noHeader = await app.inject({
        method: 'POST',
        url: '/demo/api/1.0/refresh-token',
        cookies: { refresh_token: cookie?.value ?? '', 'XSRF-TOKEN': xsrf?.value ?? '' },
      });
      expect(noHeader.statusCode).toBe(403);
      expect(noHeader.json()).toMatchObject({ code: 'forbidden' });
      expect((await refresh('demo', cookie?.value, 'forged.value')).statusCode).toBe(403);
      const foreign = await refresh('demo', cookie?.value, xsrf?.value, {
        origin: 'https://evil.example',
      });
      expect(foreign.statusCode).toBe(403);
      const own = await refresh('demo', cookie?.value, xsrf?.value, {
        origin: 'http://demo.localhost:3000',
      });
      expect(own.statusCode).toBe(200);
    });

    it("does not accept one tenant's refresh token on another", async () => {
      const { refresh: cookie, xsrf } = await signIn('demo');
      expect((await refresh('1', cookie?.value, xsrf?.value)).statusCode).toBe(401);
    });

    it('ends the session on logout, server side', async () => {
      const { refresh: cookie, xsrf } = await signIn();
      const res = await app.inject({
        method: 'POST',
        url: '/demo/api/1.0/logout',
        cookies: { refresh_token: cookie?.value ?? '', 'XSRF-TOKEN': xsrf?.value ?? '' },
        headers: { 'x-xsrf-token': xsrf?.value ?? '' },
      });
      expect(res.statusCode).toBe(200);
      expect(cookieOf(res, 'refresh_token')?.value).toBe('');
      expect((await refresh('demo', cookie?.value, xsrf?.value)).statusCode).toBe(401);
    });
  });

  describe('password recovery', () => {
    const forgot = (tenant: string, email: string, headers = {}) =>
      app.inject({
        method: 'POST',
        url: `/${tenant}/api/1.0/forgot-password`,
        payload: { email },
        headers,
        remoteAddress: nextIp(),
      });
    const reset = (tenant: string, body: object) =>
      app.inject({
        method: 'POST',
        url: `/${tenant}/api/1.0/reset-password`,
        payload: body,
        remoteAddress: nextIp(),
      });
    const linkIn = (raw: string) => {
      const match =
        /(http:\/\/[^\s"<>]+\/reset-password\?token=[\w-]+&(?:amp;)?email=[^\s"<>]+)/.exec(raw);
      if (!match?.[1]) throw new Error('no link in the e-mail');
      const url = new URL(match[1].replace(/&amp;/g, '&'));
      return {
        url,
        token: url.searchParams.get('token') ?? '',
        email: url.searchParams.get('email') ?? '',
      };
    };

    it('answers the same for a customer and for an unknown address', async () => {
      const known = await forgot('1', secondEmail);
      const unknown = await forgot('1', 'nobody@demo.test');
      expect(known.statusCode).toBe(202);
      expect(unknown.statusCode).toBe(202);
      expect(known.body).toBe(unknown.body);
      await smtp.waitFor(secondEmail);
    });

    it('e-mails a branded link built from the canonical URL, never the Host header, that resets once', async () => {
      await forgot('demo', demoEmail, { host: 'evil.example', 'x-forwarded-host': 'evil.example' });
      const mail = await smtp.waitFor(demoEmail);
      expect(mail.raw).toContain('Gimnasio Demo Fitness');
      expect(mail.raw).toContain('Hemos recibido una solicitud para restablecer la contraseña');
      expect(mail.raw).not.toContain('evil.example');
      const link = linkIn(mail.raw);
      expect(link.url.origin).toBe('http://demo.localhost:3000');
      expect(link.email).toBe(demoEmail);

      const { refresh: oldCookie, xsrf } = await signIn();
      const newPassword = 'Nueva-clave-2026';
      const ok = await reset('demo', {
        token: link.token,
        email: link.email,
        password: newPassword,
        password_confirmation: newPassword,
      });
      expect(ok.statusCode).toBe(200);
      // Every session ended; the new password works; the link is spent.
      expect((await refresh('demo', oldCookie?.value, xsrf?.value)).statusCode).toBe(401);
      expect((await login('demo', { email: demoEmail, password: newPassword })).statusCode).toBe(
        200,
      );
      const again = await reset('demo', {
        token: link.token,
        email: link.email,
        password: 'Otra-clave-2026',
        password_confirmation: 'Otra-clave-2026',
      });
      expect(again.statusCode).toBe(422);
      expect(again.json()).toMatchObject({ errors: { token: ['invalid_token'] } });
      // Put the demo password back for the other tests.
      await forgot('demo', demoEmail);
      const back = linkIn((await smtp.waitFor(demoEmail)).raw);
      const restored = await reset('demo', {
        token: back.token,
        email: back.email,
        password: demoPassword,
        password_confirmation: demoPassword,
      });
      expect(restored.statusCode).toBe(200);
    });

    it('refuses common and short passwords, ones with the e-mail or the organisation, a mismatch, a wrong e-mail and a token of another tenant', async () => {
      await forgot('1', secondEmail);
      const link = linkIn((await smtp.waitFor(secondEmail)).raw);
      const weak = await reset('1', {
        token: link.token,
        email: link.email,
        password: 'password123',
        password_confirmation: 'password123',
      });
      expect(weak.statusCode).toBe(422);
      expect(weak.json()).toMatchObject({ errors: { password: ['password_common'] } });
      const short = await reset('1', {
        token: link.token,
        email: link.email,
        password: 'Ab1!',
        password_confirmation: 'Ab1!',
      });
      expect(short.json()).toMatchObject({ errors: { password: ['too_short'] } });
      // The e-mail (segundo@...) and the organisation (Club Deportivo Las Encinas), each with
      // its own code; the link stays unspent.
      for (const [password, code] of [
        ['Segundo-2026!', 'password_contains_email'],
        ['Las-Encinas-2026', 'password_contains_name'],
        ['CLUBDEPORTIVO lasencinas', 'password_contains_name'],
      ]) {
        const refused = await reset('1', {
          token: link.token,
          email: link.email,
          password,
          password_confirmation: password,
        });
        expect(refused.statusCode, password).toBe(422);
        expect(refused.json(), password).toMatchObject({ errors: { password: [code] } });
      }
      const mismatch = await reset('1', {
        token: link.token,
        email: link.email,
        password: 'Buena-clave-1',
        password_confirmation: 'Buena-clave-2',
      });
      expect(mismatch.json()).toMatchObject({ errors: { password_confirmation: ['mismatch'] } });
      const wrongEmail = await reset('1', {
        token: link.token,
        email: demoEmail,
        password: 'Buena-clave-1',
        password_confirmation: 'Buena-clave-1',
      });
      expect(wrongEmail.json()).toMatchObject({ errors: { token: ['invalid_token'] } });
      const otherTenant = await reset('demo', {
        token: link.token,
        email: link.email,
        password: 'Buena-clave-1',
        password_confirmation: 'Buena-clave-1',
      });
      expect(otherTenant.json()).toMatchObject({ errors: { token: ['invalid_token'] } });
    });

    it('answers 400 to an expired link and 404 when its customer is gone', async () => {
      await forgot('1', secondEmail);
      const link = linkIn((await smtp.waitFor(secondEmail)).raw);
      await db.withOwner((sql) =>
        sql.query(
          "UPDATE password_resets SET expires_at = now() - interval '1 minute' WHERE tenant_id = '1' AND used_at IS NULL",
        ),
      );
      const body = {
        token: link.token,
        email: link.email,
        password: 'Buena-clave-1',
        password_confirmation: 'Buena-clave-1',
      };
      const expired = await reset('1', body);
      expect(expired.statusCode).toBe(400);
      expect(expired.json()).toEqual({
        message: 'Reset link expired',
        code: 'reset_token_expired',
      });

      await forgot('1', secondEmail);
      const fresh = linkIn((await smtp.waitFor(secondEmail)).raw);
      await db.withOwner((sql) =>
        sql.query("DELETE FROM customers WHERE tenant_id = '1' AND email = $1", [secondEmail]),
      );
      const gone = await reset('1', { ...body, token: fresh.token });
      expect(gone.statusCode).toBe(404);
      expect(gone.json()).toEqual({ message: 'User not found', code: 'user_not_found' });
    });
  });
});
