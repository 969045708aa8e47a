/**
 * Ports and settings shared by playwright.config.ts (which starts the servers) and the tests (which
 * start what those servers talk to: a mail server and the OpenID providers).
 */
export const e2ePort = Number(process.env.E2E_PORT ?? 3100);

/**
 * A second server whose access tokens last 5 s, for the silent-refresh test only. Not 3101: the
 * main server's Redsys simulator listens on its port + 1.
 */
export const shortTokenPort = Number(process.env.E2E_SHORT_TOKEN_PORT ?? 3110);

/** The local SMTP server the recovery test starts; the main server sends its e-mail there. */
export const smtpPort = Number(process.env.E2E_SMTP_PORT ?? 3125);

export const signInProviders = ['google', 'apple', 'microsoft'] as const;
export type SignInProvider = (typeof signInProviders)[number];

/** First of the three ports of the local OpenID providers (Google, Apple, Microsoft). */
const oidcBasePort = Number(process.env.E2E_OIDC_BASE_PORT ?? 3191);

/** The local OpenID providers standing in for Google, Apple and Microsoft. */
export const oidcIssuers = {
  google: { port: oidcBasePort, clientId: 'portal-google', clientSecret: 'secret-google' },
  apple: { port: oidcBasePort + 1, clientId: 'portal-apple', clientSecret: 'secret-apple' },
  microsoft: {
    port: oidcBasePort + 2,
    clientId: 'portal-microsoft',
    clientSecret: 'secret-microsoft',
  },
} as const satisfies Record<
  SignInProvider,
  { port: number; clientId: string; clientSecret: string }
>;

export const issuerUrl = (provider: SignInProvider): string =>
  `http://127.0.0.1:${oidcIssuers[provider].port}`;

/** `DEMO_SIGN_IN_PROVIDERS` of the main server: both demo tenants offer the three providers. */
export const demoSignInProviders = JSON.stringify(
  Object.fromEntries(
    signInProviders.map((provider) => [
      provider,
      {
        issuer: issuerUrl(provider),
        client_id: oidcIssuers[provider].clientId,
        client_secret: oidcIssuers[provider].clientSecret,
      },
    ]),
  ),
);

/** The two demo tenants: `1` on localhost, `demo` on demo.localhost (Chromium resolves it). */
export const tenants = {
  one: { id: '1', origin: `http://localhost:${e2ePort}` },
  demo: { id: 'demo', origin: `http://demo.localhost:${e2ePort}` },
} as const;
