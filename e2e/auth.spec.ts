// page.evaluate callbacks run in the browser; the root tsconfig has no DOM types.
import { expectNoViolationsAnywhere } from './support/axe.ts';
import { type Browser, expect, type Page, test } from '@playwright/test';
import {
  accounts,
  passwordField,
  signInThroughApi,
  signInWithForm,
  storedAuth,
} from './support/auth.ts';
import { tenants } from './support/env.ts';
import { authTexts as t, commonTexts } from './support/texts.ts';

/**
 * Accounts and sessions in Chromium (spec §2, §4, §5, §6, §8): sign-in, the session across reloads
 * and browser restarts, the last visited path, logout, the guards, and axe on every screen.
 */

test.use({ locale: 'es-ES', colorScheme: 'light' });

const one = tenants.one.origin;
const demo = tenants.demo.origin;

test.describe('password sign-in', () => {
  test('signs in and lands on /home with the user and token stored', async ({ page }) => {
    await signInWithForm(page, accounts.clienteOne);
    await expect(page).toHaveURL(`${one}/home`);
    const auth = await storedAuth(page);
    expect(auth.user?.email).toBe('cliente@demo.test');
    expect(auth.accessToken).toBeTruthy();
    // The signed-in frame: the header's profile link (desktop).
    await expect(page.getByRole('banner').getByRole('link', { name: 'Mi perfil' })).toBeVisible();
  });

  test('a wrong password shows "Credenciales inválidas" on both fields', async ({ page }) => {
    await page.goto(`${one}/login`);
    await page.getByLabel(t.fields.email).fill(accounts.clienteOne.email);
    await page.getByLabel(t.fields.password, { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: t.login.submit, exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText(t.errors.invalidCredentials);
    await expect(page.getByLabel(t.fields.email)).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel(t.fields.password, { exact: true })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    await expect(page).toHaveURL(`${one}/login`);
    expect(await storedAuth(page)).toEqual({});
  });

  test('empty fields are caught before any call, focus on the first one', async ({ page }) => {
    let calls = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/1.0/login')) calls++;
    });
    await page.goto(`${one}/login`);
    await page.getByRole('button', { name: t.login.submit, exact: true }).click();
    await expect(page.getByText(t.validation.required)).toHaveCount(2);
    await expect(page.getByLabel(t.fields.email)).toBeFocused();
    expect(calls).toBe(0);
  });

  test('comes back to the screen it was sent away from, after signing in', async ({ page }) => {
    // Sent from the profile to /login, which remembers the profile (with its query).
    await signInWithForm(page, accounts.clienteOne, { path: '/user-profile?tab=1' });
    await expect(page).toHaveURL(`${one}/user-profile?tab=1`);
    await expect(page.getByRole('region', { name: t.profile.sections.fiscal })).toBeVisible();
  });

  test('logout revokes the session and clears everything', async ({ page }) => {
    await signInWithForm(page, accounts.clienteOne, { path: '/mi-actividad' });
    await expect(page.getByRole('heading', { level: 1, name: t.activity.title })).toBeVisible();
    await page.getByRole('button', { name: commonTexts.nav.openMenu }).click();
    const logout = page.waitForRequest((r) => r.url().endsWith('/1/api/1.0/logout'));
    await page.getByRole('button', { name: commonTexts.menu.logout }).click();
    const request = await logout;
    expect(request.method()).toBe('POST');
    expect(await request.headerValue('x-xsrf-token')).toBeTruthy();
    expect((await request.response())?.status()).toBe(200);
    await expect(page).toHaveURL(`${one}/login`);
    expect(await storedAuth(page)).toEqual({});
    expect(await page.evaluate(() => localStorage.getItem('lastPath'))).toBeNull();
    // Revoked on the server: the session cookie cannot bring it back.
    await page.goto(`${one}/user-profile`);
    await expect(page).toHaveURL(`${one}/login`);
  });
});

test.describe('guards', () => {
  test('/metodos-de-pago without a session asks to sign in (finding #15), then comes back', async ({
    page,
  }) => {
    await page.goto(`${one}/metodos-de-pago`);
    await expect(page).toHaveURL(`${one}/login`);
    expect(await page.evaluate(() => localStorage.getItem('lastPath'))).toBe('/metodos-de-pago');
  });

  test('signed-in screens without a session go to /login', async ({ page }) => {
    for (const path of ['/user-profile', '/mi-actividad', '/home']) {
      await page.goto(`${one}${path}`);
      await expect(page).toHaveURL(`${one}/login`);
    }
  });

  test('the reset screen without token or e-mail goes to /login', async ({ page }) => {
    await page.goto(`${one}/reset-password?token=abc`);
    await expect(page).toHaveURL(`${one}/login`);
    await page.goto(`${one}/reset-password?email=cliente%40demo.test`);
    await expect(page).toHaveURL(`${one}/login`);
  });
});

