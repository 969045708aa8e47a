import { readFile } from 'node:fs/promises';
import {
  allInvoices,
  expect,
  fill,
  formatEuros,
  headOf,
  literal,
  parseEuros,
  t,
  tenants,
  test,
} from './support/invoices.ts';

/**
 * The invoices issue in the browser: home, the invoice list, the invoice detail with its PDF and
 * print view, and the payments list with select-to-pay, against the real server and demo data.
 */

const statusTexts = (...keys: (keyof typeof t.invoiceStatus)[]) =>
  keys.map((key) => t.invoiceStatus[key]);

test('home -> last invoice -> previous / next -> PDF download', async ({ openAs }) => {
  const tenant = tenants.one;
  const page = await openAs(tenant);
  const invoices = await (async () => {
    await page.goto(`${tenant.origin}/home`);
    return allInvoices(page, tenant);
  })();
  const [last, previous] = invoices;
  if (!last || !previous) throw new Error('The demo customer has invoices');

  await expect(
    page.getByRole('heading', {
      level: 1,
      name: fill(t.home.greeting, { name: 'Laura García Martín' }),
    }),
  ).toBeVisible();
  // The two figures of the previous month, loaded (no skeleton left, no dashes).
  const stats = page.getByRole('region', { name: t.home.stats.title });
  await expect(stats).toHaveAttribute('aria-busy', 'false');
  await expect(stats.getByText(/^\d+$/)).toBeVisible();
  await expect(stats.getByText(/€$/)).toBeVisible();

  const shortcut = page.getByRole('link', {
    name: new RegExp(literal(t.home.shortcuts.lastInvoice)),
  });
  await expect(shortcut).toContainText(last.invoice_id);
  await shortcut.click();
  await expect(page).toHaveURL(new RegExp(`/invoice-detail/${literal(last.invoice_id)}$`));
  const title = (id: string) =>
    page.getByRole('heading', { level: 1, name: fill(t.invoiceDetail.title, { id }) });
  await expect(title(last.invoice_id)).toBeVisible();

  // The newest invoice has no next one; the previous one is the one before it by date.
  const nav = page.getByRole('navigation', { name: t.invoiceDetail.navigation });
  await expect(nav.getByRole('link', { name: t.invoiceDetail.previous })).toBeVisible();
  await expect(nav.getByRole('link', { name: t.invoiceDetail.next })).toHaveCount(0);
  await nav.getByRole('link', { name: t.invoiceDetail.previous }).click();
  await expect(title(previous.invoice_id)).toBeVisible();
  await nav.getByRole('link', { name: t.invoiceDetail.next }).click();
  await expect(title(last.invoice_id)).toBeVisible();

  // Download PDF: a signed, same-origin link that streams application/pdf.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: t.invoiceDetail.options.download }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`${last.invoice_id}.pdf`);
  expect(new URL(download.url()).pathname).toMatch(
    new RegExp(`^/${tenant.id}/api/1\\.0/invoice/pdf/`),
  );
  const file = await readFile(await download.path());
  expect(file.subarray(0, 5).toString()).toBe('%PDF-');
  expect(await headOf(page, download.url())).toEqual({ status: 200, type: 'application/pdf' });

  // Print: the invoice only, without the app's header, menu bar or the options.
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('banner')).toBeHidden();
  await expect(nav).toBeHidden();
  await expect(page.getByRole('button', { name: t.invoiceDetail.options.print })).toBeHidden();
  await expect(title(last.invoice_id)).toBeVisible();
  await page.emulateMedia({ media: 'screen' });
});

