// page.evaluate callbacks run in the browser; the root tsconfig has no DOM types.
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { unzipSync } from 'fflate';
import { expect, type Download, type Page, test } from '@playwright/test';
import { type Account, accounts, signInThroughApi, storedAuth } from './support/auth.ts';
import { expectNoViolationsAnywhere, screenVariants, showAs } from './support/axe.ts';

/**
 * Receipts and statements (issue 23, item 3) at 390x844 and 1280x800: a card payment through the
 * Redsys simulator and its receipt from the result screen; the statement as PDF and CSV and the
 * period's invoices as a ZIP from "Recibos y extractos"; two invoices chosen in the list as a ZIP.
 *
 * What it pays: tenant 1, cliente, the invoice of one month ago (overdue). e2e/payments-checkout
 * pays that customer's invoices of 2 and 7 months ago, and the invoices specs keep this month's
 * pending one.
 */

const read = <T>(namespace: string): T =>
  JSON.parse(
    readFileSync(new URL(`../apps/web/src/locales/es/${namespace}.json`, import.meta.url), 'utf8'),
  ) as T;
type Texts = {
  documents: {
    title: string;
    period: { lastYear: string; last5: string; from: string; to: string; tooLong: string };
    statement: { pdf: string; csv: string };
    zip: { download: string };
    receipts: { title: string; downloadLabel: string };
  };
  zipSelection: { start: string; select: string; download: string; selected_other: string };
  payments: { receiptLabel: string };
};
const t = read<Texts>('invoices');
const checkout = read<{
  checkin: { accept: string; card: { newCard: string }; conditions: { accept: string } };
  result: { success: { title: string } };
  receipt: { download: string };
}>('checkout');
const invoiceDetailTexts = read<{ invoiceDetail: { options: { pay: string } } }>('invoices');

const simulatorOrigin = `http://localhost:${process.env.E2E_SIMULATOR_PORT ?? 3180}`;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const euros = (amount: number) =>
  new Intl.NumberFormat('es-ES', { style: 'currency', currency: 'EUR' }).format(amount);

test.use({ locale: 'es-ES', colorScheme: 'light' });

/** With GALLERY_SCREENSHOTS=1, the screens of this journey and the documents downloaded. */
const galleryDir = fileURLToPath(new URL('./screenshots/', import.meta.url));
const takeScreenshots = process.env.GALLERY_SCREENSHOTS === '1';
if (takeScreenshots) mkdirSync(galleryDir, { recursive: true });

/** axe at 390 and 1280, light and dark; the pictures too when asked for. */
async function checkScreen(page: Page, name: string) {
  await expectNoViolationsAnywhere(page, name);
  if (!takeScreenshots) return;
  for (const variant of screenVariants) {
    await showAs(page, variant);
    await page.screenshot({
      path: `${galleryDir}${name}-${variant.width}-${variant.colorScheme}.png`,
      fullPage: true,
    });
  }
  await showAs(page, screenVariants[0] ?? { width: 390, height: 844, colorScheme: 'light' });
}

async function keep(file: Download, name: string) {
  if (takeScreenshots) await file.saveAs(`${galleryDir}${name}`);
}

async function api<T>(page: Page, account: Account, path: string, body?: unknown): Promise<T> {
  const { accessToken } = await storedAuth(page);
  const base = new URL(account.tenant.origin);
  base.hostname = 'localhost';
  const url = `${base.origin}/${account.tenant.id}/api/1.0${path}`;
  const headers = { Authorization: `Bearer ${accessToken}` };
  const answer =
    body === undefined
      ? await page.request.get(url, { headers })
      : await page.request.post(url, { headers, data: body });
  expect(answer.status(), path).toBe(200);
  return (await answer.json()) as T;
}

type InvoiceItem = { invoice_id: string; invoice_date: string; amount: number };

async function invoices(page: Page, account: Account): Promise<InvoiceItem[]> {
  const { invoices: list } = await api<{ invoices: InvoiceItem[] }>(page, account, '/invoices', {
    datefrom: '20000101',
    dateto: '20991231',
    page: '1',
  });
  return [...list].sort((a, b) => b.invoice_date.localeCompare(a.invoice_date));
}

