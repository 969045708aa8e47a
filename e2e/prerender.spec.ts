// page.evaluate callbacks run in the browser; the root tsconfig has no DOM types.
import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { accounts, storedAuth } from './support/auth.ts';
import { tenants } from './support/env.ts';
import { authTexts as t } from './support/texts.ts';

/**
 * The prerendered /login (issue 6, LCP): the server sends the screen already rendered in the
 * tenant's branding and the visitor's language; it is usable before any script runs, and the app
 * takes it over without losing what was typed or sent.
 */

const one = tenants.one.origin;
const demo = tenants.demo.origin;

const locale = (language: string, namespace: string) =>
  JSON.parse(
    readFileSync(
      new URL(`../apps/web/src/locales/${language}/${namespace}.json`, import.meta.url),
      'utf8',
    ),
  ) as { login: { title: string; submit: string }; app: { testModeBanner: string } };

/** Holds the app's scripts back until `release()`: what the visitor sees before they arrive. */
async function holdScripts(page: Page) {
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/.+\.js$/, async (route) => {
    await gate;
    await route.continue();
  });
  return release;
}

/**
 * Waits for the form to be React's: the /login entry's (apps/web/src/login/main.tsx), or the app's
 * when it took the page over (apps/web/src/main.tsx).
 */
async function takenOver(page: Page) {
  await expect(page.locator('#root')).not.toHaveAttribute('data-prerendered');
}

/** Content-Security-Policy refusals and script errors of a page. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

test.describe('prerendered /login', () => {
  test.use({ locale: 'en-US', colorScheme: 'dark' });

  test('says the tenant is in test mode in the page the server sends, before any script', async ({
    page,
    request,
  }) => {
    const banner = locale('en', 'common').app.testModeBanner;
    const sent = await request.get(`${one}/login`, { headers: { 'accept-language': 'en-US' } });
    expect(await sent.text()).toContain(banner);
    const release = await holdScripts(page);
    await page.goto(`${one}/login`, { waitUntil: 'commit' });
    await expect(page.getByRole('banner').getByText(banner)).toBeVisible();
    release();
    await takenOver(page);
    await expect(page.getByRole('banner').getByText(banner)).toBeVisible();
  });

  test("paints in the tenant's branding, the browser's language and theme before any script", async ({
    page,
    request,
  }) => {
    const errors = watchErrors(page);
    const visual = (await (await request.get(`${one}/1/api/1.0/visual-config`)).json()) as {
      company_name: string;
      primary_color: string;
    };
    const release = await holdScripts(page);
    await page.goto(`${one}/login`, { waitUntil: 'commit' });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      locale('en', 'common').login.title,
    );
    await expect(page).toHaveTitle(visual.company_name);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    const submit = page.getByRole('button', {
      name: locale('en', 'auth').login.submit,
      exact: true,
    });
    const before = await submit.evaluate((button) => getComputedStyle(button).backgroundColor);
    release();
    await takenOver(page);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    expect(await submit.evaluate((button) => getComputedStyle(button).backgroundColor)).toBe(
      before,
    );
    expect(errors).toEqual([]);
  });
});

test.describe('prerendered /login, taken over', () => {
  test.use({ locale: 'es-ES', colorScheme: 'light' });

  test('what was typed and sent before the app arrived signs in, never through the URL', async ({
    page,
  }) => {
    const errors = watchErrors(page);
    const urls: string[] = [];
    page.on('request', (request) => urls.push(request.url()));
    const release = await holdScripts(page);
    await page.goto(`${demo}/login`, { waitUntil: 'commit' });
    await page.getByLabel(t.fields.email).fill(accounts.clienteDemo.email);
    await page.getByLabel(t.fields.password, { exact: true }).fill(accounts.clienteDemo.password);
    await page.getByLabel(t.login.rememberMe).check();
    await page.getByLabel(t.fields.password, { exact: true }).press('Enter');
    // Held: the browser did not send the form itself.
    await expect(page).toHaveURL(`${demo}/login`);
    release();
    await expect(page).toHaveURL(`${demo}/home`);
    expect((await storedAuth(page)).accessToken).toBeTruthy();
    expect(urls.filter((url) => url.includes('password'))).toEqual([]);
    expect(errors).toEqual([]);
  });

  test('what was typed stays while the app takes over, focus included', async ({ page }) => {
    const release = await holdScripts(page);
    await page.goto(`${demo}/login`, { waitUntil: 'commit' });
    const email = page.getByLabel(t.fields.email);
    await email.fill('early@example.com');
    release();
    await takenOver(page);
    // The menu is the app's, which comes with the first press (docs/decisions/018).
    await page.getByRole('button', { name: 'Abrir menú' }).click();
    await expect(page.getByRole('dialog', { name: 'Menú' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog', { name: 'Menú' })).toBeHidden();
    await expect(email).toHaveValue('early@example.com');
    await email.focus();
    await page.keyboard.type('x');
    await expect(email).toHaveValue('early@example.comx');
    // The app's own validation runs on the typed value: only the password is missing.
    await page.getByRole('button', { name: t.login.submit, exact: true }).click();
    await expect(page.getByText(t.validation.required)).toHaveCount(1);
  });

  test('the form runs without the app, which comes only when the visitor goes further', async ({
    page,
  }) => {
    const errors = watchErrors(page);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(`${demo}/login`);
    await takenOver(page);
    await page.waitForLoadState('networkidle');
    // The /login entry and the page language's strings: no router, no i18next, no icons.
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.every((path) => path.startsWith('/assets/login-'))).toBe(true);
    await page.getByLabel(t.fields.email).fill('not-an-email');
    await page.getByRole('button', { name: t.login.submit, exact: true }).click();
    await expect(page.getByText(t.validation.invalidEmail)).toBeVisible();
    expect(scripts.every((path) => path.startsWith('/assets/login-'))).toBe(true);
    // Hydrated without a mismatch (React reports one as an error).
    expect(errors).toEqual([]);
  });

  test('the menu pressed before the app arrived opens once it has', async ({ page }) => {
    const release = await holdScripts(page);
    await page.goto(`${demo}/login`, { waitUntil: 'commit' });
    await page.getByRole('button', { name: 'Abrir menú' }).click();
    await expect(page.getByRole('dialog', { name: 'Menú' })).toBeHidden();
    release();
    await expect(page.getByRole('dialog', { name: 'Menú' })).toBeVisible();
  });

  test("a visitor whose chosen language is not the browser's never sees the other", async ({
    page,
  }) => {
    await page.addInitScript(() => window.localStorage.setItem('language', 'ca'));
    const release = await holdScripts(page);
    await page.goto(`${demo}/login`, { waitUntil: 'commit' });
    await expect(page.locator('html')).toHaveClass(/prerender-stale/);
    await expect(page.getByRole('heading', { level: 1 })).toBeHidden();
    release();
    await takenOver(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      locale('ca', 'common').login.title,
    );
    await expect(page.locator('html')).not.toHaveClass(/prerender-stale/);
  });
});