test('invoice list: paid and pending filters, view more, clear filters', async ({ openAs }) => {
  const tenant = tenants.one;
  const page = await openAs(tenant);
  await page.goto(`${tenant.origin}/invoices`);
  // At 1280 px the list is a table: one row per invoice under the header row.
  const list = page.getByRole('table', { name: t.invoiceList.listLabel });
  const cards = list.locator('tbody').getByRole('row');
  await expect(cards).toHaveCount(20);

  await page.getByRole('button', { name: t.common.viewMore }).click();
  await expect(cards.nth(20)).toBeVisible();
  expect(await cards.count()).toBeGreaterThanOrEqual(21);

  const badges = list
    .locator('tbody td')
    .getByText(new RegExp(`^(${Object.values(t.invoiceStatus).map(literal).join('|')})$`));

  await page.getByRole('switch', { name: t.invoiceList.paid }).click();
  await expect(page).toHaveURL(/\?paid=1$/);
  await expect(cards.first()).toBeVisible();
  await expect(list.getByText(t.invoiceStatus.pending, { exact: true })).toHaveCount(0);
  expect(new Set(await badges.allTextContents())).toEqual(new Set(statusTexts('paid')));

  await page.getByRole('switch', { name: t.invoiceList.paid }).click();
  await page.getByRole('switch', { name: t.invoiceList.pending }).click();
  await expect(page).toHaveURL(/\?pending=1$/);
  await expect(cards.first()).toBeVisible();
  await expect(list.getByText(t.invoiceStatus.paid, { exact: true })).toHaveCount(0);
  // The filtered page has arrived (while it loads the table has no badge at all).
  await expect(badges.first()).toBeVisible();
  const pending = await badges.allTextContents();
  expect(pending.length).toBeGreaterThan(0);
  for (const status of pending) {
    expect(statusTexts('pending', 'partiallyPaid', 'overdue')).toContain(status);
  }

  await page.getByRole('button', { name: t.common.clearFilters }).click();
  await expect(page).toHaveURL(/\/invoices$/);
  await expect(page.getByRole('switch', { name: t.invoiceList.pending })).toHaveAttribute(
    'aria-checked',
    'false',
  );
  await expect(list.getByText(t.invoiceStatus.paid, { exact: true }).first()).toBeVisible();

  // /facturas is the same screen (spec §2).
  await page.goto(`${tenant.origin}/facturas?pending=1`);
  await expect(page.getByRole('switch', { name: t.invoiceList.pending })).toHaveAttribute(
    'aria-checked',
    'true',
  );
  await expect(list.getByText(t.invoiceStatus.paid, { exact: true })).toHaveCount(0);
});

test('payments: only overdue, then select two and go to pay', async ({ openAs }) => {
  const tenant = tenants.demo;
  const page = await openAs(tenant);
  await page.goto(`${tenant.origin}/mis-pagos`);
  const list = page.getByRole('table', { name: t.payments.listLabel });
  await expect(list.locator('tbody').getByRole('row').first()).toBeVisible();

  await page.getByRole('switch', { name: t.payments.onlyOverdue }).click();
  await expect(page).toHaveURL(/\?overdue=1$/);
  await expect(list.getByText(t.paymentStatus.paid, { exact: true })).toHaveCount(0);
  const items = list.locator('tbody').getByRole('row');
  await expect(items.first()).toContainText(t.paymentStatus.overdue);
  const count = await items.count();
  expect(count).toBeGreaterThanOrEqual(2);
  await expect(list.getByText(t.paymentStatus.overdue, { exact: true })).toHaveCount(count);

  await page.getByRole('button', { name: t.payments.selectToPay }).click();
  const boxes = list.getByRole('checkbox');
  await expect(boxes).toHaveCount(count);
  const chosen = [boxes.nth(0), boxes.nth(1)];
  let cents = 0;
  for (const box of chosen) {
    await box.check();
    cents += parseEuros((await box.getAttribute('aria-label')) ?? '');
  }
  const summary = page.locator('[aria-live="polite"]').filter({
    hasText: fill(t.payments.selected_other, { count: 2 }),
  });
  await expect(summary).toContainText(fill(t.payments.total, { amount: formatEuros(cents) }));

  const navigations: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) navigations.push(frame.url());
  });
  const pay = page.getByRole('link', { name: t.payments.paySelected });
  const href = new URL((await pay.getAttribute('href')) ?? '', tenant.origin);
  expect(href.pathname).toBe('/payment-checkin');
  expect(href.searchParams.get('payments')?.split(',')).toHaveLength(2);
  expect(href.searchParams.get('amount')).toBe((cents / 100).toFixed(2));
  await pay.click();
  // The payment screen comes with a later issue; the hand-over is the address.
  await expect.poll(() => navigations.some((url) => url.includes('/payment-checkin?'))).toBe(true);

  // Leaving the selection mode clears it.
  await page.goto(`${tenant.origin}/mis-pagos?overdue=1`);
  await page.getByRole('button', { name: t.payments.selectToPay }).click();
  await list.getByRole('checkbox').first().check();
  await page.getByRole('button', { name: t.payments.cancelSelection }).click();
  await expect(list.getByRole('checkbox')).toHaveCount(0);
  await page.getByRole('button', { name: t.payments.selectToPay }).click();
  await expect(page.getByText(fill(t.payments.selected_other, { count: 0 }))).toBeVisible();
});

