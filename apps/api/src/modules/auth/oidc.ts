import type { TSignInProvider } from '@portal/contract';
import type * as OpenId from 'openid-client';
import type { SqlQuery } from '../../db/database.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { createAuthRepository } from './repository.ts';

export type ProviderRow = {
  provider: TSignInProvider;
  issuer: string;
  client_id: string;
  client_secret: string;
};

export type OidcState = {
  provider: TSignInProvider;
  state: string;
  nonce: string;
  verifier: string;
  remember: boolean;
};

export type VerifiedPerson = {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
};

/** The tenant's configuration of `provider`, its client secret opened (sealed at rest). */
export async function findProvider(
  sql: SqlQuery,
  box: SecretBox,
  provider: string,
): Promise<ProviderRow | undefined> {
  const row = await createAuthRepository().findSignInProvider(sql, provider);
  if (!row) return undefined;
  const { tenant_id: tenantId, ...rest } = row;
  return {
    ...rest,
    client_secret: row.client_secret
      ? box.open(row.client_secret, { tenantId, field: 'oidc_client_secret' })
      : '',
  };
}

/**
 * OpenID Connect with openid-client: discovery (cached per issuer), the authorization
 * URL with PKCE (S256), state and nonce, and the code exchange that validates the ID token's
 * signature, issuer, audience and nonce. Microsoft must be configured with a tenant-specific
 * issuer (`https://login.microsoftonline.com/<tenant id>/v2.0`), which pins who may sign in.
 */
/** openid-client, read on the first external sign-in rather than at every start. */
let openIdClient: Promise<typeof OpenId> | undefined;
const loadClient = () => (openIdClient ??= import('openid-client'));

export function createOidc() {
  /**
   * What each issuer's discovery document says, cached per issuer. The client (its id and secret)
   * is built from the tenant's row at every call: tenants may share an issuer and a client id, each
   * with its own secret, and a secret the operator changes is used at the next sign-in.
   */
  const servers = new Map<string, Promise<OpenId.ServerMetadata>>();

  async function configuration(row: ProviderRow): Promise<OpenId.Configuration> {
    const client = await loadClient();
    const insecure = row.issuer.startsWith('http://');
    let server = servers.get(row.issuer);
    if (!server) {
      server = client
        .discovery(
          new URL(row.issuer),
          row.client_id,
          undefined,
          undefined,
          insecure ? { execute: [client.allowInsecureRequests] } : undefined,
        )
        .then((discovered) => discovered.serverMetadata());
      // A failed discovery (provider down) is not cached: the next sign-in tries again.
      const key = row.issuer;
      server.catch(() => servers.delete(key));
      servers.set(key, server);
    }
    const config = new client.Configuration(
      await server,
      row.client_id,
      row.client_secret || undefined,
    );
    if (insecure) client.allowInsecureRequests(config);
    return config;
  }

  return {
    async authorizationUrl(row: ProviderRow, redirectUri: string, remember: boolean) {
      const config = await configuration(row);
      const client = await loadClient();
      const verifier = client.randomPKCECodeVerifier();
      const state: OidcState = {
        provider: row.provider,
        state: client.randomState(),
        nonce: client.randomNonce(),
        verifier,
        remember,
      };
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        response_type: 'code',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state: state.state,
        nonce: state.nonce,
        // Apple returns to a POST (form_post); the server turns it into a GET of the same page.
        ...(row.provider === 'apple' ? { response_mode: 'form_post' } : {}),
      });
      return { url, state };
    },

    async exchange(
      row: ProviderRow,
      redirectUri: string,
      input: { code: string; state: string; iss?: string | undefined },
      saved: OidcState,
    ) {
      const config = await configuration(row);
      const client = await loadClient();
      const current = new URL(redirectUri);
      current.searchParams.set('code', input.code);
      current.searchParams.set('state', input.state);
      if (input.iss) current.searchParams.set('iss', input.iss);
      const tokens = await client.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: saved.verifier,
        expectedState: saved.state,
        expectedNonce: saved.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new Error('no ID token');
      // Some providers keep the e-mail out of the ID token: ask the UserInfo endpoint, which
      // openid-client checks answers for the same subject.
      type EmailClaims = { email?: unknown; email_verified?: unknown };
      let emailClaims: EmailClaims = { email: claims.email, email_verified: claims.email_verified };
      if (typeof claims.email !== 'string' && config.serverMetadata().userinfo_endpoint) {
        const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
        emailClaims = { email: info.email, email_verified: info.email_verified };
      }
      const verified = emailClaims.email_verified === true || emailClaims.email_verified === 'true';
      return {
        issuer: claims.iss,
        subject: claims.sub,
        email: typeof emailClaims.email === 'string' ? emailClaims.email : null,
        emailVerified: verified,
      } satisfies VerifiedPerson;
    },
  };
}
