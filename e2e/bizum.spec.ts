import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { expectNoViolationsAnywhere } from './support/axe.ts';
import { type Account, accounts, signInThroughApi, storedAuth } from './support/auth.ts';

/**
 * Bizum through Redsys (issue 23, item 5): tenant demo (Demo Fitness) takes Bizum (its
 * `redsys-pay-methods` are C,z in the demo seed), tenant 1 takes cards only. The customer
 * chooses Bizum on the confirmation, types the mobile number on the simulator's Bizum page,
 * accepts (or rejects) in the "bank app" step, and the result screen verifies with the server.
 * What is paid: an instalment of the invoice of 2 months ago of cliente@ on tenant demo, which no
 * other journey pays (e2e/payments-checkout.spec.ts pays or declines its invoices of 0, 1 and 7
 * months ago; those of 1 and 7 stay overdue for e2e/invoices.spec.ts).
 */

const read = <T>(namespace: string): T =>
  JSON.parse(
    readFileSync(new URL(`../apps/web/src/locales/es/${namespace}.json`, import.meta.url), 'utf8'),
  ) as T;

type CheckoutTexts = {
  checkin: {
    title: string;
    accept: string;
    method: {
      creditCard: string;
      bizum: string;
      bizumHint: string;
      paypalUnavailable: string;
    };
    bizum: { text: string };
    card: { savedCards: string; newCard: string };
    conditions: { accept: string };
  };
  result: {
    success: { title: string };
    failure: { title: string; bizumDeclined: string };
    details: { method: string };
    actions: { retry: string };
  };
};
const t = read<CheckoutTexts>('checkout');

/** With GALLERY_SCREENSHOTS=1, the journey's screens to look at, beside the gallery's. */
async function shot(page: Page, name: string) {
  if (process.env.GALLERY_SCREENSHOTS !== '1') return;
  const size = page.viewportSize();
  await page.screenshot({
    path: `e2e/screenshots/bizum-${name}-${size?.width ?? 0}.png`,
    fullPage: true,
  });
}

const simulatorOrigin = `http://localhost:${process.env.E2E_SIMULATOR_PORT ?? 3180}`;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test.use({ locale: 'es-ES', colorScheme: 'light' });

async function api<T>(page: Page, account: Account, path: string, body: unknown): Promise<T> {
  const { accessToken } = await storedAuth(page);
  const base = new URL(account.tenant.origin);
  base.hostname = 'localhost';
  const answer = await page.request.post(`${base.origin}/${account.tenant.id}/api/1.0${path}`, {
    headers: { Authorization: `Bearer ${accessToken}` },
    data: body,
  });
  expect(answer.status(), path).toBe(200);
  return (await answer.json()) as T;
}

type Instalment = {
  payment_id: string;
  invoice_id: string;
  amount: number;
  status: string;
  method: string;
};
type InvoiceItem = { invoice_id: string; invoice_date: string };

/** Every instalment of the customer, all pages. */
async function allInstalments(page: Page, account: Account): Promise<Instalment[]> {
  const all: Instalment[] = [];
  for (let p = 1; ; p += 1) {
    const { payments, has_more } = await api<{ payments: Instalment[]; has_more: boolean }>(
      page,
      account,
      '/payments',
      { datefrom: '20000101', dateto: '20991231', page: String(p) },
    );
    all.push(...payments);
    if (!has_more) return all;
  }
}

/**
 * An unpaid instalment of the customer's invoice of `monthsAgo` months ago (the demo leaves the
 * newest two unpaid, the last two instalments of the one of 2 months ago, and the one of 7).
 */
async function instalmentToPay(page: Page, account: Account, monthsAgo: number) {
  const { invoices } = await api<{ invoices: InvoiceItem[] }>(page, account, '/invoices', {
    datefrom: '20000101',
    dateto: '20991231',
    page: '1',
  });
  const sorted = [...invoices].sort((a, b) => b.invoice_date.localeCompare(a.invoice_date));
  const invoiceId = sorted[monthsAgo]?.invoice_id;
  const item = (await allInstalments(page, account)).find(
    (i) => i.invoice_id === invoiceId && i.status !== 'paid',
  );
  if (!item) throw new Error(`No unpaid instalment of ${monthsAgo} months ago`);
  return item;
}

async function paymentOf(page: Page, account: Account, paymentId: string) {
  return (await allInstalments(page, account)).find((p) => p.payment_id === paymentId);
}

const bizumRadio = (page: Page) =>
  page.getByRole('radio', { name: new RegExp(`^${escape(t.checkin.method.bizum)}`) });
const acceptButton = (page: Page) =>
  page.getByRole('button', { name: new RegExp(`^${escape(t.checkin.accept)}`) });

/** The confirmation of one instalment, Bizum chosen, conditions accepted, off to the gateway. */
async function confirmWithBizum(page: Page, account: Account, item: Instalment) {
  await page.goto(
    `${account.tenant.origin}/payment-checkin?payments=${item.payment_id}&amount=${item.amount.toFixed(2)}`,
  );
  await expect(page.getByRole('heading', { level: 1, name: t.checkin.title })).toBeVisible();
  // The card is chosen on arrival; Bizum is offered beside it, with what it means.
  await expect(
    page.getByRole('radio', { name: new RegExp(escape(t.checkin.method.creditCard)) }),
  ).toBeChecked();
  await expect(bizumRadio(page)).not.toBeChecked();
  await expect(page.getByText(t.checkin.method.bizumHint)).toBeVisible();
  await bizumRadio(page).check();
  // No card with Bizum: the card's tabs go, Bizum's explanation comes.
  await expect(page.getByRole('tab', { name: t.checkin.card.savedCards })).toHaveCount(0);
  await expect(page.getByText(t.checkin.bizum.text)).toBeVisible();
  await page.getByRole('checkbox', { name: t.checkin.conditions.accept }).check();
  await acceptButton(page).click();
  await expect(page).toHaveURL(new RegExp(`^${escape(simulatorOrigin)}/`));
  await expect(page.getByRole('heading', { level: 1, name: /Pago con Bizum/ })).toBeVisible();
}

