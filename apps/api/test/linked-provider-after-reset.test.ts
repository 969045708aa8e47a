import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginThroughProvider } from '../../../tools/oidc-http-login.ts';
import { startTestIssuers } from '../../../tools/test-oidc-provider.ts';
import { secondEmail } from '../src/db/seed/demo.ts';
import { engines } from './engines.ts';
import { openMailingApp, type MailingApp } from './mailing-app.ts';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const canonical = 'http://demo.localhost:3000';

/**
 * Accounts review (session 35): a provider account linked by someone who once read the mailbox
 * outlives everything the owner does to take the account back.
 *
 * Scenario: someone who had the customer's mailbox for a while (a reused mailbox password, a
 * forwarding rule) makes a Google/Apple/Microsoft account for that address (the provider proves
 * the address with a code sent to it) and signs in to the portal with it once: the first use links
 * it to the customer (`linkIdentity`). The owner notices, takes the mailbox back, resets the portal
 * password from the recovery page (every session ends, every passkey goes) and turns the second
 * factor on, exactly so that "a mailbox alone does not get past" it.
 *
 * Today: the provider account stays linked (only an e-mail change unlinks: `spendAfterEmailMoved`),
 * a linked provider account is never asked for the code (`signInExternal` checks the second factor
 * only on first use by e-mail), and the customer cannot see or remove it. The intruder signs in
 * with it again, past the new password and the second factor, for good.
 *
 * Should: a password reset removes the provider accounts linked to the customer (as the e-mail
 * change does: `repository.spendAfterEmailMoved`'s DELETE of customer_identities, in
 * `resetPassword`'s transaction), so that one linked by the mailbox's intruder is linked again only
 * by the owner; or a linked provider account created before the second factor was turned on is
 * asked for the code (or refused, as on first use).
 */
describe.each(engines())('a provider account linked by a mailbox intruder, on $name', (engine) => {
  let env: MailingApp;
  let app: FastifyInstance;
  let issuers: Awaited<ReturnType<typeof startTestIssuers>>;
  let ip = 0;
  const nextIp = () => `10.133.${Math.floor(++ip / 250)}.${ip % 250}`;

  beforeAll(async () => {
    env = await openMailingApp(engine);
    app = env.app;
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

  const post = (url: string, payload: object, token?: string) =>
    app.inject({
      method: 'POST',
      url: `/demo/api/1.0${url}`,
      payload,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      remoteAddress: nextIp(),
    });
  /** A sign-in with the provider account whose (verified) address is `email`. */
  const withGoogle = async (email: string) => {
    const start = await app.inject({ method: 'GET', url: '/demo/api/1.0/auth/google/start' });
    const cookie = start.cookies.find((c) => c.name === 'oidc_state')?.value ?? '';
    const back = await loginThroughProvider(
      String(start.headers.location),
      `${canonical}/auth/google/callback`,
      email,
    );
    return app.inject({
      method: 'POST',
      url: '/demo/api/1.0/auth/google/callback',
      payload: back,
      cookies: { oidc_state: cookie },
      remoteAddress: nextIp(),
    });
  };

  it("keeps out the intruder's provider account once the owner reset the password and turned the second factor on", async () => {
    // 1. The intruder, with the mailbox, signs in with a provider account for the address: linked.
    const first = await withGoogle(secondEmail);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toHaveProperty('access_token');

    // 2. The owner takes the account back: a reset from the recovery page...
    expect((await post('/forgot-password', { email: secondEmail })).statusCode).toBe(202);
    const mail = await env.smtp.waitFor(secondEmail, 10_000, undefined, 'reset-password');
    const token = /reset-password\?token=([\w-]+)/.exec(mail.raw)?.[1] ?? '';
    const password = 'Owner-Mailbox-Back-2026';
    const reset = await post('/reset-password', {
      token,
      email: secondEmail,
      password,
      password_confirmation: password,
    });
    expect(reset.statusCode, reset.body).toBe(200);
    // ...and the second factor, so that the mailbox alone opens nothing from now on.
    const signIn = await post('/login', { email: secondEmail, password });
    const owner = signIn.json<{ access_token: string }>().access_token;
    const setup = await post('/second-factor/setup', { current_password: password }, owner);
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret } = setup.json<{ secret: string }>();
    const on = await post('/second-factor/confirm', { code: await generate({ secret }) }, owner);
    expect(on.statusCode, on.body).toBe(200);
    // The password alone opens nothing now.
    expect((await post('/login', { email: secondEmail, password })).json()).toMatchObject({
      second_factor: 'code',
    });

    // 3. The intruder comes back with the same provider account.
    const again = await withGoogle(secondEmail);
    expect(
      again.json<{ access_token?: string }>().access_token,
      `the intruder's provider account signed in past the reset and the second factor: ${again.statusCode} ${again.body}`,
    ).toBeUndefined();
  });
});
