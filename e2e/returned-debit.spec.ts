import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import { signInWithForm } from './support/auth.ts';
import { expectNoViolationsAnywhere, screenVariants, showAs, variantName } from './support/axe.ts';
import { e2ePort } from './support/env.ts';
import { useOwnPortal } from './support/own-portal.ts';
import { notificationsTexts } from './support/texts.ts';

/**
 * Returned direct debits end to end (issue 23, item 4): a tenant that charges the bank's return
 * fee, made with the admin CLI on a portal of its own (with its own Redsys simulator); the
 * provider reports a returned debit through the ingestion API; the customer sees "Devuelto" with
 * the reason in plain words and the fee (390x844 and 1280x800, light and dark, axe), opens the
 * notification (the confirmation says "Devuelto", not "Vencido"), and pays exactly that instalment plus the fee through the simulator; then it no
 * longer shows "Devuelto". A bad report is refused and a replay tells nobody twice.
 */

const shots = fileURLToPath(new URL('./screenshots/', import.meta.url));
// Beside the suite's own ports (E2E_PORT + 10 and up are the other servers').
const port = Number(process.env.E2E_RETURNS_PORT ?? e2ePort + 7);
const simulatorPort = port + 2;
const simulatorOrigin = `http://localhost:${simulatorPort}`;
const email = 'nuria@retornos.test';
const password = 'Recibo-devuelto-2026!';

test.describe.configure({ mode: 'serial' });
test.use({ locale: 'es-ES' });

// A tenant that charges the bank's return fee, made with the admin CLI, paying through a Redsys
// simulator of its own.
const portal = useOwnPortal({
  port,
  smtpPort: port + 1,
  tenant: 'retornos',
  tenantArgs: [
    '--company-name',
    'Club Deportivo Retornos',
    '--legal-name',
    'Club Deportivo Retornos, S.L.',
    '--contact-email',
    'socios@retornos.test',
    '--mail-from',
    'Club Deportivo Retornos <socios@retornos.test>',
    '--test-mode',
    '--redsys-environment',
    'simulator',
    '--redsys-merchant-code',
    '999008881',
    '--redsys-terminal',
    '1',
    '--redsys-key-stdin',
    '--charge-return-fee',
    'on',
  ],
  // Redsys' public test key (published in its integration guides; the simulator knows it).
  tenantInput: 'sq7HjrUOBfKmC576ILgskD5srU870gJ7\n',
  env: {
    REDSYS_SIMULATOR: 'true',
    REDSYS_SIMULATOR_PORT: String(simulatorPort),
    OUTBOX_INTERVAL_SECONDS: '1',
  },
});
const { tenant, origin, api, call: adminCall } = portal;

const read = <T>(namespace: string): T =>
  JSON.parse(
    readFileSync(new URL(`../apps/web/src/locales/es/${namespace}.json`, import.meta.url), 'utf8'),
  ) as T;
const invoiceTexts = read<{
  paymentStatus: { returned: string; paid: string };
  returnedDebit: { reasons: Record<string, string>; fee: string; payNow: string };
}>('invoices');
const checkoutTexts = read<{
  returnFee: string;
  checkin: {
    title: string;
    accept: string;
    conditions: { accept: string };
    summary: { title: string; overdue: string; returned: string };
  };
  result: { success: { title: string } };
}>('checkout');
const events = read<{ events: { debitReturned: { title: string } } }>('notifications').events;

const euros = (amount: number) =>
  new Intl.NumberFormat('es-ES', { style: 'currency', currency: 'EUR' }).format(amount);
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Intl writes a narrow no-break space before €; the page too. Match either space. */
const money = (amount: number) => new RegExp(escape(euros(amount)).replace(/\s/g, '\\s'));

const invoice = {
  id: 'RET-2026-0042',
  customer_code: 'R-0007',
  invoice_date: '2026-10-01',
  base_cents: 5000,
  vat_cents: 1050,
  total_cents: 6050,
  lines: [
    { line_no: 1, concept: 'Cuota trimestral', quantity: 1, unit_price_cents: 5000, vat_rate: 21 },
  ],
  instalments: [
    {
      seq: 1,
      due_date: '2026-10-05',
      amount_cents: 3025,
      method: 'Domiciliación',
      status: 'paid',
      paid_date: '2026-10-05',
    },
    { seq: 2, due_date: '2099-01-05', amount_cents: 3025, method: 'Domiciliación' },
  ],
};
const returned = {
  invoice_id: invoice.id,
  seq: 1,
  return_date: '2026-10-09',
  reason_code: 'AM04',
  fee_cents: 350,
};