test.describe('the session across reloads and restarts', () => {
  /** Closes the browser "window" and opens a new one: session cookies (expires -1) are gone. */
  async function restart(browser: Browser, page: Page) {
    const state = await page.context().storageState();
    await page.context().close();
    const context = await browser.newContext({
      locale: 'es-ES',
      storageState: { ...state, cookies: state.cookies.filter((c) => c.expires !== -1) },
    });
    return context.newPage();
  }

  test('remember me off: after a restart the customer signs in again', async ({ browser }) => {
    const page = await (await browser.newContext({ locale: 'es-ES' })).newPage();
    await signInWithForm(page, accounts.clienteDemo, { path: '/mi-actividad' });
    await expect(page).toHaveURL(`${demo}/mi-actividad`);
    const again = await restart(browser, page);
    await again.goto(`${demo}/mi-actividad`);
    await expect(again).toHaveURL(`${demo}/login`);
    expect(await storedAuth(again)).toEqual({});
    await again.context().close();
  });

  test('remember me on: after a restart the customer is still signed in', async ({ browser }) => {
    const page = await (await browser.newContext({ locale: 'es-ES' })).newPage();
    await signInWithForm(page, accounts.clienteDemo, { remember: true, path: '/mi-actividad' });
    await expect(page).toHaveURL(`${demo}/mi-actividad`);
    const again = await restart(browser, page);
    await again.goto(`${demo}/user-profile`);
    await expect(again.getByRole('region', { name: t.profile.sections.fiscal })).toBeVisible();
    await expect(again).toHaveURL(`${demo}/user-profile`);
    await again.context().close();
  });

  test('a reload on a deep link stays there', async ({ page }) => {
    await signInThroughApi(page, accounts.clienteDemo);
    await page.goto(`${demo}/user-profile`);
    await expect(page.getByRole('region', { name: t.profile.sections.fiscal })).toBeVisible();
    // The reload restores the session through the refresh cookie (spec §4), then stays.
    const refreshed = page.waitForResponse((r) => r.url().endsWith('/demo/api/1.0/refresh-token'));
    await page.reload();
    expect((await refreshed).status()).toBe(200);
    await expect(page).toHaveURL(`${demo}/user-profile`);
    await expect(page.getByRole('region', { name: t.profile.sections.contact })).toBeVisible();
    expect((await storedAuth(page)).accessToken).toBeTruthy();
  });
});

test.describe('accessibility (axe), at 390x844 and 1280x800, light and dark', () => {
  const checkAxe = expectNoViolationsAnywhere;

  test('login, recovery and reset: no violations', async ({ page }) => {
    await page.goto(`${demo}/login`);
    await expect(page.getByRole('link', { name: /Google/ })).toBeVisible();
    await checkAxe(page, 'login');
    await page.getByRole('button', { name: t.login.submit, exact: true }).click();
    await expect(page.getByText(t.validation.required).first()).toBeVisible();
    await checkAxe(page, 'login with errors');

    await page.goto(`${demo}/recover-password`);
    await expect(page.getByRole('heading', { level: 1, name: t.recovery.title })).toBeVisible();
    await checkAxe(page, 'recovery');

    await page.goto(`${demo}/reset-password?token=abc&email=cliente%40demo.test`);
    await expect(page.getByRole('heading', { level: 1, name: t.reset.title })).toBeVisible();
    await passwordField(page, t.fields.newPassword).fill('1234');
    await page.getByRole('button', { name: t.reset.submit }).click();
    await expect(page.getByText(t.validation.required)).toBeVisible();
    await checkAxe(page, 'reset with errors');
  });

  test('profile and my activity: no violations', async ({ page }) => {
    await signInThroughApi(page, accounts.clienteDemo);
    await page.goto(`${demo}/user-profile`);
    await expect(page.getByRole('region', { name: t.profile.sections.billing })).toBeVisible();
    await checkAxe(page, 'profile');

    await page.getByRole('link', { name: commonTexts.nav.myActivity }).first().click();
    await expect(page.getByRole('heading', { level: 1, name: t.activity.title })).toBeVisible();
    await checkAxe(page, 'my activity');
  });
});
