import { analyzeSettled } from './support/axe.ts';
import type { Page } from '@playwright/test';
import { allInvoices, expect, fill, t, type Tenant, tenants, test } from './support/invoices.ts';

/**
 * No axe violations on home, the invoice list, an invoice detail and the payments list (with the
 * select-to-pay mode on), at 390x844 and 1280x800, light and dark, with each tenant's colour.
 */

const viewports = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];

async function expectNoViolations(page: Page, where: string) {
  const { violations } = await analyzeSettled(page);
  expect(
    violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(' ')) })),
    where,
  ).toEqual([]);
}

async function checkScreens(page: Page, tenant: Tenant, invoiceId: string) {
  await page.goto(`${tenant.origin}/home`);
  await expect(page.getByRole('region', { name: t.home.stats.title })).toHaveAttribute(
    'aria-busy',
    'false',
  );
  await expect(
    page.getByRole('link', { name: new RegExp(t.home.shortcuts.lastPayment) }),
  ).toContainText('€');
  await expectNoViolations(page, 'home');

  await page.goto(`${tenant.origin}/invoices`);
  await expect(page.getByRole('list', { name: t.invoiceList.listLabel })).toBeVisible();
  await expectNoViolations(page, 'invoice list');

  await page.goto(`${tenant.origin}/invoice-detail/${invoiceId}`);
  await expect(
    page.getByRole('heading', { level: 1, name: fill(t.invoiceDetail.title, { id: invoiceId }) }),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: t.invoiceDetail.previous })).toBeVisible();
  await expectNoViolations(page, 'invoice detail');

  await page.goto(`${tenant.origin}/mis-pagos`);
  const list = page.getByRole('list', { name: t.payments.listLabel });
  await expect(list).toBeVisible();
  await page.getByRole('button', { name: t.payments.selectToPay }).click();
  await list.getByRole('checkbox').first().check();
  await expectNoViolations(page, 'payments, selecting');
}

/**
 * Tenant `1` at both sizes in both themes; tenant `demo` (another primary colour) once per theme,
 * the phone layout in light and the desktop one in dark, to keep the run short.
 */
const runs = [
  { tenant: tenants.one, colorScheme: 'light', sizes: viewports },
  { tenant: tenants.one, colorScheme: 'dark', sizes: viewports },
  { tenant: tenants.demo, colorScheme: 'light', sizes: viewports.slice(0, 1) },
  { tenant: tenants.demo, colorScheme: 'dark', sizes: viewports.slice(1) },
] as const;

for (const { tenant, colorScheme, sizes } of runs) {
  const names = sizes.map((v) => `${v.width}x${v.height}`).join(' and ');
  test(`tenant ${tenant.id}, ${colorScheme}, ${names}: no violations on the invoice screens`, async ({
    openAs,
  }) => {
    test.slow();
    const page = await openAs(tenant);
    await page.emulateMedia({ colorScheme });
    await page.goto(`${tenant.origin}/home`);
    // A partly paid invoice shows every part of the detail: lines, paid and unpaid instalments.
    const invoices = await allInvoices(page, tenant);
    const partial = invoices.find((i) => i.amount > 0 && i.amount < i.total) ?? invoices[0];
    if (!partial) throw new Error('The demo customer has invoices');
    for (const viewport of sizes) {
      await page.setViewportSize(viewport);
      await checkScreens(page, tenant, partial.invoice_id);
    }
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(
      colorScheme === 'dark',
    );
  });
}
