// page.evaluate callbacks run in the browser; the root tsconfig has no DOM types.
import { expect, type Locator, type Page } from '@playwright/test';
import { tenants } from './env.ts';
import { authTexts, commonTexts } from './texts.ts';

/** The demo customers (PRODUCT.md "Demo data"): the same password everywhere. */
export const demoPassword = 'Demo1234!';

export type Account = {
  tenant: { id: string; origin: string };
  email: string;
  password: string;
};

/**
 * Accounts spread over both tenants and both customers: sign-in is rate limited per account (10
 * attempts in 15 minutes), so each group of tests keeps to its own.
 */
export const accounts = {
  /** e2e/auth.spec.ts: the password sign-in journeys. */
  clienteOne: { tenant: tenants.one, email: 'cliente@demo.test', password: demoPassword },
  /** e2e/auth.spec.ts: session across restarts, reloads, and axe on the signed-in screens. */
  clienteDemo: { tenant: tenants.demo, email: 'cliente@demo.test', password: demoPassword },
  /** e2e/shell.spec.ts: the signed-in frame; sepa-mandate.spec.ts signs its bank account's mandate. */
  segundoDemo: { tenant: tenants.demo, email: 'segundo@demo.test', password: demoPassword },
  /** e2e/auth-recovery.spec.ts changes this one's password. */
  segundoOne: { tenant: tenants.one, email: 'segundo@demo.test', password: demoPassword },
} as const satisfies Record<string, Account>;

/** Fills and sends the login form at `origin + path` (which may redirect to /login). */
export async function signInWithForm(
  page: Page,
  account: Account,
  { remember = false, path = '/login' }: { remember?: boolean; path?: string } = {},
): Promise<void> {
  await page.goto(`${account.tenant.origin}${path}`);
  // A fresh browser context sent from a signed-in path loads the whole app before it lands on
  // /login (the session restore, then the redirect): more than 5 s on a loaded two-core runner.
  await expect(page.getByRole('heading', { level: 1, name: commonTexts.login.title })).toBeVisible({
    timeout: 15_000,
  });
  await page.getByLabel(authTexts.fields.email).fill(account.email);
  await page.getByLabel(authTexts.fields.password, { exact: true }).fill(account.password);
  if (remember) await page.getByLabel(authTexts.login.rememberMe).check();
  await page.getByRole('button', { name: authTexts.login.submit, exact: true }).click();
  await expect(page).not.toHaveURL(/\/login(\?|$)/);
  // The app the sign-in screen loads may restore the session with a refresh; a test navigating
  // before its answer aborted it and ended on /login once in CI. Wait until the page has settled,
  // as a person sees the page before going on.
  await page.waitForLoadState('networkidle');
}

/**
 * Signs in by calling `/login` from the page (so the browser keeps the session cookies, and
 * `demo.localhost` resolves) and storing the answer as the app does: faster than the form where
 * the form is not under test. The page is left on the tenant's /login; the next navigation
 * restores the session.
 */
export async function signInThroughApi(page: Page, account: Account): Promise<void> {
  const { origin, id } = account.tenant;
  await page.goto(`${origin}/login`);
  // /login is prerendered and the app starts after its first paint (docs/decisions/012): signing in
  // behind the back of an app still starting would race with its session restore.
  await expect(page.locator('#root')).not.toHaveAttribute('data-prerendered');
  // From the page, not from Node: the browser resolves *.localhost and keeps the refresh cookie.
  const status = await page.evaluate(
    async ({ url, email, password }) => {
      const response = await fetch(url, {
        method: 'POST',
        credentials: 'include',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ email, password, remember: false }),
      });
      if (response.ok) {
        const { access_token: accessToken, user } = (await response.json()) as {
          access_token: string;
          user: unknown;
        };
        localStorage.setItem('auth', JSON.stringify({ user, accessToken }));
      }
      return response.status;
    },
    { url: `/${id}/api/1.0/login`, email: account.email, password: account.password },
  );
  expect(status).toBe(200);
}

/** The stored auth state (spec §3), parsed. */
export async function storedAuth(
  page: Page,
): Promise<{ user?: { email: string }; accessToken?: string }> {
  const raw = await page.evaluate(() => localStorage.getItem('auth'));
  return raw ? (JSON.parse(raw) as { user?: { email: string }; accessToken?: string }) : {};
}

/** A password input by its label (a password input has no role, and a heading may share the text). */
export function passwordField(page: Page, label: string): Locator {
  return page.getByLabel(label, { exact: true }).and(page.locator('input'));
}
