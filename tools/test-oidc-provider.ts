import type { Server } from 'node:http';
import Provider from 'oidc-provider';

export type TestIssuer = {
  provider: 'google' | 'apple' | 'microsoft';
  port: number;
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
};

/**
 * Real OpenID Connect providers (the `oidc-provider` package) on localhost, one per external
 * sign-in the portal offers. Its development login page accepts any login: the login typed is the
 * person's subject and e-mail, with the e-mail verified.
 */
export async function startTestIssuers(issuers: TestIssuer[]) {
  const servers: Server[] = [];
  for (const issuer of issuers) {
    const oidc = new Provider(`http://127.0.0.1:${issuer.port}`, {
      clients: [
        {
          client_id: issuer.clientId,
          client_secret: issuer.clientSecret,
          redirect_uris: issuer.redirectUris,
          response_types: ['code'],
          grant_types: ['authorization_code'],
          token_endpoint_auth_method: 'client_secret_basic',
        },
      ],
      claims: { openid: ['sub'], email: ['email', 'email_verified'] },
      scopes: ['openid', 'email', 'profile'],
      findAccount: async (_ctx, id) => ({
        accountId: id,
        claims: async () => ({ sub: `${issuer.provider}-${id}`, email: id, email_verified: true }),
      }),
      features: { devInteractions: { enabled: true } },
      cookies: { keys: [`test-${issuer.provider}`] },
      pkce: { required: () => true },
    });
    const server = oidc.listen(issuer.port, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    servers.push(server);
  }
  return {
    issuerUrl: (port: number) => `http://127.0.0.1:${port}`,
    close: () =>
      Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())))),
  };
}
