import { expectNoViolationsAnywhere } from './support/axe.ts';
import type { Page } from '@playwright/test';
import { allInvoices, expect, fill, t, type Tenant, tenants, test } from './support/invoices.ts';

/**
 * No axe violations on home, the invoice list, an invoice detail and the payments list (with the
 * select-to-pay mode on), at 390x844 and 1280x800, light and dark, with each tenant's colour: each
 * screen loaded once and shown in place at each size and theme.
 */

/** Each screen as it stands, shown at every size and theme in place (support/axe.ts). */
const expectNoViolations = expectNoViolationsAnywhere;

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

  // A table from 1024 px, cards below (finding #10).
  const isDesktop = (page.viewportSize()?.width ?? 0) >= 1024;
  const listRole = isDesktop ? 'table' : 'list';
  await page.goto(`${tenant.origin}/invoices`);
  await expect(page.getByRole(listRole, { name: t.invoiceList.listLabel })).toBeVisible();
  await expectNoViolations(page, 'invoice list');

  await page.goto(`${tenant.origin}/invoice-detail/${invoiceId}`);
  await expect(
    page.getByRole('heading', { level: 1, name: fill(t.invoiceDetail.title, { id: invoiceId }) }),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: t.invoiceDetail.previous })).toBeVisible();
  await expectNoViolations(page, 'invoice detail');

  await page.goto(`${tenant.origin}/mis-pagos`);
  const list = page.getByRole(listRole, { name: t.payments.listLabel });
  await expect(list).toBeVisible();
  await page.getByRole('button', { name: t.payments.selectToPay }).click();
  await list.getByRole('checkbox').first().check();
  await expectNoViolations(page, 'payments, selecting');
}

// Both tenants: another primary colour is another contrast.
for (const tenant of [tenants.one, tenants.demo]) {
  test(`tenant ${tenant.id}: no violations on the invoice screens`, async ({ openAs }) => {
    test.slow();
    const page = await openAs(tenant);
    await page.goto(`${tenant.origin}/home`);
    // A partly paid invoice shows every part of the detail: lines, paid and unpaid instalments.
    const invoices = await allInvoices(page, tenant);
    const partial = invoices.find((i) => i.amount > 0 && i.amount < i.total) ?? invoices[0];
    if (!partial) throw new Error('The demo customer has invoices');
    await checkScreens(page, tenant, partial.invoice_id);
  });
}
