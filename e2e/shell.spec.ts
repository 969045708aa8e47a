// page.evaluate callbacks run in the browser; the root tsconfig has no DOM types.
import { readFileSync } from 'node:fs';
import { expectNoViolationsAnywhere } from './support/axe.ts';
import { expect, type Page, test } from '@playwright/test';
import { accounts, signInThroughApi } from './support/auth.ts';

/**
 * The web shell: tenant branding, languages, theme, routing of unknown paths, the signed-in
 * frame and accessibility, on the production build served by the API.
 */

type Texts = {
  app: { testModeBanner: string };
  nav: {
    openMenu: string;
    home: string;
    invoices: string;
    payments: string;
    myActivity: string;
    myUser: string;
    notifications: string;
  };
  menu: { language: string; darkMode: string; logout: string; close: string; company: string };
  company: { dialogTitle: string; hours: string };
  languageDialog: { accept: string };
  login: { title: string };
  errors: { notFound: { title: string }; accessDenied: { title: string } };
};

const languages = ['es', 'ca', 'en', 'eu'] as const;
type Language = (typeof languages)[number];
const languageNames: Record<Language, string> = {
  es: 'Español',
  ca: 'Català',
  en: 'English',
  eu: 'Euskara',
};
const texts = Object.fromEntries(
  languages.map((language) => [
    language,
    JSON.parse(
      readFileSync(
        new URL(`../apps/web/src/locales/${language}/common.json`, import.meta.url),
        'utf8',
      ),
    ) as Texts,
  ]),
) as Record<Language, Texts>;
const es = texts.es;

const port = Number(process.env.E2E_PORT ?? 3100);
const tenants = [
  { id: '1', origin: `http://localhost:${port}` },
  // Chromium resolves every *.localhost name to the loopback address.
  { id: 'demo', origin: `http://demo.localhost:${port}` },
] as const;

type VisualConfig = {
  logo_url: string | null;
  primary_color: string;
  company_name: string;
  description: string;
};

test.use({ locale: 'es-ES', colorScheme: 'light' });

async function openMenu(page: Page, t: Texts = es) {
  await page.getByRole('button', { name: t.nav.openMenu }).click();
  const menu = page.getByRole('dialog', { name: /./ }).filter({ has: page.getByRole('switch') });
  await expect(menu).toBeVisible();
  return menu;
}

test.describe('tenant branding', () => {
  test('each tenant shows its own name, logo and primary colour', async ({ page, request }) => {
    const configs: VisualConfig[] = [];
    for (const tenant of tenants) {
      // The tenant is in the path, so the API can be asked through plain localhost.
      const answer = await request.get(`/${tenant.id}/api/1.0/visual-config`);
      expect(answer.ok()).toBe(true);
      const config = (await answer.json()) as VisualConfig;
      configs.push(config);

      await page.goto(`${tenant.origin}/login`);
      const card = page.getByRole('main');
      await expect(card.getByText(config.company_name, { exact: true })).toBeVisible();
      await expect(card.getByText(config.description)).toBeVisible();
      await expect(page.getByRole('heading', { name: es.login.title })).toBeVisible();
      await expect(page).toHaveTitle(config.company_name);

      const logo = card.locator('img').first();
      if (config.logo_url) await expect(logo).toHaveAttribute('src', config.logo_url);
      await expect
        .poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
        .toBe(true);

      const expected = `#${config.primary_color.replace(/^#/, '')}`.toLowerCase();
      // The prerendered page brings it in a stylesheet, the app sets it on the root once it has
      // taken over: the computed value is the tenant's either way.
      await expect
        .poll(() =>
          page.evaluate(() =>
            getComputedStyle(document.documentElement).getPropertyValue('--primary-fill').trim(),
          ),
        )
        .toBe(expected);
      const button = await page.evaluate(() =>
        getComputedStyle(document.documentElement).getPropertyValue('--color-primary-500'),
      );
      expect(button).toMatch(/^#[0-9a-f]{6}$/);
    }
    // The demo data gives the two tenants different branding: the page really follows the host.
    expect(configs[0]?.company_name).not.toBe(configs[1]?.company_name);
    expect(configs[0]?.primary_color).not.toBe(configs[1]?.primary_color);
  });

  test('a logo that fails to load is replaced by the default logo', async ({ page }) => {
    await page.route(/\/api\/1\.0\/logo/, (route) => route.fulfill({ status: 404 }));
    await page.goto('/login');
    const logo = page.getByRole('main').locator('img').first();
    await expect(logo).toHaveAttribute('src', /default-logo/);
    await expect
      .poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
  });
});

test.describe('languages', () => {
  for (const language of ['ca', 'en', 'eu', 'es'] as const) {
    test(`switching to ${language} changes the texts and survives a reload`, async ({ page }) => {
      const start: Language = language === 'es' ? 'en' : 'es';
      if (start !== 'es') {
        await page.addInitScript(() => {
          if (!sessionStorage.getItem('seeded')) {
            localStorage.setItem('language', 'en');
            sessionStorage.setItem('seeded', '1');
          }
        });
      }
      const before = texts[start];
      const after = texts[language];
      await page.goto('/login');
      await expect(page.getByRole('heading', { name: before.login.title })).toBeVisible();

      const menu = await openMenu(page, before);
      await menu.getByRole('button', { name: new RegExp(before.menu.language) }).click();
      const dialog = page.getByRole('dialog').filter({ has: page.getByRole('radio') });
      await dialog.getByRole('radio', { name: languageNames[language] }).check();
      await dialog.getByRole('button', { name: before.languageDialog.accept }).click();
      await expect(dialog).toBeHidden();

      await expect(menu.getByRole('switch', { name: after.menu.darkMode })).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('heading', { name: after.login.title })).toBeVisible();

      await page.reload();
      await expect(page.getByRole('heading', { name: after.login.title })).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      expect(await page.evaluate(() => localStorage.getItem('language'))).toBe(language);
    });
  }
});

