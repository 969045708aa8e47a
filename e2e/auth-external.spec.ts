import { expect, type Page, test } from '@playwright/test';
import { startTestIssuers } from '../tools/test-oidc-provider.ts';
import { storedAuth } from './support/auth.ts';
import { oidcIssuers, signInProviders, type SignInProvider, tenants } from './support/env.ts';
import { authTexts as t, commonTexts } from './support/texts.ts';

/**
 * External sign-in end to end in Chromium: real OpenID Connect providers (oidc-provider) started
 * here play Google, Apple (form_post) and Microsoft for the server started by playwright.config.ts
 * (DEMO_SIGN_IN_PROVIDERS). Their development login page takes any login as the person's e-mail.
 */

test.use({ locale: 'es-ES' });
// The providers listen on fixed ports: one worker runs this whole group, in order.
test.describe.configure({ mode: 'default' });

const names: Record<SignInProvider, string> = {
  google: 'Google',
  apple: 'Apple',
  microsoft: 'Microsoft',
};

let issuers: Awaited<ReturnType<typeof startTestIssuers>>;

test.beforeAll(async () => {
  issuers = await startTestIssuers(
    signInProviders.map((provider) => ({
      provider,
      port: oidcIssuers[provider].port,
      clientId: oidcIssuers[provider].clientId,
      clientSecret: oidcIssuers[provider].clientSecret,
      redirectUris: Object.values(tenants).map(
        (tenant) => `${tenant.origin}/auth/${provider}/callback`,
      ),
    })),
  );
});

test.afterAll(async () => {
  await issuers.close();
});

/** Clicks the provider's button, signs in on its page as `login`, and consents. */
async function signInWith(page: Page, origin: string, provider: SignInProvider, login: string) {
  await page.goto(`${origin}/login`);
  await page
    .getByRole('link', { name: t.login.continueWith.replace('{{provider}}', names[provider]) })
    .click();
  await expect(page).toHaveURL(
    new RegExp(`^http://127\\.0\\.0\\.1:${oidcIssuers[provider].port}/`),
  );
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

for (const provider of signInProviders) {
  test(`signs in with ${names[provider]}`, async ({ page }) => {
    const origin = provider === 'microsoft' ? tenants.demo.origin : tenants.one.origin;
    await signInWith(page, origin, provider, 'cliente@demo.test');
    // The loader exchanges the code, then the home route and its texts load: under CI load this
    // takes more than the default 5 s.
    await expect(page).toHaveURL(`${origin}/home`, { timeout: 20_000 });
    const auth = await storedAuth(page);
    expect(auth.user?.email).toBe('cliente@demo.test');
    expect(auth.accessToken).toBeTruthy();
    // A real session: it survives a reload (which refreshes it through the cookie).
    await page.goto(`${origin}/mi-actividad`);
    await expect(page.getByRole('heading', { level: 1, name: t.activity.title })).toBeVisible();
  });
}

test('a person with no customer account is told so, with the way back', async ({ page }) => {
  const origin = tenants.one.origin;
  await signInWith(page, origin, 'google', 'nadie@example.test');
  await expect(page).toHaveURL(new RegExp(`^${origin}/auth/google/callback`));
  await expect(page.getByRole('heading', { level: 1, name: t.callback.failedTitle })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText(t.errors.noAccount);
  expect(await storedAuth(page)).toEqual({});
  await page.getByRole('link', { name: t.callback.backToLogin }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: commonTexts.login.title }),
  ).toBeVisible();
});

test('a failed sign-in sent back to /login says so', async ({ page }) => {
  await page.goto(`${tenants.one.origin}/login?signin_error=sign_in_failed`);
  await expect(page.getByRole('alert')).toHaveText(t.errors.signInFailed);
  // A return with no code (the person cancelled) fails the same way.
  await page.goto(`${tenants.one.origin}/auth/apple/callback?error=access_denied`);
  await expect(page.getByRole('alert')).toHaveText(t.errors.signInFailed);
});
