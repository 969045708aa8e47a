import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/modules/admin/api-keys.ts';
import { loginThroughProvider } from '../../../tools/oidc-http-login.ts';
import { startTestIssuers } from '../../../tools/test-oidc-provider.ts';
import { demoEmail, demoPassword } from '../src/db/seed/demo.ts';
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
 * Review (sign-in): an e-mail change unlinks the provider accounts linked by the old address
 * (`spendAfterEmailMoved`), "so that whoever keeps it is out", but the sessions that provider
 * account opened stay open (method `external`, 30 days with remember-me, refreshed for ever).
 * A removed passkey ends the sessions it opened; an unlinked provider account should too.
 */
describe.each(engines())(
  'sessions of a provider account unlinked by an e-mail change, on $name',
  (engine) => {
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

    it('ends the sessions the unlinked provider account opened when the e-mail moves away from it', async () => {
      // Whoever holds the old address's provider account (an ex-partner, a former employer's
      // Workspace) signed in with it: linked, and a 30-day session that refreshes for ever.
      const intruder = await signInWithGoogle(demoEmail);
      expect(intruder.statusCode, intruder.body).toBe(200);
      const intruderToken = intruder.json<{ access_token: string }>().access_token;

      // The owner moves the account to a new address; the provider account is unlinked
      // (spendAfterEmailMoved) "so that whoever keeps it is out".
      const me = await signedIn(app, 'demo');
      const asked = await post(
        '/user/email-change',
        { email: 'owner.moved@demo.test', current_password: demoPassword },
        me.token,
      );
      expect(asked.statusCode, asked.body).toBe(202);
      const mail = await env.smtp.waitFor('owner.moved@demo.test', 10_000, 'email-change');
      const token = /confirm-email\?token=([\w-]+)/.exec(mail.raw)?.[1] ?? '';
      const confirmed = await post('/user/email-change/confirm', { token });
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      expect((await signInWithGoogle(demoEmail)).statusCode).not.toBe(200);

      // The session that provider account opened must end with the link, as a removed passkey's
      // sessions do: otherwise its holder stays in, refreshing, for good.
      const still = await app.inject({
        method: 'GET',
        url: '/demo/api/1.0/sessions',
        headers: { authorization: `Bearer ${intruderToken}` },
      });
      expect(still.statusCode, 'session opened by the unlinked provider account').toBe(401);
      // The owner's own session (the one that asked) stays.
      const own = await app.inject({
        method: 'GET',
        url: '/demo/api/1.0/sessions',
        headers: { authorization: `Bearer ${me.token}` },
      });
      expect(own.statusCode).toBe(200);
    });

    it("ends them too when the provider's batch moves the customer to another address", async () => {
      const me = await signedIn(app, 'demo', 'owner.moved@demo.test');
      const intruder = await signInWithGoogle('owner.moved@demo.test');
      expect(intruder.statusCode, intruder.body).toBe(200);
      const intruderToken = intruder.json<{ access_token: string }>().access_token;
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
        headers: { authorization: `Bearer ${intruderToken}` },
      });
      expect(still.statusCode, 'session opened by the unlinked provider account').toBe(401);
    });
  },
);