test('an invoice of another customer shows the not-found state', async ({ openAs }) => {
  const tenant = tenants.one;
  const page = await openAs(tenant);
  await page.goto(`${tenant.origin}/home`);
  // The demo data numbers a tenant's invoices month by month, this customer's first and then the
  // other customer's: the number after this customer's newest invoice is the other one's.
  const own = (await allInvoices(page, tenant)).map((i) => i.invoice_id);
  const [prefix = '', number = '0'] = (own[0] ?? '').split('-');
  const foreign = `${prefix}-${String(Number(number) + 1).padStart(number.length, '0')}`;
  expect(own).not.toContain(foreign);

  await page.goto(`${tenant.origin}/invoice-detail/${foreign}`);
  await expect(
    page.getByRole('heading', { level: 1, name: t.invoiceDetail.loadError.notFoundTitle }),
  ).toBeVisible();
  await expect(page.getByText(t.invoiceDetail.loadError.notFound)).toBeVisible();
  await expect(page.getByRole('link', { name: t.common.backToHome })).toHaveAttribute(
    'href',
    '/home',
  );
  await expect(page.getByText(foreign)).toHaveCount(0);
});

test('the calendar speaks the chosen language and picks a date with the keyboard', async ({
  openAs,
}) => {
  const tenant = tenants.demo;
  const page = await openAs(tenant);
  await page.goto(`${tenant.origin}/invoices`);
  const from = page.getByLabel(t.common.dateFrom, { exact: true });
  await from.fill('2026-03-15');
  await page.getByRole('button', { name: new RegExp(`: ${literal(t.common.dateFrom)}$`) }).click();
  const dialog = page.getByRole('dialog', { name: t.common.dateFrom });
  // Spanish first (the app's default language), Monday first.
  await expect(dialog.getByRole('grid', { name: 'marzo 2026' })).toBeVisible();
  await expect(dialog.getByRole('columnheader').first()).toHaveText('lu');
  await expect(dialog.getByRole('button', { name: 'domingo, 15 de marzo de 2026' })).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('PageDown');
  await expect(dialog.getByRole('grid', { name: 'abril 2026' })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(from).toHaveValue('16/04/2026');

  // In Basque, whatever the browser's own language. The context is shared by this worker's
  // tests: the language goes back to Spanish whatever happens.
  try {
    await page.evaluate(() => localStorage.setItem('language', 'eu'));
    await page.reload();
    await page
      .getByRole('button', { name: /^Ireki egutegia/ })
      .first()
      .click();
    await expect(page.getByRole('dialog').getByRole('columnheader').first()).toHaveText('al');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();
  } finally {
    await page.evaluate(() => localStorage.setItem('language', 'es'));
  }
});