test.beforeAll(async () => {
  test.setTimeout(90_000);
  mkdirSync(shots, { recursive: true });
  // The provider's customer and invoice; the invitation's link sets her password.
  const customers = await adminCall('PUT', '/admin/customers', {
    customers: [
      { code: 'R-0007', email, name: 'Núria', last_name: 'Vidal Pons', nif: '12345678Z' },
    ],
  });
  expect(customers.status, JSON.stringify(customers.json)).toBe(200);
  const invoices = await adminCall('PUT', '/admin/invoices', { invoices: [invoice] });
  expect(invoices.status, JSON.stringify(invoices.json)).toBe(200);
  const mail = await portal.smtp.waitFor(email, 60_000);
  const token = /reset-password\?token=([\w-]+)/.exec(mail.raw)?.[1];
  if (!token) throw new Error('no invitation link');
  const reset = await fetch(`${api}/reset-password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, email, password, password_confirmation: password }),
  });
  expect(reset.status).toBe(200);
});

const account = { tenant: { id: tenant, origin }, email, password };

/** The instalment's "Devuelto", its reason in plain words and the fee, as the page shows them. */
async function expectReturned(page: Page) {
  const note = page.getByTestId('returned-debit').filter({ visible: true }).first();
  await expect(note).toContainText(invoiceTexts.returnedDebit.reasons.AM04 ?? 'AM04');
  await expect(note).toContainText(invoiceTexts.returnedDebit.fee);
  await expect(note).toContainText(money(3.5));
  await expect(
    page.getByText(invoiceTexts.paymentStatus.returned, { exact: true }).filter({ visible: true }),
  ).not.toHaveCount(0);
}

test('the provider reports a returned debit: refused when malformed, told once', async () => {
  const bad = await adminCall('POST', '/admin/instalments/returns', {
    returns: [{ ...returned, reason_code: 'saldo' }],
  });
  expect(bad.status).toBe(422);
  expect(bad.json.errors).toEqual({ 'returns.0.reason_code': ['invalid_format'] });
  const first = await adminCall('POST', '/admin/instalments/returns', { returns: [returned] });
  expect(first.json).toEqual({ created: 1, updated: 0, unchanged: 0 });
  const again = await adminCall('POST', '/admin/instalments/returns', { returns: [returned] });
  expect(again.json).toEqual({ created: 0, updated: 0, unchanged: 1 });

  // One e-mail, with the reason in words and the button to pay that instalment.
  const mail = await portal.smtp.waitFor(email, 30_000, 'debit-returned');
  expect(mail.raw).toContain('Fondos insuficientes en la cuenta');
  expect(mail.raw).toMatch(/\/payment-checkin\?payments=[\w-]+&(amp;)?invoiceId=RET-2026-0042/);
  await expect
    .poll(
      () => portal.smtp.inbox.filter((m) => /X-Portal-Mail: *debit-returned/i.test(m.raw)).length,
      {
        timeout: 3_000,
      },
    )
    .toBe(0);
});

test('"Devuelto" with its reason and fee on the invoice and the payments, phone and desktop', async ({
  page,
}) => {
  await signInWithForm(page, account);
  await page.goto(`${origin}/invoice-detail/${invoice.id}`);
  for (const variant of [screenVariants[0], screenVariants[3]]) {
    if (!variant) continue;
    await showAs(page, variant);
    await expectReturned(page);
  }
  await expectNoViolationsAnywhere(page, 'invoice detail with a returned debit');
  for (const variant of screenVariants) {
    await showAs(page, variant);
    await page.screenshot({
      path: `${shots}returned-debit-invoice-${variantName(variant).replace(' ', '-')}.png`,
      fullPage: true,
    });
  }

  await page.goto(`${origin}/mis-pagos`);
  for (const variant of [screenVariants[0], screenVariants[3]]) {
    if (!variant) continue;
    await showAs(page, variant);
    await expectReturned(page);
  }
  await expectNoViolationsAnywhere(page, 'payments with a returned debit');
  for (const variant of [screenVariants[0], screenVariants[2]]) {
    if (!variant) continue;
    await showAs(page, variant);
    await page.screenshot({
      path: `${shots}returned-debit-payments-${variantName(variant).replace(' ', '-')}.png`,
      fullPage: true,
    });
  }
});

test('the confirmation says "Devuelto" for the returned instalment, not "Vencido", phone and desktop', async ({
  page,
}) => {
  await signInWithForm(page, account);
  await page.goto(`${origin}/my-notifications`);
  const item = page.getByRole('listitem').filter({ hasText: events.debitReturned.title });
  await item.getByRole('link', { name: new RegExp(`^${notificationsTexts.item.open}`) }).click();
  await expect(page).toHaveURL(/\/payment-checkin\?payments=[\w-]+&invoiceId=RET-2026-0042$/);
  const summary = page.getByRole('region', { name: checkoutTexts.checkin.summary.title });
  // Due on 5 October (overdue by its date): its debit came back, so the badge is the payments
  // list's "Devuelto".
  for (const variant of screenVariants) {
    await showAs(page, variant);
    await expect(
      summary.getByText(checkoutTexts.checkin.summary.returned, { exact: true }),
    ).toBeVisible();
    await expect(
      summary.getByText(checkoutTexts.checkin.summary.overdue, { exact: true }),
    ).toHaveCount(0);
    await page.screenshot({
      path: `${shots}returned-debit-checkin-summary-${variantName(variant).replace(' ', '-')}.png`,
      fullPage: true,
    });
  }
  expect(checkoutTexts.checkin.summary.returned).toBe(invoiceTexts.paymentStatus.returned);
});

test('the notification opens the payment of exactly that instalment plus the fee, paid by card', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInWithForm(page, account);
  await page.goto(`${origin}/my-notifications`);
  const item = page.getByRole('listitem').filter({ hasText: events.debitReturned.title });
  await expect(item).toHaveCount(1);
  await item.getByRole('link', { name: new RegExp(`^${notificationsTexts.item.open}`) }).click();

  await expect(page).toHaveURL(/\/payment-checkin\?payments=[\w-]+&invoiceId=RET-2026-0042$/);
  await expect(
    page.getByRole('heading', { level: 1, name: checkoutTexts.checkin.title }),
  ).toBeVisible();
  // 30,25 € for the instalment, + 3,50 € for the fee: 33,75 € asked for, one instalment only.
  await expect(page.getByText(`${checkoutTexts.returnFee}:`)).toBeVisible();
  await expect(page.getByText(money(33.75)).first()).toBeVisible();
  await expect(page.getByText(/Plazo 2/)).toHaveCount(0);
  await page.screenshot({ path: `${shots}returned-debit-checkin-390.png`, fullPage: true });

  // No saved card: the card is typed on the gateway's page.
  await page.getByRole('checkbox', { name: checkoutTexts.checkin.conditions.accept }).check();
  await page.getByRole('button', { name: checkoutTexts.checkin.accept }).click();
  await expect(page).toHaveURL(new RegExp(`^${escape(simulatorOrigin)}/`));
  // The gateway shows what it was asked for: the instalment and the fee.
  await expect(page.getByText(/33,75/).first()).toBeVisible();
  await page.getByLabel('Número de tarjeta').fill('4548812049400004');
  await page.getByLabel('Caducidad (MM/AA)').fill('12/30');
  await page.getByLabel('Código de seguridad (CVC)').fill('123');
  await page.getByRole('button', { name: 'Pagar' }).click();
  await expect(page).toHaveURL(new RegExp(`^${escape(origin)}/payment/success\\?payment_id=`));
  await expect(
    page.getByRole('heading', { level: 1, name: checkoutTexts.result.success.title }),
  ).toBeVisible();

  // Paid: no longer "Devuelto"; the other instalment is untouched.
  await page.goto(`${origin}/invoice-detail/${invoice.id}`);
  await expect(page.getByTestId('returned-debit')).toHaveCount(0);
  await expect(
    page.getByText(invoiceTexts.paymentStatus.paid, { exact: true }).filter({ visible: true }),
  ).toHaveCount(1);
  await expect(
    page.getByText(invoiceTexts.paymentStatus.returned, { exact: true }).filter({ visible: true }),
  ).toHaveCount(0);
});
