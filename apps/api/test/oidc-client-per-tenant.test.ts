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

const demoCanonical = 'http://demo.localhost:3000';
const oneCanonical = 'http://localhost:3000';

/**
 * Until session 36 the OpenID client configuration was cached per `issuer|client_id` for the whole
 * process: not per tenant, and not per client secret. One tenant's client secret then
 * authenticated another tenant's code exchanges, and a secret the operator changed (`oidc set
 * --client-secret-*`) was not used until the API restarted. Only the discovery is cached now.
 */
describe.each(engines())(
  'the OpenID client of each tenant, with its own secret, on $name',
  (engine) => {
    let db: Database;
    let app: FastifyInstance;
    let issuers: Awaited<ReturnType<typeof startTestIssuers>>;
    let port = 0;

    beforeAll(async () => {
      db = await engine.open();
      port = await freePort();
      // One Google client (one client id) that both portals' redirect URIs are registered with, as an
      // operator running many portals would do; its only valid secret is `the-real-secret`.
      issuers = await startTestIssuers([
        {
          provider: 'google',
          port,
          clientId: 'portal-google',
          clientSecret: 'the-real-secret',
          redirectUris: [
            `${demoCanonical}/auth/google/callback`,
            `${oneCanonical}/auth/google/callback`,
          ],
        },
      ]);
      app = await buildTestApp(db, { PUBLIC_URL: 'http://localhost:3000' });
    });
    afterAll(async () => {
      await app.close();
      await db.close();
      await issuers.close();
    });

    const setProvider = (tenant: string, secret: string) =>
      db.withOwner((sql) =>
        sql.query(
          `INSERT INTO tenant_sign_in_providers (tenant_id, provider, issuer, client_id, client_secret)
         VALUES ($1, 'google', $2, 'portal-google', $3)
         ON CONFLICT (tenant_id, provider) DO UPDATE SET client_secret = EXCLUDED.client_secret`,
          [tenant, issuers.issuerUrl(port), secret],
        ),
      );

    /** A whole external sign-in on `tenant`: start, the provider's login, the callback. */
    async function externalSignIn(tenant: string, canonical: string) {
      const start = await app.inject({
        method: 'GET',
        url: `/${tenant}/api/1.0/auth/google/start`,
        remoteAddress: `10.77.${tenant === 'demo' ? 1 : 2}.${Math.floor(Math.random() * 250)}`,
      });
      expect(start.statusCode).toBe(302);
      const cookie = start.cookies.find((c) => c.name === 'oidc_state')?.value ?? '';
      expect(cookie).not.toBe('');
      const back = await loginThroughProvider(
        String(start.headers.location),
        `${canonical}/auth/google/callback`,
        demoEmail,
      );
      return app.inject({
        method: 'POST',
        url: `/${tenant}/api/1.0/auth/google/callback`,
        payload: back,
        cookies: { oidc_state: cookie },
      });
    }

    it("does not authenticate one tenant's code exchange with another tenant's client secret", async () => {
      await setProvider('demo', 'the-real-secret');
      // Tenant 1 is configured with the same client id but not with its secret.
      await setProvider('1', 'not-the-secret');

      const demo = await externalSignIn('demo', demoCanonical);
      expect(demo.statusCode, demo.body).toBe(200);

      // Tenant 1's exchange must be made with tenant 1's (wrong) secret, and fail.
      const one = await externalSignIn('1', oneCanonical);
      expect(one.json<{ access_token?: string }>().access_token, one.body).toBeUndefined();
      expect(one.statusCode, one.body).toBe(400);
    });

    it('uses a client secret the operator changed without a restart', async () => {
      // The operator had the wrong secret and fixes it: the next sign-in uses the new one.
      await db.withOwner((sql) => sql.query(`DELETE FROM tenant_sign_in_providers`));
      // A fresh app, so that the earlier test's cache plays no part.
      const fresh = await buildTestApp(db, { PUBLIC_URL: 'http://localhost:3000' });
      const previous = app;
      app = fresh;
      try {
        await setProvider('demo', 'an-old-secret');
        const before = await externalSignIn('demo', demoCanonical);
        expect(before.statusCode, before.body).toBe(400);

        await setProvider('demo', 'the-real-secret');
        const after = await externalSignIn('demo', demoCanonical);
        expect(after.statusCode, after.body).toBe(200);
      } finally {
        app = previous;
        await fresh.close();
      }
    });
  },
);
