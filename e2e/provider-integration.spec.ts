import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { passwordField, signInWithForm } from './support/auth.ts';
import { useOwnPortal } from './support/own-portal.ts';
import { authTexts as t, sessionsTexts } from './support/texts.ts';

/**
 * The provider's whole integration, as a real client would run it (issue 10): a fresh embedded
 * database, a tenant and an API key made with the admin CLI, a portal started on that database,
 * customers and invoices sent to the ingestion API, the invitation e-mail received over SMTP, the
 * password set from its link, and the ingested invoices seen in Chromium. Replaying the batch
 * changes nothing; a malformed batch writes nothing.
 *
 * The CLI on PostgreSQL is covered by apps/api/test/admin-cli.test.ts (both engines).
 */

const invoicesTexts = JSON.parse(
  readFileSync(new URL('../apps/web/src/locales/es/invoices.json', import.meta.url), 'utf8'),
) as { invoiceStatus: { creditNote: string; paid: string } };

/** Screenshots to look at (git-ignored), beside the gallery's. */
const shots = fileURLToPath(new URL('./screenshots/', import.meta.url));

test.describe.configure({ mode: 'serial' });
test.use({ locale: 'es-ES' });

// The operator's order with the embedded database: the CLI makes the tenant and the key (it
// migrates the empty folder), then the server starts on that database.
const portal = useOwnPortal({
  port: Number(process.env.E2E_PROVIDER_PORT ?? 3140),
  smtpPort: Number(process.env.E2E_PROVIDER_SMTP_PORT ?? 3146),
  tenant: 'acme',
  tenantArgs: [
    '--company-name',
    'Club Náutico Acme',
    '--description',
    'Vela y remo en la bahía',
    '--primary-color',
    '0E7490',
    '--legal-name',
    'Club Náutico Acme, S.L.',
    '--contact-email',
    'socios@acme.test',
    '--mail-from',
    'Club Náutico Acme <socios@acme.test>',
    // A trial on the local simulator: the operator says so, and every screen shows it.
    '--test-mode',
  ],
  env: { OUTBOX_INTERVAL_SECONDS: '1' },
});
const { tenant, origin, call: adminCall } = portal;

const customers = {
  customers: [
    {
      code: 'S-0042',
      email: 'marina@acme.test',
      name: 'Marina',
      last_name: 'Ortega Vidal',
      nif: '12345678Z',
      phone: '600123123',
      language: 'es',
    },
  ],
};

const invoice = (id: string, date: string, cents: number, paid: boolean) => ({
  id,
  customer_code: 'S-0042',
  invoice_date: date,
  base_cents: cents,
  vat_cents: Math.round(cents * 0.21),
  total_cents: cents + Math.round(cents * 0.21),
  lines: [
    {
      line_no: 1,
      concept: 'Cuota mensual vela',
      quantity: 1,
      unit_price_cents: cents,
      vat_rate: 21,
    },
  ],
  instalments: [
    {
      seq: 1,
      due_date: date,
      amount_cents: cents + Math.round(cents * 0.21),
      ...(paid ? { status: 'paid', paid_date: date } : {}),
    },
  ],
});

// A credit note: the October fee given back (a total below zero, no instalments).
const creditNote = {
  ...invoice('ACME-2026-0104', '2026-11-02', -4500, false),
  instalments: [],
};

const invoices = {
  invoices: [
    invoice('ACME-2026-0101', '2026-09-01', 4500, true),
    invoice('ACME-2026-0102', '2026-10-01', 4500, true),
    invoice('ACME-2026-0103', '2026-11-01', 5200, false),
    creditNote,
  ],
};

