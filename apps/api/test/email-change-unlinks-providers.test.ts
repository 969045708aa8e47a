import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginThroughProvider } from '../../../tools/oidc-http-login.ts';
import { startTestIssuers } from '../../../tools/test-oidc-provider.ts';
import { demoEmail, demoPassword } from '../src/db/seed/demo.ts';
import { createApiKey } from '../src/modules/admin/api-keys.ts';
import { engines } from './engines.ts';
import { openMailingApp, type MailingApp } from './mailing-app.ts';
import { signedIn } from './session.ts';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Session 34's accounts review: an external identity (Google, say) is linked on first use because
 * its provider vouched for the customer's e-mail; it proves that mailbox and nothing more. When the
 * owner moves the account away from that address, the reset and sign-in links mailed to it stop
 * working ("whoever still reads that mailbox is who the owner may be moving away from",
 * service.ts `confirmEmailChange`), but the provider account of that same address keeps signing
 * in, with no code and no password. Failed on the code it was written against.
 */
describe.each(engines())('an identity linked by the old address, on $name', (engine) => {
  let env: MailingApp;
  let app: FastifyInstance;
  let issuers: Awaited<ReturnType<typeof startTestIssuers>>;
  let canonical = '';
  let ip = 0;
  const nextIp = () => `10.65.${Math.floor(++ip / 250)}.${ip % 250}`;

  beforeAll(async () => {
    env = await openMailingApp(engine);
    app = env.app;
    const [tenant] = await env.db.withOwner((sql) =>
      sql.query<{ canonical_url: string }>("SELECT canonical_url FROM tenants WHERE id = 'demo'"),
    );
    canonical = (tenant?.canonical_url ?? '').replace(/\/$/, '');
    const port = await freePort();
    issuers = await startTestIssuers([
      {
        provider: 'google',
        port,
        clientId: 'portal-google',
        clientSecret: 'secret-google',
        redirectUris: [`${canonical}/auth/google/callback`],
      },
    ]);
    await env.db.withOwner((sql) =>
      sql.query(
        `INSERT INTO tenant_sign_in_providers (tenant_id, provider, issuer, client_id, client_secret)
         VALUES ('demo', 'google', $1, 'portal-google', 'secret-google')`,
        [issuers.issuerUrl(port)],
      ),
    );
  });
  afterAll(async () => {
    await env.close();
    await issuers.close();
  });

  /** A whole external sign-in as the provider's account `login`. */
  async function signInWithGoogle(login: string) {
    const start = await app.inject({ method: 'GET', url: '/demo/api/1.0/auth/google/start' });
    const cookie = start.cookies.find((c) => c.name === 'oidc_state')?.value ?? '';
    const back = await loginThroughProvider(
      String(start.headers.location),
      `${canonical}/auth/google/callback`,
      login,
    );
    return app.inject({
      method: 'POST',
      url: '/demo/api/1.0/auth/google/callback',
      payload: back,
      cookies: { oidc_state: cookie },
      remoteAddress: nextIp(),
    });
  }
  const post = (url: string, payload: object, token?: string) =>
    app.inject({
      method: 'POST',
      url: `/demo/api/1.0${url}`,
      payload,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      remoteAddress: nextIp(),
    });

  it('no longer signs in the provider account of the old address once the owner moved the account to a new one', async () => {
    // 1. Once, the customer signed in with the (work) Google account of their address: linked.
    const first = await signInWithGoogle(demoEmail);
    expect(first.statusCode, first.body).toBe(200);

    // 2. The owner moves the account to a new address, with the password, and confirms it.
    const me = await signedIn(app, 'demo');
    const asked = await post(
      '/user/email-change',
      { email: 'owner.private@demo.test', current_password: demoPassword },
      me.token,
    );
    expect(asked.statusCode, asked.body).toBe(202);
    const mail = await env.smtp.waitFor('owner.private@demo.test', 10_000, 'email-change');
    const token = /confirm-email\?token=([\w-]+)/.exec(mail.raw)?.[1] ?? '';
    const confirmed = await post('/user/email-change/confirm', { token });
    expect(confirmed.statusCode, confirmed.body).toBe(200);

    // 3. Whoever keeps the old address's provider account (the former employer's Workspace, an
    //    ex-partner) must be out, like the old mailbox's links.
    const later = await signInWithGoogle(demoEmail);
    expect(
      later.statusCode,
      `the old address's provider account after the e-mail change: ${later.body.slice(0, 200)}`,
    ).not.toBe(200);

    // 4. And the session it opened in step 1 ends with the link, on every instance (session 38:
    //    it kept working, its refresh token renewing it for up to 30 days); the owner's stays.
    const sessionOf = (accessToken: string) =>
      app.inject({
        method: 'GET',
        url: '/demo/api/1.0/sessions',
        headers: { authorization: `Bearer ${accessToken}` },
      });
    const intruder = first.json<{ access_token: string }>().access_token;
    expect((await sessionOf(intruder)).statusCode, "the unlinked account's session").toBe(401);
    expect((await sessionOf(me.token)).statusCode).toBe(200);
  });

  it("ends the provider account's sessions when the provider's batch moves the address (session 38)", async () => {
    const address = 'owner.private@demo.test';
    const me = await signedIn(app, 'demo', address);
    const intruder = await signInWithGoogle(address);
    expect(intruder.statusCode, intruder.body).toBe(200);
    const { key } = await env.db.withTenant('demo', (sql) => createApiKey(sql, 'move'));
    const moved = await app.inject({
      method: 'PUT',
      url: '/demo/api/1.0/admin/customers',
      headers: { authorization: `Bearer ${key}` },
      payload: {
        customers: [{ code: me.user.code, email: 'moved.by.provider@demo.test', name: 'Laura' }],
      },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const still = await app.inject({
      method: 'GET',
      url: '/demo/api/1.0/sessions',
      headers: {
        authorization: `Bearer ${intruder.json<{ access_token: string }>().access_token}`,
      },
    });
    expect(still.statusCode, 'session opened by the unlinked provider account').toBe(401);
  });
});