test('dark mode survives a reload', async ({ page }) => {
  await page.goto('/login');
  await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);
  const menu = await openMenu(page);
  const toggle = menu.getByRole('switch', { name: es.menu.darkMode });
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);

  await page.reload();
  await expect(page.getByRole('heading', { name: es.login.title })).toBeVisible();
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  const reopened = await openMenu(page);
  await expect(reopened.getByRole('switch', { name: es.menu.darkMode })).toHaveAttribute(
    'aria-checked',
    'true',
  );
});

test('the menu closes with Escape and gives focus back to its button', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/login');
  const button = page.getByRole('button', { name: es.nav.openMenu });
  const menu = await openMenu(page);
  // Every row of the menu is a touch target of at least 44 px on a phone (WCAG 2.5.5).
  const rows = menu.locator('a, button, [role="switch"]');
  expect(await rows.count()).toBeGreaterThan(5);
  const heights = await rows.evaluateAll((elements) =>
    elements.map((element) => [element.textContent, element.getBoundingClientRect().height]),
  );
  expect(heights.filter(([, height]) => Number(height) < 44)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(button).toBeFocused();
});

test('unknown paths and the root end at /login without a session', async ({ page }) => {
  for (const path of ['/', '/no-such-page', '/a/b/c?x=1', '/home']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: es.login.title })).toBeVisible();
  }
});

