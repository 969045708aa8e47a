import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { analyzeSettled } from './support/axe.ts';
import { expect, test, type Page } from '@playwright/test';
import { type Account, demoPassword, signInThroughApi } from './support/auth.ts';
import { tenants } from './support/env.ts';
import { allInvoices } from './support/invoices.ts';

/**
 * Issue 8: every route of spec §2, signed out and signed in, at 360 px and 1280 px, light and dark:
 * no axe violations, nothing wider than the screen (no horizontal scroll), and a full-page
 * screenshot of each in e2e/screenshots/ (git-ignored) to look at.
 */
// The product's own texts (spec): Spanish, whatever the machine's locale.
test.use({ locale: 'es-ES' });

const galleryDir = fileURLToPath(new URL('./screenshots/', import.meta.url));
mkdirSync(galleryDir, { recursive: true });

const variants = [
  { width: 360, height: 800, colorScheme: 'light' },
  { width: 360, height: 800, colorScheme: 'dark' },
  { width: 1280, height: 800, colorScheme: 'light' },
  { width: 1280, height: 800, colorScheme: 'dark' },
] as const;

/**
 * Read-only: the gallery changes nothing. Tenant `demo`'s second customer: nobody changes its
 * password (e2e/auth-recovery.spec.ts changes tenant 1's).
 */
const account: Account = {
  tenant: tenants.demo,
  email: 'segundo@demo.test',
  password: demoPassword,
};

type Screen = { name: string; path: string | ((page: Page) => Promise<string>) };

const publicScreens: Screen[] = [
  { name: 'login', path: '/login' },
  { name: 'recover-password', path: '/recover-password' },
  { name: 'privacy', path: '/privacidad' },
  { name: 'security', path: '/seguridad' },
  { name: 'cookies', path: '/cookies' },
  { name: 'unauthorized', path: '/unauthorized' },
  { name: 'error-general', path: '/error/general' },
  { name: 'error-not-found', path: '/error/not-found' },
  { name: 'error-access-denied', path: '/error/access-denied' },
];

/** The href of the first link of the screen at `path` whose address starts with `prefix`. */
const firstLink =
  (path: string, prefix: string) =>
  async (page: Page): Promise<string> => {
    await page.goto(`${account.tenant.origin}${path}`);
    const link = page.locator(`a[href^="${prefix}"]`).first();
    await expect(link).toBeVisible({ timeout: 15_000 });
    const href = await link.getAttribute('href');
    if (!href) throw new Error(`No link to ${prefix} on ${path}`);
    return href;
  };

/** The payment confirmation of the customer's newest invoice with something left to pay. */
async function checkinOfAnUnpaidInvoice(page: Page): Promise<string> {
  await page.goto(`${account.tenant.origin}/home`);
  const unpaid = (await allInvoices(page, tenants.demo)).find((i) => i.amount > 0);
  if (!unpaid) throw new Error('The demo customer has an unpaid invoice');
  return `/payment-checkin?invoiceId=${encodeURIComponent(unpaid.invoice_id)}&amount=${unpaid.amount.toFixed(2)}`;
}

const signedInScreens: Screen[] = [
  { name: 'home', path: '/home' },
  { name: 'my-activity', path: '/mi-actividad' },
  { name: 'user-profile', path: '/user-profile' },
  { name: 'invoices', path: '/invoices' },
  { name: 'invoice-detail', path: firstLink('/invoices', '/invoice-detail/') },
  { name: 'payments', path: '/mis-pagos' },
  { name: 'payment-checkin', path: checkinOfAnUnpaidInvoice },
  { name: 'payment-methods', path: '/metodos-de-pago' },
  { name: 'add-card', path: '/añadir-tarjeta' },
  { name: 'add-bank-account', path: '/add-bank-account' },
  { name: 'add-bank-transfer', path: '/add-bank-transfer' },
  { name: 'credit-card', path: firstLink('/metodos-de-pago', '/credit-card') },
  { name: 'bank-account', path: firstLink('/metodos-de-pago', '/bank-account') },
  { name: 'bank-data', path: '/datos-bancarios' },
  { name: 'notifications', path: '/my-notifications' },
  { name: 'contact', path: '/contacto' },
];

/** Waits until the screen has its heading and nothing is loading any more. */
async function settled(page: Page): Promise<void> {
  await expect(page.locator('h1').first()).toBeVisible({ timeout: 15_000 });
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 15_000 });
  // Fonts and images in place before the picture is taken.
  await page.evaluate(async () => {
    await document.fonts.ready;
  });
}

async function checkVariants(page: Page, name: string, url: string): Promise<void> {
  for (const variant of variants) {
    const label = `${name}-${variant.width}-${variant.colorScheme}`;
    await page.setViewportSize({ width: variant.width, height: variant.height });
    await page.emulateMedia({ colorScheme: variant.colorScheme });
    await page.goto(url);
    await settled(page);
    const overflow = await page.evaluate(() => {
      const root = document.scrollingElement ?? document.documentElement;
      return root.scrollWidth - root.clientWidth;
    });
    expect(overflow, `${label}: wider than the screen by ${overflow}px`).toBeLessThanOrEqual(0);
    const { violations } = await analyzeSettled(page);
    expect(
      violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(' ')) })),
      label,
    ).toEqual([]);
    await page.screenshot({ path: `${galleryDir}${label}.png`, fullPage: true });
  }
}

test.describe('gallery: signed out', () => {
  for (const screen of publicScreens) {
    test(`${screen.name}: no axe violations or overflow at 360 and 1280, light and dark`, async ({
      page,
    }) => {
      const path = typeof screen.path === 'string' ? screen.path : await screen.path(page);
      await checkVariants(page, screen.name, `${account.tenant.origin}${path}`);
    });
  }
});

test.describe('gallery: signed in', () => {
  for (const screen of signedInScreens) {
    test(`${screen.name}: no axe violations or overflow at 360 and 1280, light and dark`, async ({
      page,
    }) => {
      await signInThroughApi(page, account);
      const path = typeof screen.path === 'string' ? screen.path : await screen.path(page);
      await checkVariants(page, screen.name, `${account.tenant.origin}${path}`);
    });
  }
});
