import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { demoEmail, demoPassword, secondEmail } from '../src/db/seed/demo.ts';
import { maxChallengeFailures } from '../src/modules/auth/second-factor.ts';
import { buildTestApp, engines } from './engines.ts';

const sha256hex = (text: string) => createHash('sha256').update(text).digest('hex');

type Json = Record<string, unknown>;
const cookieNames = (res: LightMyRequestResponse) =>
  (res.cookies as { name: string }[]).map((c) => c.name);

/** The code an authenticator app shows `steps` time steps from now. */
const codeAt = (secret: string, steps = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

/**
 * The second factor (issue 24): set up from the profile with a code from the app, asked after the
 * password (or link), ten single-use recovery codes, a code never accepted twice, guessing bounded
 * per challenge and per account, and a tenant that requires it.
 */
describe.each(engines())('the second factor on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let ip = 0;
  const nextIp = () => `10.90.${Math.floor(++ip / 250)}.${ip % 250}`;

  beforeAll(async () => {
    db = await engine.open();
    app = await buildTestApp(db, { PUBLIC_URL: 'http://localhost:3000' }, randomBytes(32));
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  const post = (target: FastifyInstance, url: string, payload: object, token?: string) =>
    target.inject({
      method: 'POST',
      url,
      payload,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      remoteAddress: nextIp(),
    });
  const login = (tenant: string, email: string, target = app) =>
    post(target, `/${tenant}/api/1.0/login`, { email, password: demoPassword });
  const second = (tenant: string, challenge: string, code: string, target = app) =>
    post(target, `/${tenant}/api/1.0/login/second-factor`, { challenge, code });
  const tokenOf = (res: LightMyRequestResponse) =>
    res.json<{ access_token: string }>().access_token;

  /** Signs in (no second factor yet) and turns it on; answers the secret and recovery codes. */
  async function enrol(tenant: string, email: string) {
    const token = tokenOf(await login(tenant, email));
    const setup = await post(
      app,
      `/${tenant}/api/1.0/second-factor/setup`,
      { current_password: demoPassword },
      token,
    );
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret, uri } = setup.json<{ secret: string; uri: string }>();
    return { token, secret, uri };
  }

  it('is set up from the profile with a code from the app, and answers ten recovery codes once', async () => {
    const { token, secret, uri } = await enrol('1', demoEmail);
    expect(uri).toMatch(/^otpauth:\/\/totp\/.+\?secret=[A-Z2-7]+&issuer=Club%20Deportivo/);
    const status = () =>
      app.inject({
        method: 'GET',
        url: '/1/api/1.0/second-factor',
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await status()).json()).toEqual({ enabled: false, recovery_codes_left: 0 });

    const wrong = await post(app, '/1/api/1.0/second-factor/confirm', { code: '000000' }, token);
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject({ errors: { code: ['invalid_code'] } });

    const confirmCode = await codeAt(secret);
    const confirmed = await post(
      app,
      '/1/api/1.0/second-factor/confirm',
      { code: confirmCode },
      token,
    );
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const codes = confirmed.json<{ recovery_codes: string[] }>().recovery_codes;
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect((await status()).json()).toEqual({ enabled: true, recovery_codes_left: 10 });
    // Set up already: no second secret.
    expect(
      (await post(app, '/1/api/1.0/second-factor/setup', { current_password: demoPassword }, token))
        .statusCode,
    ).toBe(409);
    // The secret is sealed at rest.
    const [row] = await db.withOwner((sql) =>
      sql.query<{ secret: string }>("SELECT secret FROM customer_totp WHERE tenant_id = '1'"),
    );
    expect(row?.secret).toMatch(/^enc:v1:/);
    expect(row?.secret).not.toContain(secret);
    // The recovery codes are stored keyed (an HMAC under the server's secret, bound to the
    // customer), not as a plain SHA-256 that anyone reading the table could reverse by trying
    // every ~50-bit code (before session 36).
    const stored = await db.withOwner((sql) =>
      sql.query<{ code_hash: Uint8Array }>(
        "SELECT code_hash FROM customer_recovery_codes WHERE tenant_id = '1'",
      ),
    );
    const plain = codes.map((c) => sha256hex(c.replace('-', '')));
    expect(stored).toHaveLength(10);
    expect(stored.filter((r) => plain.includes(Buffer.from(r.code_hash).toString('hex')))).toEqual(
      [],
    );

    // From now on the password alone opens nothing: a challenge, no cookie.
    const first = await login('1', demoEmail);
    expect(first.statusCode).toBe(200);
    const { challenge, second_factor: kind } = first.json<{
      challenge: string;
      second_factor: string;
    }>();
    expect(kind).toBe('code');
    expect(first.json<Json>().access_token).toBeUndefined();
    expect(cookieNames(first)).toEqual([]);
    // The code that confirmed the set-up is spent: never accepted twice. (The very code sent: one
    // computed again here would be the next step's, a fresh code, when a 30 s step ends between.)
    const replay = await second('1', challenge, confirmCode);
    expect(replay.statusCode).toBe(422);
    const ok = await second('1', challenge, await codeAt(secret, 1));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json<Json>()).toMatchObject({ next: '', user: { email: demoEmail } });
    expect(cookieNames(ok)).toContain('refresh_token');
    // The challenge is spent too.
    const again = await second('1', challenge, await codeAt(secret, 1));
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'sign_in_challenge_expired' });

    // A recovery code works once, typed any way.
    const viaRecovery = await login('1', demoEmail);
    const recovery = codes[0] ?? '';
    const typed = ` ${recovery.toUpperCase().replace('-', '')} `;
    const used = await second('1', viaRecovery.json<{ challenge: string }>().challenge, typed);
    expect(used.statusCode, used.body).toBe(200);
    const reuse = await login('1', demoEmail);
    const refused = await second('1', reuse.json<{ challenge: string }>().challenge, recovery);
    expect(refused.statusCode).toBe(422);
    // A code stored as before session 36 (plain SHA-256) still works, once.
    await db.withOwner((sql) =>
      sql.query(
        `INSERT INTO customer_recovery_codes (tenant_id, customer_id, code_hash)
         SELECT tenant_id, customer_id, $1 FROM customer_recovery_codes WHERE tenant_id = '1' LIMIT 1`,
        [Buffer.from(sha256hex('abcde23456'), 'hex')],
      ),
    );
    const viaLegacy = await login('1', demoEmail);
    const legacy = await second(
      '1',
      viaLegacy.json<{ challenge: string }>().challenge,
      'abcde-23456',
    );
    expect(legacy.statusCode, legacy.body).toBe(200);
    expect((await status()).json()).toEqual({ enabled: true, recovery_codes_left: 9 });

    // Turned off with a current code; then the password alone signs in again.
    const offWrong = await post(app, '/1/api/1.0/second-factor/disable', { code: '123456' }, token);
    expect(offWrong.statusCode).toBe(422);
    const off = await post(
      app,
      '/1/api/1.0/second-factor/disable',
      { code: codes[1] ?? '' },
      token,
    );
    expect(off.statusCode, off.body).toBe(200);
    expect(tokenOf(await login('1', demoEmail))).toBeTruthy();
  });

  it('burns a challenge after a few wrong codes, and throttles an account across challenges', async () => {
    const { token, secret } = await enrol('demo', demoEmail);
    await post(app, '/demo/api/1.0/second-factor/confirm', { code: await codeAt(secret) }, token);

    const { challenge } = (await login('demo', demoEmail)).json<{ challenge: string }>();
    for (let i = 0; i < maxChallengeFailures; i++) {
      expect((await second('demo', challenge, '000000')).statusCode).toBe(422);
    }
    // Burnt: even the right code is refused; sign in again for another.
    const late = await second('demo', challenge, await codeAt(secret, 1));
    expect(late.statusCode).toBe(400);
    expect(late.json()).toMatchObject({ code: 'sign_in_challenge_expired' });

    // Another challenge, the same account: the account's budget (10 per 15 min) runs out.
    const next = (await login('demo', demoEmail)).json<{ challenge: string }>().challenge;
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await second('demo', next, '111111')).statusCode);
    // Six codes of the sign-in were tried already (five wrong, the late one): four more, then 429.
    // The set-up's code, from the profile, spends a budget of its own (session 38).
    expect(statuses).toEqual([422, 422, 422, 422, 429]);
  });

  it("refuses another tenant's challenge", async () => {
    const { token, secret } = await enrol('1', secondEmail);
    await post(app, '/1/api/1.0/second-factor/confirm', { code: await codeAt(secret) }, token);
    const { challenge } = (await login('1', secondEmail)).json<{ challenge: string }>();
    const foreign = await second('demo', challenge, await codeAt(secret, 1));
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toMatchObject({ code: 'sign_in_challenge_expired' });
    // Still good on its own tenant.
    expect((await second('1', challenge, await codeAt(secret, 1))).statusCode).toBe(200);
  });

  it('makes every customer set it up at sign-in where the tenant requires it', async () => {
    const setPolicy = (policy: string) =>
      db.withOwner((sql) =>
        sql.query("UPDATE tenants SET second_factor = $1 WHERE id = 'demo'", [policy]),
      );
    await setPolicy('required');
    // A new instance: the running one keeps a tenant's settings for up to 30 s.
    const strict = await buildTestApp(db, { PUBLIC_URL: 'http://localhost:3000' });
    try {
      const first = await login('demo', secondEmail, strict);
      expect(first.json()).toMatchObject({ second_factor: 'enrol' });
      expect(cookieNames(first)).toEqual([]);
      const { challenge } = first.json<{ challenge: string }>();
      const enrolled = await post(strict, '/demo/api/1.0/login/second-factor/enrol', {
        challenge,
      });
      expect(enrolled.statusCode, enrolled.body).toBe(200);
      const { secret } = enrolled.json<{ secret: string }>();
      const done = await second('demo', challenge, await codeAt(secret), strict);
      expect(done.statusCode, done.body).toBe(200);
      expect(done.json<{ recovery_codes: string[] }>().recovery_codes).toHaveLength(10);
      // Required: it cannot be turned off.
      const off = await post(
        strict,
        '/demo/api/1.0/second-factor/disable',
        { code: await codeAt(secret, 1) },
        tokenOf(done),
      );
      expect(off.statusCode).toBe(409);
      expect(off.json()).toMatchObject({ code: 'second_factor_required' });
      const config = await strict.inject({ method: 'GET', url: '/demo/api/1.0/visual-config' });
      expect(config.json()).toMatchObject({ second_factor: 'required' });
    } finally {
      await setPolicy('optional');
      await strict.close();
    }
  });
});
