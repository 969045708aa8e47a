import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { demoEmail, demoPassword, secondEmail } from '../src/db/seed/demo.ts';
import { engines } from './engines.ts';
import { demoOrigin, openMailingApp, type MailingApp } from './mailing-app.ts';
import { signedIn } from './session.ts';
import { softwareAuthenticator } from './software-authenticator.ts';

/**
 * Step-up (session 33's review, each failed before): an access token alone, stolen from a page,
 * must not add a way into the account. Adding a passkey or turning the second factor on asks for
 * the current password, or, for a customer who has none, a sign-in within `stepUpMinutes`; the
 * owner is e-mailed of each; and a passkey signs in only with user verification (it skips the
 * code, so the device alone must not be enough).
 */
describe.each(engines())('step-up before adding a way into the account on $name', (engine) => {
  let env: MailingApp;
  let app: FastifyInstance;
  let origin = '';
  let ip = 0;
  const nextIp = () => `10.78.${Math.floor(++ip / 250)}.${ip % 250}`;

  beforeAll(async () => {
    env = await openMailingApp(engine);
    app = env.app;
    origin = await demoOrigin(env.db);
  });
  afterAll(async () => env.close());

  const post = (url: string, payload: object, token?: string, tenant = 'demo') =>
    app.inject({
      method: 'POST',
      url: `/${tenant}/api/1.0${url}`,
      payload,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      remoteAddress: nextIp(),
    });
  const fieldErrors = (body: string) =>
    (JSON.parse(body) as { errors?: Record<string, string[]> }).errors ?? {};
  const unusedRegisterChallenges = async () => {
    const [row] = await env.db.withOwner((sql) =>
      sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM webauthn_challenges
          WHERE tenant_id = 'demo' AND purpose = 'register' AND used_at IS NULL`,
      ),
    );
    return row?.n ?? 0;
  };

  it('refuses an access token without the password: no passkey challenge, no second factor', async () => {
    const thief = await signedIn(app, 'demo', secondEmail);
    const before = await unusedRegisterChallenges();
    for (const body of [{}, { current_password: 'guess-1234' }]) {
      const options = await post('/passkeys/register/options', body, thief.token);
      expect(options.statusCode, options.body).toBe(422);
      expect(fieldErrors(options.body).current_password).toEqual(['wrong_password']);
      const setup = await post('/second-factor/setup', body, thief.token);
      expect(setup.statusCode, setup.body).toBe(422);
      expect(fieldErrors(setup.body).current_password).toEqual(['wrong_password']);
    }
    expect(await unusedRegisterChallenges()).toBe(before);
    const status = await thief.get('/second-factor');
    expect(status.json()).toMatchObject({ enabled: false });
  });

  it('takes the owner through with the password: the passkey needs user verification, and the owner is told', async () => {
    const owner = await signedIn(app, 'demo');
    const key = softwareAuthenticator(origin);
    const options = await post(
      '/passkeys/register/options',
      { current_password: demoPassword },
      owner.token,
    );
    expect(options.statusCode, options.body).toBe(200);
    expect(options.json()).toMatchObject({
      authenticatorSelection: { userVerification: 'required' },
    });
    // An authenticator that did not verify the user (no fingerprint, face or PIN) adds nothing.
    const unverified = await post(
      '/passkeys/register',
      { credential: key.create(options.json(), { verified: false }) },
      owner.token,
    );
    expect(unverified.statusCode, unverified.body).toBe(400);
    const again = await post(
      '/passkeys/register/options',
      { current_password: demoPassword },
      owner.token,
    );
    const added = await post(
      '/passkeys/register',
      { credential: key.create(again.json()), name: 'Móvil de <Ana> $&' },
      owner.token,
    );
    expect(added.statusCode, added.body).toBe(201);
    const mail = await env.smtp.waitFor(demoEmail, 10_000, 'passkey-added');
    expect(mail.raw).toContain('Nueva llave de acceso');
    expect(mail.raw).toContain('«Móvil de <Ana> $&»');
    expect(mail.raw).toContain('Móvil de &#60;Ana&#62; $&#38;');

    // Signing in with it: refused without user verification, a session with it.
    const signIn = async (verified: boolean) => {
      const challenge = (await post('/passkeys/sign-in/options', {})).json();
      expect(challenge).toMatchObject({ userVerification: 'required' });
      return post('/passkeys/sign-in', { credential: key.get(challenge, { verified }) });
    };
    expect((await signIn(false)).statusCode).toBe(401);
    const session = await signIn(true);
    expect(session.statusCode, session.body).toBe(200);
    expect(session.json()).toMatchObject({ user: { email: demoEmail } });
  });

  it('e-mails the owner when the second factor is turned on', async () => {
    const owner = await signedIn(app, 'demo');
    const setup = await post(
      '/second-factor/setup',
      { current_password: demoPassword },
      owner.token,
    );
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret } = setup.json<{ secret: string }>();
    const confirm = await post(
      '/second-factor/confirm',
      { code: await generate({ secret }) },
      owner.token,
    );
    expect(confirm.statusCode, confirm.body).toBe(200);
    const mail = await env.smtp.waitFor(demoEmail, 10_000, 'second-factor-on');
    expect(mail.raw).toContain('Verificación en dos pasos activada');
  });

  it('lets a customer without a password prove it by a recent sign-in only', async () => {
    // Signs in, then has no password (as one who only uses links or Google would).
    const me = await signedIn(app, 'demo', secondEmail);
    await env.db.withOwner((sql) =>
      sql.query(
        "UPDATE customers SET password_hash = NULL WHERE tenant_id = 'demo' AND email = $1",
        [secondEmail],
      ),
    );
    const fresh = await post('/passkeys/register/options', {}, me.token);
    expect(fresh.statusCode, fresh.body).toBe(200);
    // Eleven minutes later the same access token (refreshed, say) proves nothing any more.
    await env.db.withOwner((sql) =>
      sql.query(
        `UPDATE customer_sessions SET created_at = now() - interval '11 minutes'
          WHERE tenant_id = 'demo' AND customer_id = $1`,
        [me.user.id],
      ),
    );
    for (const [url, body] of [
      ['/passkeys/register/options', {}],
      ['/second-factor/setup', {}],
      ['/user/email-change', { email: 'elsewhere@evil.example' }],
    ] as const) {
      const res = await post(url, body, me.token);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(403);
      expect(res.json()).toMatchObject({ code: 'reauthentication_required' });
    }
  });

  it('counts wrong passwords from every change in one budget (per session, and per account)', async () => {
    const thief = await signedIn(app, '1');
    const urls = ['/passkeys/register/options', '/second-factor/setup', '/change-password'];
    const answers: number[] = [];
    for (let i = 0; i < 12; i++) {
      const url = urls[i % urls.length] ?? '';
      const body =
        url === '/change-password'
          ? {
              current_password: `guess-${i}`,
              password: 'Otra-clave-2026!',
              password_confirmation: 'Otra-clave-2026!',
            }
          : { current_password: `guess-${i}` };
      answers.push((await post(url, body, thief.token, '1')).statusCode);
    }
    expect(answers.slice(0, 10).every((s) => s === 422)).toBe(true);
    expect(answers.slice(10)).toEqual([429, 429]);
  });
});
