import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginThroughProvider } from '../../../tools/oidc-http-login.ts';
import { startTestIssuers } from '../../../tools/test-oidc-provider.ts';
import type { Database } from '../src/db/database.ts';
import { demoEmail } from '../src/db/seed/demo.ts';
import { buildTestApp, engines } from './engines.ts';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const providers = ['google', 'apple', 'microsoft'] as const;
const canonical = 'http://demo.localhost:3000';

describe.each(engines())('external sign-in (OpenID Connect) on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let issuers: Awaited<ReturnType<typeof startTestIssuers>>;
  const ports: Record<string, number> = {};

  beforeAll(async () => {
    db = await engine.open();
    for (const p of providers) ports[p] = await freePort();
    issuers = await startTestIssuers(
      providers.map((provider) => ({
        provider,
        port: ports[provider] ?? 0,
        clientId: `portal-${provider}`,
        clientSecret: `secret-${provider}`,
        redirectUris: [`${canonical}/auth/${provider}/callback`],
      })),
    );
    await db.withOwner(async (sql) => {
      for (const p of providers) {
        await sql.query(
          `INSERT INTO tenant_sign_in_providers (tenant_id, provider, issuer, client_id, client_secret)
           VALUES ('demo', $1, $2, $3, $4)`,
          [p, issuers.issuerUrl(ports[p] ?? 0), `portal-${p}`, `secret-${p}`],
        );
      }
    });
    app = await buildTestApp(db, { PUBLIC_URL: 'http://localhost:3000' });
  });
  afterAll(async () => {
    await app.close();
    await db.close();
    await issuers.close();
  });

  async function start(provider: string) {
    const res = await app.inject({
      method: 'GET',
      url: `/demo/api/1.0/auth/${provider}/start?remember=1`,
    });
    const cookie = res.cookies.find((c) => c.name === 'oidc_state');
    return { res, location: String(res.headers.location), cookie: cookie?.value ?? '' };
  }

  const callback = (provider: string, body: object, stateCookie?: string) =>
    app.inject({
      method: 'POST',
      url: `/demo/api/1.0/auth/${provider}/callback`,
      payload: body,
      cookies: stateCookie ? { oidc_state: stateCookie } : {},
    });

  it('lists the configured providers in the branding', async () => {
    const res = await app.inject({ method: 'GET', url: '/demo/api/1.0/visual-config' });
    expect(res.json().sign_in_providers).toEqual(['apple', 'google', 'microsoft']);
    const other = await app.inject({ method: 'GET', url: '/1/api/1.0/visual-config' });
    expect(other.json().sign_in_providers).toEqual([]);
  });

  it.each(providers)(
    'signs the demo customer in through %s with PKCE, state and nonce',
    async (provider) => {
      const { res, location, cookie } = await start(provider);
      expect(res.statusCode).toBe(302);
      const auth = new URL(location);
      expect(auth.origin).toBe(issuers.issuerUrl(ports[provider] ?? 0));
      expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
      expect(auth.searchParams.get('nonce')).toBeTruthy();
      expect(auth.searchParams.get('redirect_uri')).toBe(`${canonical}/auth/${provider}/callback`);
      expect(auth.searchParams.get('response_mode')).toBe(
        provider === 'apple' ? 'form_post' : null,
      );

      const back = await loginThroughProvider(
        location,
        `${canonical}/auth/${provider}/callback`,
        demoEmail,
      );
      const done = await callback(provider, back, cookie);
      expect(done.statusCode).toBe(200);
      expect(done.json().user.email).toBe(demoEmail);
      expect(done.cookies.find((c) => c.name === 'refresh_token')?.maxAge).toBe(30 * 86400);

      // The identity is now linked by (issuer, subject).
      const linked = await db.withTenant('demo', (sql) =>
        sql.query('SELECT provider FROM customer_identities WHERE provider = $1', [provider]),
      );
      expect(linked).toHaveLength(1);
    },
  );

  it('tells a person with no customer account so', async () => {
    const { location, cookie } = await start('google');
    const back = await loginThroughProvider(
      location,
      `${canonical}/auth/google/callback`,
      'stranger@example.test',
    );
    const res = await callback('google', back, cookie);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      message: 'No customer account for this person',
      code: 'no_account',
    });
  });

  it('refuses a callback without the state cookie, with another state, or a replayed code', async () => {
    const { location, cookie } = await start('google');
    const back = await loginThroughProvider(
      location,
      `${canonical}/auth/google/callback`,
      demoEmail,
    );
    expect((await callback('google', back)).json()).toMatchObject({ code: 'sign_in_failed' });
    expect((await callback('google', { ...back, state: 'other' }, cookie)).statusCode).toBe(400);
    expect((await callback('microsoft', back, cookie)).statusCode).toBe(400);
    expect((await callback('google', back, `${cookie}x`)).statusCode).toBe(400);
    const ok = await callback('google', back, cookie);
    expect(ok.statusCode).toBe(200);
    expect((await callback('google', back, cookie)).statusCode).toBe(400);
  });

  it('sends the browser back to the login page for a provider the tenant has not configured', async () => {
    const res = await app.inject({ method: 'GET', url: '/1/api/1.0/auth/google/start' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('http://localhost:3000/login?signin_error=sign_in_failed');
  });

  it("turns Apple's form_post into a GET of the same page", async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/auth/apple/callback',
      payload: 'code=abc&state=xyz',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/auth/apple/callback?code=abc&state=xyz');
  });
});
