// page.evaluate callbacks run in the browser; the root tsconfig has no DOM types.
import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import {
  accessToken,
  expect,
  fill,
  literal,
  t,
  type Tenant,
  tenants,
  test,
} from './support/invoices.ts';

/**
 * "What you owe leads" (issue 21, PRODUCT.md "Screens"): the balance hero on home and Mis pagos
 * with one "Pagar" that reaches the checkout for exactly what the server chose, overdue in red on
 * the lists, the desktop tables, the not-found screen of a signed-in customer and the 404 of a
 * tenant that does not exist. Nothing here pays: the checkout is only reached.
 */

const checkinTitle = (
  JSON.parse(
    readFileSync(new URL('../apps/web/src/locales/es/checkout.json', import.meta.url), 'utf8'),
  ) as { checkin: { title: string } }
).checkin.title;
const notFoundTitle = (
  JSON.parse(
    readFileSync(new URL('../apps/web/src/locales/es/common.json', import.meta.url), 'utf8'),
  ) as { errors: { notFound: { title: string } } }
).errors.notFound.title;

type Balance = {
  outstanding: number;
  overdue: number;
  overdue_count: number;
  pay: { scope: string; amount: number; payment_ids: string[] };
};

/** What the server says the signed-in customer owes now. */
async function balanceOf(page: Page, tenant: Tenant): Promise<Balance> {
  const token = await accessToken(page);
  return page.evaluate(
    async ({ path, token }) => {
      const answer = await fetch(path, { headers: { Authorization: `Bearer ${token}` } });
      return (await answer.json()) as Balance;
    },
    { path: `/${tenant.id}/api/1.0/balance`, token },
  );
}

/**
 * Whether an element's text is red: its colour (oklch in Tailwind 4) painted on a canvas pixel
 * and read back as RGB.
 */
async function isRed(element: Locator): Promise<boolean> {
  const [r, g, b] = await element.evaluate((el) => {
    const canvas = document.createElement('canvas');
    canvas.width = 1;
    canvas.height = 1;
    const context = canvas.getContext('2d');
    if (!context) return [0, 0, 0];
    context.fillStyle = getComputedStyle(el).color;
    context.fillRect(0, 0, 1, 1);
    return [...context.getImageData(0, 0, 1, 1).data];
  });
  return (r ?? 0) > (g ?? 0) + 40 && (r ?? 0) > (b ?? 0) + 40;
}

const euros = (amount: number) =>
  new Intl.NumberFormat('es-ES', { style: 'currency', currency: 'EUR' }).format(amount);

test('home opens with what is owed, and its one Pagar reaches the checkout for exactly that', async ({
  openAs,
}) => {
  const tenant = tenants.demo;
  const page = await openAs(tenant);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${tenant.origin}/home`);
  const balance = await balanceOf(page, tenant);
  // The demo customer of tenant demo keeps two overdue instalments (payments-checkout.spec.ts).
  expect(balance.overdue_count).toBeGreaterThanOrEqual(2);
  expect(balance.pay.scope).toBe('overdue');

  const hero = page.getByRole('region', { name: t.balance.title });
  await expect(hero.getByText(euros(balance.outstanding), { exact: true })).toBeVisible();
  await expect(
    hero.getByText(
      fill(t.balance.overdue_other, {
        amount: euros(balance.overdue),
        count: balance.overdue_count,
      }),
    ),
  ).toBeVisible();
  // On a phone the hero's Pagar is on the first screen, before anything else.
  const pay = hero.getByRole('link', {
    name: fill(t.balance.pay, { amount: euros(balance.pay.amount) }),
  });
  await expect(pay).toBeInViewport();
  // Above the previous month's summary, which stays below.
  const heroBox = await hero.boundingBox();
  const statsBox = await page.getByRole('region', { name: t.home.stats.title }).boundingBox();
  expect(heroBox && statsBox && heroBox.y < statsBox.y).toBe(true);

  await pay.click();
  await expect(page).toHaveURL(/\/payment-checkin\?/);
  const url = new URL(page.url());
  expect(url.searchParams.get('payments')?.split(',').sort()).toEqual(
    [...balance.pay.payment_ids].sort(),
  );
  await expect(page.getByRole('heading', { level: 1, name: checkinTitle })).toBeVisible();

  // Mis pagos opens with the same hero.
  await page.goto(`${tenant.origin}/mis-pagos`);
  await expect(
    page
      .getByRole('region', { name: t.balance.title })
      .getByRole('link', { name: fill(t.balance.pay, { amount: euros(balance.pay.amount) }) }),
  ).toBeVisible();
});

test('at 1280 px the lists are tables; overdue is red on both, with a Pagar per row', async ({
  openAs,
}) => {
  const tenant = tenants.demo;
  const page = await openAs(tenant);
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.goto(`${tenant.origin}/invoices?pending=1`);
  const invoices = page.getByRole('table', { name: t.invoiceList.listLabel });
  await expect(invoices.getByRole('columnheader')).toHaveText([
    t.invoiceList.date,
    t.invoiceList.number,
    t.invoiceList.amount,
    t.invoiceList.status,
    t.invoiceList.actions,
  ]);
  // An invoice with an overdue instalment says so (it used to be an amber "Pendiente").
  const overdueInvoice = invoices
    .locator('tbody')
    .getByRole('row')
    .filter({ has: page.getByText(t.invoiceStatus.overdue, { exact: true }) })
    .first();
  await expect(overdueInvoice).toBeVisible();
  const badge = overdueInvoice.getByText(t.invoiceStatus.overdue, { exact: true });
  expect(await isRed(badge)).toBe(true);
  await expect(
    overdueInvoice.getByRole('link', { name: new RegExp(`^${literal(t.invoiceList.pay)} `) }),
  ).toHaveAttribute('href', /^\/payment-checkin\?invoiceId=/);
  await expect(overdueInvoice.getByRole('button', { name: /PDF/ })).toBeVisible();

  await page.goto(`${tenant.origin}/mis-pagos?overdue=1`);
  const payments = page.getByRole('table', { name: t.payments.listLabel });
  const row = payments.locator('tbody').getByRole('row').first();
  const overdue = row.getByText(t.paymentStatus.overdue, { exact: true });
  await expect(overdue).toBeVisible();
  expect(await isRed(overdue)).toBe(true);
  await expect(
    row.getByRole('link', { name: new RegExp(`^${literal(t.payments.pay)} `) }),
  ).toHaveAttribute('href', /^\/payment-checkin\?payments=[^,&]+&amount=\d+\.\d\d$/);
});

test('signed in, a mistyped path is not-found, not the last screen visited', async ({ openAs }) => {
  const tenant = tenants.one;
  const page = await openAs(tenant);
  await page.goto(`${tenant.origin}/privacidad`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect
    .poll(() => page.evaluate(() => localStorage.getItem('lastPath')))
    .toBe('/privacidad');
  await page.goto(`${tenant.origin}/facturass`);
  await expect(page.getByRole('heading', { level: 1, name: notFoundTitle })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/facturass');
  expect(await page.evaluate(() => localStorage.getItem('lastPath'))).toBe('/privacidad');
});

test("an unknown tenant's host is a translated 404 page, not a sign-in form", async ({
  browser,
}) => {
  const port = new URL(tenants.one.origin).port;
  const context = await browser.newContext({ locale: 'eu-ES' });
  try {
    const page = await context.newPage();
    const answer = await page.goto(`http://nope.localhost:${port}/login`);
    expect(answer?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: 'Atari hau ez dago' })).toBeVisible();
    await expect(page.getByRole('textbox')).toHaveCount(0);
  } finally {
    await context.close();
  }
});