test('a batch sent by the provider reaches the customer, who is invited and sees it', async ({
  page,
}) => {
  const first = await adminCall('PUT', '/admin/customers', customers);
  expect(first.status, JSON.stringify(first.json)).toBe(200);
  expect(first.json).toMatchObject({ created: 1 });
  const sent = await adminCall('PUT', '/admin/invoices', invoices);
  expect(sent.status, JSON.stringify(sent.json)).toBe(200);
  expect(sent.json).toMatchObject({ created: 4 });

  // Replaying both batches changes nothing.
  expect((await adminCall('PUT', '/admin/customers', customers)).json).toMatchObject({
    created: 0,
    updated: 0,
    unchanged: 1,
  });
  expect((await adminCall('PUT', '/admin/invoices', invoices)).json).toMatchObject({
    created: 0,
    updated: 0,
    unchanged: 4,
  });

  // A batch with one bad item is refused whole: its good invoice is not written either.
  const bad = await adminCall('PUT', '/admin/invoices', {
    invoices: [
      invoice('ACME-2026-0199', '2026-11-15', 1000, false),
      { ...invoice('ACME-2026-0200', '2026-11-15', 1000, false), customer_code: 'NOBODY' },
    ],
  });
  expect(bad.status).toBe(422);
  expect(JSON.stringify(bad.json.errors)).toContain('invoices.1.customer_code');

  // The invitation e-mail, sent by the outbox, carries a link to set a password.
  const mail = await portal.smtp.waitFor('marina@acme.test', 30_000);
  const match =
    /(https?:\/\/[^\s"<>]+\/reset-password\?token=[\w-]+&(?:amp;)?email=[^\s"<>]+)/.exec(mail.raw);
  expect(match?.[1], mail.raw.slice(0, 2000)).toBeTruthy();
  const link = (match?.[1] ?? '').replace(/&amp;/g, '&');
  expect(new URL(link).origin).toBe(origin);
  // In Spanish (the customer's language), branded with the tenant the CLI made.
  const html = /<html[\s\S]*<\/html>/i.exec(mail.raw)?.[0] ?? '';
  expect(html).toContain('Elegir mi contraseña');
  expect(html).toContain('Club Náutico Acme');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.setContent(html);
  await page.screenshot({ path: `${shots}provider-invitation-mail.png`, fullPage: true });

  await page.goto(link);
  const password = 'Vela-y-remo-2026!';
  await passwordField(page, t.fields.newPassword).fill(password);
  await passwordField(page, t.fields.confirmPassword).fill(password);
  await page.getByRole('button', { name: t.reset.submit }).click();
  await expect(page.getByRole('heading', { level: 1, name: t.reset.successTitle })).toBeVisible();

  await signInWithForm(page, {
    tenant: { id: tenant, origin },
    email: 'marina@acme.test',
    password,
  });
  await expect(page).toHaveURL(`${origin}/home`);
  await expect(page.getByText('Club Náutico Acme').first()).toBeVisible();

  await page.goto(`${origin}/invoices`);
  for (const id of ['ACME-2026-0101', 'ACME-2026-0102', 'ACME-2026-0103', 'ACME-2026-0104']) {
    await expect(page.getByText(id)).toBeVisible();
  }
  // The credit note says so ("Abono"), not "Pagada" as before session 37.
  const creditRow = page
    .locator('div')
    .filter({ has: page.getByRole('link', { name: 'ACME-2026-0104' }) })
    .filter({ hasText: /€/ })
    .last();
  await expect(creditRow).toContainText(invoicesTexts.invoiceStatus.creditNote);
  await expect(creditRow).not.toContainText(invoicesTexts.invoiceStatus.paid);
  await expect(page.getByText('ACME-2026-0199')).toHaveCount(0);
  // 52,00 € + 21 % = 62,92 €, the one still to pay.
  await expect(page.getByText(/62,92\s*€/).first()).toBeVisible();
  await page.screenshot({ path: `${shots}provider-invoices-390.png`, fullPage: true });
});

test('the customer changes her sign-in e-mail: the new address confirms it, then she signs in with it', async ({
  page,
  browser,
}) => {
  // Serial after the test above: Marina has her password and the portal its mail server.
  const password = 'Vela-y-remo-2026!';
  const e = sessionsTexts.emailChange;
  await signInWithForm(page, {
    tenant: { id: tenant, origin },
    email: 'marina@acme.test',
    password,
  });
  await page.goto(`${origin}/user-profile`);
  await page.getByRole('link', { name: t.profile.changeEmail }).click();
  await page.getByLabel(e.newEmail).fill('marina.lopez@acme.test');
  await passwordField(page, e.currentPassword).fill(password);
  await page.getByRole('button', { name: e.submit }).click();
  await expect(page.getByRole('heading', { level: 1, name: e.sentTitle })).toBeVisible();

  // The current address is told; the new one gets the link, which asks for a click.
  const notice = await portal.smtp.waitFor('marina@acme.test', 30_000, 'email-change-notice');
  expect(notice.raw).toContain('marina.lopez@acme.test');
  const mail = await portal.smtp.waitFor('marina.lopez@acme.test', 30_000, 'email-change');
  const link = /(https?:\/\/[^\s"<>]+\/confirm-email\?token=[\w-]+)/.exec(mail.raw)?.[1];
  if (!link) throw new Error(`no confirmation link in:\n${mail.raw.slice(0, 1500)}`);
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: e.confirmTitle })).toBeVisible();
  await page.getByRole('button', { name: e.confirmButton }).click();
  await expect(page.getByRole('heading', { level: 1, name: e.confirmedTitle })).toBeVisible();

  // The link works once.
  await page.goto(link);
  await page.getByRole('button', { name: e.confirmButton }).click();
  await expect(page.getByRole('alert')).toBeVisible();

  // Another browser signs in with the new address.
  const other = await (await browser.newContext({ locale: 'es-ES' })).newPage();
  await signInWithForm(other, {
    tenant: { id: tenant, origin },
    email: 'marina.lopez@acme.test',
    password,
  });
  await expect(other).toHaveURL(`${origin}/home`);
});