test('the error screens show their title and a way back home', async ({ page }) => {
  for (const [path, title] of [
    ['/error/general', 'Algo ha salido mal'],
    ['/error/not-found', 'Recurso no encontrado'],
    ['/error/access-denied', 'Acceso denegado'],
    ['/unauthorized', 'Acceso denegado'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Volver al inicio' })).toHaveAttribute(
      'href',
      '/home',
    );
  }
});

// A real session: at every page load the app restores it through the refresh cookie (spec §4).
const signedIn = accounts.segundoDemo;
const signedInOrigin = signedIn.tenant.origin;

test.describe('signed-in frame', () => {
  test.beforeEach(async ({ page }) => {
    await signInThroughApi(page, signedIn);
  });

  test('mobile shows the bottom bar, desktop the header links', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${signedInOrigin}/error/not-found`);
    const bar = page.getByRole('navigation', { name: 'Navegación principal' });
    await expect(bar.getByRole('link', { name: es.nav.home, exact: true })).toHaveAttribute(
      'href',
      '/home',
    );
    await expect(bar.getByRole('link', { name: es.nav.myActivity })).toHaveAttribute(
      'href',
      '/mi-actividad',
    );
    await expect(bar.getByRole('button', { name: /Calendario/ })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    await expect(bar.getByRole('link', { name: es.nav.myUser })).toHaveAttribute(
      'href',
      '/user-profile',
    );
    await expect(page.getByRole('link', { name: es.nav.notifications })).toHaveAttribute(
      'href',
      '/my-notifications',
    );

    await page.setViewportSize({ width: 1280, height: 800 });
    const header = page.getByRole('banner');
    await expect(header.getByRole('link', { name: es.nav.home, exact: true })).toBeVisible();
    await expect(header.getByRole('link', { name: es.nav.myActivity, exact: true })).toBeVisible();
    // The two main features one click away (finding #11).
    await expect(header.getByRole('link', { name: es.nav.invoices, exact: true })).toHaveAttribute(
      'href',
      '/invoices',
    );
    await expect(header.getByRole('link', { name: es.nav.payments, exact: true })).toHaveAttribute(
      'href',
      '/mis-pagos',
    );
    await expect(header.getByRole('link', { name: 'Mi perfil' })).toHaveAttribute(
      'href',
      '/user-profile',
    );
  });

  test('every screen, signed in or not, says the demo tenant is in test mode', async ({ page }) => {
    for (const path of ['/home', '/mi-actividad', '/error/not-found']) {
      await page.goto(`${signedInOrigin}${path}`);
      await expect(page.getByRole('banner').getByText(es.app.testModeBanner), path).toBeVisible();
    }
    await page.goto(`${signedInOrigin}/home`);
    const menu = await openMenu(page);
    await menu.getByRole('button', { name: es.menu.logout }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('banner').getByText(es.app.testModeBanner)).toBeVisible();
  });

  test('logout clears the session and goes to /login', async ({ page }) => {
    await page.goto(`${signedInOrigin}/error/general`);
    const menu = await openMenu(page);
    const logout = page.waitForRequest(
      (r) => r.url().endsWith(`/${signedIn.tenant.id}/api/1.0/logout`) && r.method() === 'POST',
    );
    await menu.getByRole('button', { name: es.menu.logout }).click();
    await logout;
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('auth'))).toBe('{}');
    await expect(page.getByRole('navigation', { name: 'Navegación principal' })).toHaveCount(0);
  });
});

test('the company dialog says how to reach the club: telephone, mailbox, website, hours (review #17)', async ({
  page,
}) => {
  // Tenant 1 (the demo tenant has no website); a customer whose password no test changes.
  const account = accounts.clienteOne;
  await signInThroughApi(page, account);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${account.tenant.origin}/home`);
  const menu = await openMenu(page);
  await menu.getByRole('button', { name: es.menu.company }).click();
  const dialog = page.getByRole('dialog', { name: es.company.dialogTitle });
  await expect(dialog.getByRole('link', { name: '+34 910 000 024' })).toHaveAttribute(
    'href',
    'tel:+34910000024',
  );
  await expect(dialog.getByRole('link', { name: 'secretaria@lasencinas.test' })).toHaveAttribute(
    'href',
    'mailto:secretaria@lasencinas.test',
  );
  const website = dialog.getByRole('link', { name: 'lasencinas.test', exact: true });
  await expect(website).toHaveAttribute('href', 'https://lasencinas.test/');
  await expect(website).toHaveAttribute('target', '_blank');
  await expect(dialog.getByText('L-V 7:00-22:30 · S-D 9:00-14:00')).toBeVisible();
  await expect(dialog.getByText(es.company.hours, { exact: true })).toBeVisible();
  await expectNoViolationsAnywhere(page, 'the company dialog');
});

test.describe('accessibility (axe), at 390x844 and 1280x800, light and dark', () => {
  for (const tenant of tenants) {
    test(`tenant ${tenant.id}: no violations on /login, its menu and not-found`, async ({
      page,
    }) => {
      await page.goto(`${tenant.origin}/login`);
      await expect(page.getByRole('heading', { name: es.login.title })).toBeVisible();
      await expectNoViolationsAnywhere(page, '/login');

      await openMenu(page);
      await page.waitForTimeout(250); // the slide-in transition
      await expectNoViolationsAnywhere(page, 'the menu');

      await page.goto(`${tenant.origin}/error/not-found`);
      await expect(page.getByRole('heading', { name: es.errors.notFound.title })).toBeVisible();
      await expectNoViolationsAnywhere(page, 'not-found');
    });
  }

  test('no violations in the signed-in frame and the language dialog', async ({ page }) => {
    await signInThroughApi(page, signedIn);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${signedInOrigin}/error/access-denied`);
    await expect(page.getByRole('heading', { name: es.errors.accessDenied.title })).toBeVisible();
    await expect(page.getByRole('link', { name: es.nav.myUser })).toBeVisible();
    await expectNoViolationsAnywhere(page, 'the signed-in frame');

    const menu = await openMenu(page);
    await menu.getByRole('button', { name: new RegExp(es.menu.language) }).click();
    await expect(page.getByRole('radio', { name: 'Euskara' })).toBeVisible();
    await expectNoViolationsAnywhere(page, 'the language dialog');
  });
});