/** The bytes of a download. */
async function bytesOf(download: Download): Promise<Buffer> {
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Presses `button` and answers the download it starts. */
async function download(page: Page, press: () => Promise<void>): Promise<Download> {
  const [file] = await Promise.all([page.waitForEvent('download'), press()]);
  return file;
}

test.describe('receipts, statements and invoice archives', () => {
  test.describe.configure({ timeout: 90_000 });

  test('a card payment, then its receipt from the result screen (390 and 1280 wide)', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    // Tenant demo's invoice of seven months ago: the pending ones of this month, last month and two
    // months ago are paid by payments-checkout.spec.ts and bizum.spec.ts (the same demo database).
    const account = accounts.clienteDemo;
    await signInThroughApi(page, account);
    const invoice = (await invoices(page, account))[7];
    if (!invoice) throw new Error('No invoice of seven months ago');
    expect(invoice.amount).toBeGreaterThan(0);

    await page.goto(
      `${account.tenant.origin}/invoice-detail/${encodeURIComponent(invoice.invoice_id)}`,
    );
    const pay = invoiceDetailTexts.invoiceDetail.options.pay.replace(
      '{{amount}}',
      euros(invoice.amount),
    );
    await page.getByRole('link', { name: pay }).click();
    await page.getByRole('tab', { name: checkout.checkin.card.newCard }).click();
    await page.getByRole('checkbox', { name: checkout.checkin.conditions.accept }).check();
    await page.getByRole('button', { name: checkout.checkin.accept }).click();
    await expect(page).toHaveURL(new RegExp(`^${escape(simulatorOrigin)}/`));
    await page.getByLabel('Número de tarjeta').fill('4548812049400004');
    await page.getByLabel('Caducidad (MM/AA)').fill('12/30');
    await page.getByLabel('Código de seguridad (CVC)').fill('123');
    await page.getByRole('button', { name: 'Pagar' }).click();
    await expect(page).toHaveURL(/\/payment\/success\?payment_id=/);
    await expect(
      page.getByRole('heading', { level: 1, name: checkout.result.success.title }),
    ).toBeVisible({ timeout: 20_000 });

    for (const width of [390, 1280]) {
      await page.setViewportSize(width === 390 ? { width, height: 844 } : { width, height: 800 });
      const receiptButton = page.getByRole('button', { name: checkout.receipt.download });
      await expect(receiptButton).toBeVisible();
      const file = await download(page, () => receiptButton.click());
      expect(file.suggestedFilename()).toMatch(/^justificante-\w+\.pdf$/);
      const bytes = await bytesOf(file);
      expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
      await keep(file, 'receipt.pdf');
    }
    await checkScreen(page, 'payment-success-receipt');

    // The same receipt on "Recibos y extractos", the page the receipt e-mail links to.
    const paymentId = new URL(page.url()).searchParams.get('payment_id') ?? '';
    await page.goto(`${account.tenant.origin}/documentos?recibo=${paymentId}`);
    const current = page.locator('li[aria-current="true"]');
    await expect(current).toContainText(invoice.invoice_id);
    await checkScreen(page, 'documents-receipt-highlighted');
    const file = await download(page, () => current.getByRole('button').click());
    expect((await bytesOf(file)).subarray(0, 5).toString()).toBe('%PDF-');

    // And from the invoice's own row of "Mis pagos" (from its date on: a handful of rows).
    const day = invoice.invoice_date;
    await page.goto(
      `${account.tenant.origin}/mis-pagos?from=${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6, 8)}`,
    );
    for (const width of [390, 1280]) {
      await page.setViewportSize(width === 390 ? { width, height: 844 } : { width, height: 800 });
      const rowReceipt = page
        .getByRole('button', {
          name: t.payments.receiptLabel.replace('{{invoice}}', invoice.invoice_id),
        })
        .first();
      await expect(rowReceipt).toBeVisible();
      const fromRow = await download(page, () => rowReceipt.click());
      expect(fromRow.suggestedFilename()).toMatch(/^justificante-\w+\.pdf$/);
      expect((await bytesOf(fromRow)).subarray(0, 5).toString()).toBe('%PDF-');
    }
    await checkScreen(page, 'payments-receipt');
  });

  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    test(`statement PDF and CSV, and two invoices as a ZIP, at ${viewport.width} wide`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      const account = accounts.clienteDemo;
      await signInThroughApi(page, account);
      await page.goto(`${account.tenant.origin}/documentos`);
      await expect(page.getByRole('heading', { level: 1, name: t.documents.title })).toBeVisible();

      // A period over five years is refused before asking.
      await page.getByRole('textbox', { name: t.documents.period.from }).fill('01/01/2015');
      await page.getByRole('textbox', { name: t.documents.period.to }).fill('31/12/2024');
      await page.getByRole('button', { name: t.documents.statement.pdf }).click();
      await expect(page.getByText(t.documents.period.tooLong)).toBeVisible();

      await page.getByRole('button', { name: t.documents.period.lastYear }).click();
      const pdf = await download(page, () =>
        page.getByRole('button', { name: t.documents.statement.pdf }).click(),
      );
      expect(pdf.suggestedFilename()).toMatch(/^extracto-\d{8}-\d{8}\.pdf$/);
      expect((await bytesOf(pdf)).subarray(0, 5).toString()).toBe('%PDF-');
      await keep(pdf, 'statement.pdf');

      const csv = await download(page, () =>
        page.getByRole('button', { name: t.documents.statement.csv }).click(),
      );
      expect(csv.suggestedFilename()).toMatch(/^extracto-\d{8}-\d{8}\.csv$/);
      const text = (await bytesOf(csv)).toString('utf8');
      expect(text.startsWith('\uFEFFFecha;Tipo;Referencia;Concepto;Cargo;Abono;Saldo\r\n')).toBe(
        true,
      );
      expect(text).toContain(';Saldo final;');

      const periodZip = await download(page, () =>
        page.getByRole('button', { name: t.documents.zip.download }).click(),
      );
      const periodFiles = Object.keys(unzipSync(new Uint8Array(await bytesOf(periodZip))));
      expect(periodFiles.length).toBeGreaterThanOrEqual(10);

      // Two invoices chosen in the list.
      const [first, second] = await invoices(page, account);
      if (!first || !second) throw new Error('Too few invoices');
      await page.goto(`${account.tenant.origin}/invoices`);
      await page.getByRole('button', { name: t.zipSelection.start }).click();
      for (const id of [first.invoice_id, second.invoice_id]) {
        await page
          .getByRole('checkbox', { name: t.zipSelection.select.replace('{{id}}', id) })
          .check();
      }
      await expect(
        page.getByText(t.zipSelection.selected_other.replace('{{count}}', '2')),
      ).toBeVisible();
      if (viewport.width === 390) await checkScreen(page, 'invoices-zip-selection');
      const zip = await download(page, () =>
        page.getByRole('button', { name: t.zipSelection.download }).click(),
      );
      expect(zip.suggestedFilename()).toBe('facturas.zip');
      const files = unzipSync(new Uint8Array(await bytesOf(zip)));
      expect(Object.keys(files).sort()).toEqual(
        [`${first.invoice_id}.pdf`, `${second.invoice_id}.pdf`].sort(),
      );
    });
  }
});
