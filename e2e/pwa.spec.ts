// page.evaluate callbacks run in the browser; the root tsconfig has no DOM types.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect as baseExpect, type Page, test } from '@playwright/test';
import { accounts, signInThroughApi } from './support/auth.ts';
import { authTexts, commonTexts } from './support/texts.ts';
import { tenants } from './support/env.ts';

/**
 * The installable portal: a manifest per tenant (its name and colour), a service worker that keeps
 * the app shell so the portal opens offline, and never keeps an API answer.
 */

const expect = baseExpect.configure({ timeout: 15_000 });

type Manifest = {
  name: string;
  short_name: string;
  theme_color: string;
  start_url: string;
  display: string;
  icons: { src: string; sizes: string; purpose: string }[];
};

test.use({ locale: 'es-ES', colorScheme: 'light' });

/** Every URL held in Cache Storage, by cache name. */
async function cachedUrls(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate(async () => {
    const all: Record<string, string[]> = {};
    for (const name of await caches.keys()) {
      all[name] = (await (await caches.open(name)).keys()).map((request) => request.url);
    }
    return all;
  });
}

/** Waits until the service worker controls the page and holds every asset the page loaded. */
async function waitForShellCached(page: Page) {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const loaded = performance
          .getEntriesByType('resource')
          .map((entry) => entry.name)
          .filter((url) => new URL(url).pathname.startsWith('/assets/'));
        const missing: string[] = [];
        for (const url of loaded) if (!(await caches.match(url))) missing.push(url);
        return missing;
      }),
    )
    .toEqual([]);
}

for (const tenant of [tenants.one, tenants.demo]) {
  test(`tenant ${tenant.id}: the manifest carries its name and primary colour`, async ({
    page,
  }) => {
    await page.goto(`${tenant.origin}/login`);
    await expect(
      page.getByRole('heading', { level: 1, name: commonTexts.login.title }),
    ).toBeVisible();
    // From the page: the browser resolves demo.localhost and sends its Host.
    const { config, manifest, href } = await page.evaluate(async (path) => {
      const link = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
      const [config, manifest] = await Promise.all([
        fetch(path).then(
          (r) => r.json() as Promise<{ company_name: string; primary_color: string }>,
        ),
        fetch(link?.href ?? '').then((r) => r.json() as Promise<Manifest>),
      ]);
      return { config, manifest, href: link?.getAttribute('href') };
    }, `/${tenant.id}/api/1.0/visual-config`);
    expect(href).toBe('/manifest.webmanifest');
    expect(manifest.name).toBe(config.company_name);
    expect(manifest.short_name).toBe(config.company_name);
    expect(manifest.theme_color.toLowerCase()).toBe(
      `#${config.primary_color.replace(/^#/, '')}`.toLowerCase(),
    );
    expect(manifest).toMatchObject({ start_url: '/', display: 'standalone' });

    // Every icon it lists is served as a PNG.
    for (const icon of manifest.icons) {
      const answer = await page.request.get(`${tenants.one.origin}${icon.src}`);
      expect(answer.status(), icon.src).toBe(200);
      expect(answer.headers()['content-type']).toBe('image/png');
    }
    expect(manifest.icons.some((icon) => icon.purpose === 'maskable')).toBe(true);
  });
}

test('the browser reads both manifests and finds the portal installable', async ({
  playwright,
}, testInfo) => {
  // Chromium reports installability only outside incognito: a persistent profile, thrown away after.
  const profile = mkdtempSync(join(tmpdir(), 'portal-pwa-'));
  const context = await playwright.chromium.launchPersistentContext(profile, {
    ...testInfo.project.use.launchOptions,
    locale: 'es-ES',
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const names: string[] = [];
    for (const tenant of [tenants.one, tenants.demo]) {
      await page.goto(`${tenant.origin}/login`);
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      const cdp = await context.newCDPSession(page);
      const manifest = await cdp.send('Page.getAppManifest');
      expect(manifest.errors, tenant.id).toEqual([]);
      names.push((JSON.parse(manifest.data ?? '{}') as Manifest).name);
      await expect
        .poll(async () => (await cdp.send('Page.getInstallabilityErrors')).installabilityErrors)
        .toEqual([]);
      await cdp.detach();
    }
    expect(names[0]).not.toBe(names[1]);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

test('the service worker registers, and after a reload offline the app shell still opens', async ({
  page,
  context,
}) => {
  await page.goto(`${tenants.one.origin}/login`);
  await expect(
    page.getByRole('heading', { level: 1, name: commonTexts.login.title }),
  ).toBeVisible();
  const scriptUrl = await page.evaluate(
    async () => (await navigator.serviceWorker.ready).active?.scriptURL,
  );
  expect(scriptUrl).toBe(`${tenants.one.origin}/sw.js`);
  await waitForShellCached(page);
  const names = Object.keys(await cachedUrls(page));
  expect(names).toHaveLength(1);
  expect(names[0]).toMatch(/^portal-shell-[0-9a-f]{16}$/);

  // API calls pass the worker untouched: the worker controls the page, and the page's own request
  // is answered by the network, never by the worker (FetchEvent.respondWith). Checked on the
  // answer, not by routing one with page.route: once, in a full run under load, the real answer
  // reached the page past a route that was set (not root-caused).
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  const [apiAnswer, status] = await Promise.all([
    page.waitForResponse((response) => response.url().endsWith('/1/api/1.0/visual-config')),
    page.evaluate(() => fetch('/1/api/1.0/visual-config').then((r) => r.status)),
  ]);
  expect(status).toBe(200);
  expect(apiAnswer.fromServiceWorker()).toBe(false);

  await context.setOffline(true);
  try {
    // Really offline: the API cannot be reached.
    expect(
      await page.evaluate(() =>
        fetch('/1/api/1.0/visual-config').then(
          () => 'online',
          () => 'offline',
        ),
      ),
    ).toBe('offline');
    const answer = await page.reload();
    expect(answer?.fromServiceWorker()).toBe(true);
    await expect(
      page.getByRole('heading', { level: 1, name: commonTexts.login.title }),
    ).toBeVisible();
    await expect(page.getByLabel(authTexts.fields.email)).toBeEditable();
  } finally {
    await context.setOffline(false);
  }
});

test('no API answer ever lands in Cache Storage, signed in and browsing', async ({ page }) => {
  const account = accounts.clienteOne;
  await signInThroughApi(page, account);
  // The worker registers on /login's load. Navigating before it is in control races its
  // clients.claim(): a navigation that started before activation makes a page no worker claims
  // until the next one (a flake seen under load). Wait for control here, then browse.
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await page.goto(`${account.tenant.origin}/home`);
  await waitForShellCached(page);
  // Screens that call the API with the access token, now through the service worker.
  const apiCalls: string[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.includes('/api/')) apiCalls.push(response.url());
  });
  for (const path of ['/invoices', '/mis-pagos', '/user-profile', '/privacidad', '/home']) {
    await page.goto(`${account.tenant.origin}${path}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
  }
  expect(apiCalls.length).toBeGreaterThan(0);

  const cached = Object.values(await cachedUrls(page)).flat();
  expect(cached.length).toBeGreaterThan(0);
  expect(cached.filter((url) => /\/api\//.test(new URL(url).pathname))).toEqual([]);
  expect(cached.every((url) => new URL(url).origin === account.tenant.origin)).toBe(true);
  expect(cached.map((url) => new URL(url).pathname)).toContain('/index.html');
});