/** The simulator's Bizum pages (apps/redsys-sim/src/pages/payment-pages.ts), in Spanish. */
async function answerInBizum(page: Page, answer: 'accept' | 'reject') {
  const phone = page.getByLabel('Teléfono móvil');
  await phone.fill('912 345 678');
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page.getByText('Escribe un móvil español de 9 cifras')).toBeVisible();
  await page.getByLabel('Teléfono móvil').fill('612 345 678');
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Confirma el pago en la app de tu banco' }),
  ).toBeVisible();
  await expect(page.getByText('+34 *** *** 678')).toBeVisible();
  await page
    .getByRole('button', { name: answer === 'accept' ? 'Aceptar en la app' : 'Rechazar en la app' })
    .click();
}

const phone = { width: 390, height: 844 };
const desktop = { width: 1280, height: 800 };

test.describe('Bizum through the simulator', () => {
  test.describe.configure({ timeout: 120_000 });
  test.use({ viewport: phone });

  test('chosen on the confirmation, rejected in the app at 390, paid at 1280: the result says Bizum', async ({
    page,
  }) => {
    const account = accounts.clienteDemo;
    await signInThroughApi(page, account);
    const item = await instalmentToPay(page, account, 2);

    // At 390: the customer rejects it in the bank's app, a Bizum KO worded as such.
    await confirmWithBizum(page, account, item);
    await answerInBizum(page, 'reject');
    await expect(page).toHaveURL(
      new RegExp(`^${escape(account.tenant.origin)}/payment/error\\?payment_id=`),
    );
    await expect(
      page.getByRole('heading', { level: 1, name: t.result.failure.title }),
    ).toBeVisible();
    await expect(page.getByText(t.result.failure.bizumDeclined)).toBeVisible();
    const failedDetails = page.getByRole('region', { name: /Detalles/ });
    await expect(failedDetails).toContainText(t.result.details.method);
    await expect(failedDetails).toContainText(t.checkin.method.bizum);
    await expect(page.getByRole('link', { name: t.result.actions.retry })).toBeVisible();
    await shot(page, 'result-declined');
    expect((await paymentOf(page, account, item.payment_id))?.status).not.toBe('paid');

    // At 1280: pays it; the same signed notification settles the instalment.
    await page.setViewportSize(desktop);
    await confirmWithBizum(page, account, item);
    await answerInBizum(page, 'accept');
    await expect(page).toHaveURL(
      new RegExp(`^${escape(account.tenant.origin)}/payment/success\\?payment_id=`),
    );
    const success = page.getByRole('heading', { level: 1, name: t.result.success.title });
    await expect(success).toBeVisible();
    const details = page.getByRole('region', { name: /Detalles/ });
    await expect(details).toContainText(t.checkin.method.bizum);
    await expect(details).toContainText(item.invoice_id);
    await shot(page, 'result-paid');
    // The paid result at 390 too, read again from the server.
    await page.setViewportSize(phone);
    await page.reload();
    await expect(success).toBeVisible();
    await expect(details).toContainText(t.checkin.method.bizum);
    await shot(page, 'result-paid');
    // The payments list names the method as paid: "Bizum".
    expect(await paymentOf(page, account, item.payment_id)).toMatchObject({
      status: 'paid',
      method: 'Bizum',
    });
  });
});

test.describe('a tenant without Bizum', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('offers the card only, and says PayPal is not available', async ({ page }) => {
    const account = accounts.clienteOne;
    await signInThroughApi(page, account);
    const range = { datefrom: '20000101', dateto: '20991231', page: '1', pending: true };
    const { payments } = await api<{ payments: Instalment[] }>(page, account, '/payments', range);
    const item = payments[0];
    if (!item) throw new Error('No unpaid instalment');
    await page.goto(
      `${account.tenant.origin}/payment-checkin?payments=${item.payment_id}&amount=${item.amount.toFixed(2)}`,
    );
    await expect(
      page.getByRole('radio', { name: new RegExp(escape(t.checkin.method.creditCard)) }),
    ).toBeChecked();
    await expect(bizumRadio(page)).toHaveCount(0);
    await expect(page.getByText(t.checkin.method.bizumHint)).toHaveCount(0);
    await expect(page.getByText(t.checkin.method.paypalUnavailable)).toBeVisible();
    await expect(page.getByRole('radio', { name: /PayPal/ })).toHaveCount(0);
    await shot(page, 'checkin-cards-only');
  });
});

test('the confirmation with Bizum chosen has no axe violations, light and dark, 390 and 1280', async ({
  page,
}) => {
  const account = accounts.clienteDemo;
  await signInThroughApi(page, account);
  const item = await instalmentToPay(page, account, 0);
  await page.goto(
    `${account.tenant.origin}/payment-checkin?payments=${item.payment_id}&amount=${item.amount.toFixed(2)}`,
  );
  await bizumRadio(page).check();
  await expect(page.getByText(t.checkin.bizum.text)).toBeVisible();
  await expectNoViolationsAnywhere(page, 'confirmation with Bizum');
});
