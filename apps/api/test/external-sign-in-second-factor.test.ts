import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginThroughProvider } from '../../../tools/oidc-http-login.ts';
import { startTestIssuers } from '../../../tools/test-oidc-provider.ts';
import type { Database } from '../src/db/database.ts';
import { demoEmail, demoPassword } from '../src/db/seed/demo.ts';
import { buildTestApp, engines } from './engines.ts';
import { signedIn } from './session.ts';

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
 * A customer with the second factor on: a provider account for their (verified) address proves
 * control of the mailbox, as a reset or sign-in link does, and those still ask for the code. So
 * the first external sign-in neither opens the account nor links the provider account without it
 * (session 33's review: it did both).
 */
describe.each(engines())('external first use and the second factor on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let issuers: Awaited<ReturnType<typeof startTestIssuers>>;
  let port = 0;

  beforeAll(async () => {
    db = await engine.open();
    port = await freePort();
    issuers = await startTestIssuers([
      {
        provider: 'google',
        port,
        clientId: 'portal-google',
        clientSecret: 'secret-google',
        redirectUris: [`${canonical}/auth/google/callback`],
      },
    ]);
    await db.withOwner((sql) =>
      sql.query(
        `INSERT INTO tenant_sign_in_providers (tenant_id, provider, issuer, client_id, client_secret)
         VALUES ('demo', 'google', $1, 'portal-google', 'secret-google')`,
        [issuers.issuerUrl(port)],
      ),
    );
    app = await buildTestApp(db, { PUBLIC_URL: 'http://localhost:3000' });
  });
  afterAll(async () => {
    await app.close();
    await db.close();
    await issuers.close();
  });

  it('asks the code (or refuses) when an external account is linked to a 2FA customer by e-mail', async () => {
    // The owner turns the second factor on from the profile.
    const me = await signedIn(app, 'demo');
    const setup = await me.post('/second-factor/setup', { current_password: demoPassword });
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret } = setup.json<{ secret: string }>();
    const confirm = await me.post('/second-factor/confirm', { code: await generate({ secret }) });
    expect(confirm.statusCode, confirm.body).toBe(200);
    // The password alone now opens nothing.
    const pw = await app.inject({
      method: 'POST',
      url: '/demo/api/1.0/login',
      payload: { email: demoEmail, password: 'Demo1234!' },
      remoteAddress: '10.66.1.1',
    });
    expect(pw.json()).toMatchObject({ second_factor: 'code' });

    // Someone with the mailbox made a provider account for the same (verified) address.
    const start = await app.inject({ method: 'GET', url: '/demo/api/1.0/auth/google/start' });
    const cookie = start.cookies.find((c) => c.name === 'oidc_state')?.value ?? '';
    const back = await loginThroughProvider(
      String(start.headers.location),
      `${canonical}/auth/google/callback`,
      demoEmail,
    );
    const res = await app.inject({
      method: 'POST',
      url: '/demo/api/1.0/auth/google/callback',
      payload: back,
      cookies: { oidc_state: cookie },
    });
    // Expected: no session without the code (a challenge, or a refusal to link by e-mail).
    expect(res.json<{ access_token?: string }>().access_token, res.body).toBeUndefined();
    expect(res.cookies.map((c) => c.name)).not.toContain('refresh_token');
  });
});
