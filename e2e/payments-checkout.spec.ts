// page.evaluate callbacks run in the browser; the root tsconfig has no DOM types.
import { readFileSync } from 'node:fs';
import { analyzeSettled } from './support/axe.ts';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { type Account, accounts, signInThroughApi, storedAuth } from './support/auth.ts';

/**
 * Card payments end to end (issue 5): the confirmation, the local Redsys simulator started by the
 * API (playwright.config.ts: REDSYS_SIMULATOR_PORT=3180) with Redsys' public test cards, the
 * signed notification, and the result screen that verifies with the server. Each payment locks
 * its instalments until it settles, so every journey pays its own invoice (chosen by age, which is
 * the same on every fresh demo database). What is paid is chosen so that e2e/invoices*.spec.ts,
 * running alongside on the same customers, still finds what it looks for (a pending invoice on
 * tenant 1, two overdue instalments on tenant demo):
 *
 * - tenant 1, cliente: three instalments of the invoices of 2 and 7 months ago (selection);
 * - tenant demo, cliente: this month's (new card, saved); last month's (declined) and the one of
 *   7 months ago (testing toggle) stay unpaid;
 * - tenant demo, segundo: this month's (3DS) and last month's (saved card).
 */

const read = <T>(namespace: string): T =>
  JSON.parse(
    readFileSync(new URL(`../apps/web/src/locales/es/${namespace}.json`, import.meta.url), 'utf8'),
  ) as T;

type CheckoutTexts = {
  checkin: {
    title: string;
    accept: string;
    acceptHint: string;
    method: { creditCard: string };
    card: { newCard: string; savedCards: string; saveCard: string };
    conditions: { accept: string };
    summary: { title: string; instalments: string };
  };
  errors: { initFailed: string; invalidAmount: string; missingInvoice: string };
  result: {
    verifying: { title: string };
    timedOut: { title: string };
    success: { title: string };
    failure: { title: string; text: string };
    refunded: { title: string };
    superseded: { title: string };
    refund: { status: { refunded: string } };
    status: { completed: string; failed: string };
    actions: { home: string; viewInvoice: string; paymentMethods: string; retry: string };
  };
};
type InvoicesTexts = {
  invoiceDetail: { options: { pay: string } };
  payments: { selectToPay: string; paySelected: string };
  common: { viewMore: string };
};
type CommonTexts = { nav: { openMenu: string }; menu: { simulatePaymentFailure: string } };

const t = read<CheckoutTexts>('checkout');
const invoiceTexts = read<InvoicesTexts>('invoices');
const common = read<CommonTexts>('common');

/** Redsys' public test cards, as the simulator knows them (apps/redsys-sim/src/cards.ts). */
const cards = {
  authorised: '4548812049400004',
  declined: '5576440022788500',
  challenge: '4548814479727229',
} as const;
const simulatorOrigin = `http://localhost:${process.env.E2E_SIMULATOR_PORT ?? 3180}`;

const euros = (amount: number) =>
  new Intl.NumberFormat('es-ES', { style: 'currency', currency: 'EUR' }).format(amount);
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test.use({ locale: 'es-ES', colorScheme: 'light' });

// ---- the API, to choose what to pay and to check the database state afterwards ----

async function api<T>(page: Page, account: Account, path: string, body?: unknown): Promise<T> {
  const { accessToken } = await storedAuth(page);
  // The tenant is in the path, so plain localhost reaches it (Node does not resolve *.localhost).
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

type InvoiceItem = { invoice_id: string; invoice_date: string; amount: number; status: number };
type InvoiceDetail = { invoice_id: string; status: number; pending: number; total: number };
type Instalment = { payment_id: string; invoice_id: string; amount: number; status: string };

/** The customer's invoice of `monthsAgo` months ago (the demo data has one a month). */
async function invoiceOf(page: Page, account: Account, monthsAgo: number): Promise<InvoiceItem> {
  const { invoices } = await api<{ invoices: InvoiceItem[] }>(page, account, '/invoices', {
    datefrom: '20000101',
    dateto: '20991231',
    page: '1',
  });
  const sorted = [...invoices].sort((a, b) => b.invoice_date.localeCompare(a.invoice_date));
  const invoice = sorted[monthsAgo];
  if (!invoice) throw new Error(`No invoice of ${monthsAgo} months ago`);
  return invoice;
}

async function invoiceDetail(page: Page, account: Account, id: string): Promise<InvoiceDetail> {
  const { invoice } = await api<{ invoice: InvoiceDetail }>(page, account, '/invoice', {
    invoice_id: id,
  });
  return invoice;
}

/** Every unpaid instalment of the customer (pending and overdue). */
async function unpaidInstalments(page: Page, account: Account): Promise<Instalment[]> {
  const all: Instalment[] = [];
  for (let p = 1; ; p += 1) {
    const { payments, has_more } = await api<{ payments: Instalment[]; has_more: boolean }>(
      page,
      account,
      '/payments',
      {
        datefrom: '20000101',
        dateto: '20991231',
        page: String(p),
        pending: true,
        overdue: true,
      },
    );
    all.push(...payments);
    if (!has_more) return all;
  }
}

// ---- the screens ----

/** Opens the confirmation from the invoice's own Pay button (the invoices screen's link). */
async function openCheckinFromInvoice(page: Page, account: Account, invoice: InvoiceItem) {
  await page.goto(
    `${account.tenant.origin}/invoice-detail/${encodeURIComponent(invoice.invoice_id)}`,
  );
  const pay = invoiceTexts.invoiceDetail.options.pay.replace('{{amount}}', euros(invoice.amount));
  await page.getByRole('link', { name: pay }).click();
  await expect(page).toHaveURL(/\/payment-checkin\?invoiceId=/);
  await expect(page.getByRole('heading', { level: 1, name: t.checkin.title })).toBeVisible();
}

function acceptButton(page: Page): Locator {
  return page.getByRole('button', { name: t.checkin.accept });
}

/** Card, optionally "save this card" or a saved card, conditions, "Aceptar y continuar". */
async function confirmWithCard(
  page: Page,
  { saveCard = false, savedCard }: { saveCard?: boolean; savedCard?: RegExp } = {},
) {
  await expect(acceptButton(page)).toBeDisabled();
  await page.getByRole('radio', { name: new RegExp(escape(t.checkin.method.creditCard)) }).check();
  if (saveCard) {
    await page.getByRole('checkbox', { name: new RegExp(escape(t.checkin.card.saveCard)) }).check();
  }
  if (savedCard) {
    await page.getByRole('tab', { name: t.checkin.card.savedCards }).click();
    await page.getByRole('radio', { name: savedCard }).check();
  }
  await expect(acceptButton(page)).toBeDisabled();
  await page.getByRole('checkbox', { name: t.checkin.conditions.accept }).check();
  await expect(acceptButton(page)).toBeEnabled();
  await acceptButton(page).click();
}

/** The simulator's card page (apps/redsys-sim/src/pages/payment-pages.ts), in Spanish. */
async function payOnGateway(page: Page, card: string, { challenge = false } = {}) {
  await expect(page).toHaveURL(new RegExp(`^${escape(simulatorOrigin)}/`));
  await page.getByLabel('Número de tarjeta').fill(card);
  await page.getByLabel('Caducidad (MM/AA)').fill('12/30');
  await page.getByLabel('Código de seguridad (CVC)').fill('123');
  await page.getByRole('button', { name: 'Pagar' }).click();
  if (challenge) {
    await page.getByLabel('Código de verificación').fill('123456');
    await page.getByRole('button', { name: 'Confirmar' }).click();
  }
}

async function expectResult(page: Page, outcome: 'success' | 'failure', origin: string) {
  const path = outcome === 'success' ? '/payment/success' : '/payment/error';
  await expect(page).toHaveURL(new RegExp(`^${escape(origin)}${path}\\?payment_id=`));
  const title = outcome === 'success' ? t.result.success.title : t.result.failure.title;
  const status = page.getByRole('status').filter({ hasText: title });
  await expect(status.getByRole('heading', { level: 1, name: title })).toBeVisible();
}

/** Tab (never the mouse) until `target` has the focus. */
async function tabTo(page: Page, target: Locator, limit = 40) {
  for (let i = 0; i < limit; i += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

test.describe('paying by card through the Redsys simulator', () => {
  // A journey crosses two servers and two sites; on a busy machine it can take a while.
  test.describe.configure({ timeout: 60_000 });

  test('one invoice from its Pay button with the authorised card, saving the card', async ({
    page,
  }) => {
    const account = accounts.clienteDemo;
    await signInThroughApi(page, account);
    const invoice = await invoiceOf(page, account, 0);
    expect(invoice.amount).toBeGreaterThan(0);
    const cardsBefore = await api<{ methods: { kind: string }[] }>(
      page,
      account,
      '/payment-methods',
    );

    await openCheckinFromInvoice(page, account, invoice);
    const summary = page.getByRole('region', { name: t.checkin.summary.title });
    await expect(summary).toContainText(invoice.invoice_id);
    await expect(summary).toContainText(euros(invoice.amount));
    await confirmWithCard(page, { saveCard: true });
    await payOnGateway(page, cards.authorised);

    await expectResult(page, 'success', account.tenant.origin);
    const details = page.getByRole('region', { name: /Detalles/ });
    await expect(details).toContainText(invoice.invoice_id);
    await expect(details).toContainText(euros(invoice.amount));
    await expect(details).toContainText(t.result.status.completed);
    await expect(page.getByRole('link', { name: t.result.actions.paymentMethods })).toBeVisible();
    await expect(page.getByRole('link', { name: t.result.actions.viewInvoice })).toHaveAttribute(
      'href',
      `/invoice-detail/${invoice.invoice_id}`,
    );

    // The database: the invoice is paid, and the card was saved (a token, never the number).
    const after = await invoiceDetail(page, account, invoice.invoice_id);
    expect(after).toMatchObject({ status: 1, pending: 0 });
    const cardsAfter = await api<{ methods: { kind: string; card_masked: string | null }[] }>(
      page,
      account,
      '/payment-methods',
    );
    expect(cardsAfter.methods.filter((m) => m.kind === 'card')).toHaveLength(
      cardsBefore.methods.filter((m) => m.kind === 'card').length + 1,
    );
  });

  test('three instalments chosen in the payments list, in one payment', async ({ page }) => {
    const account = accounts.clienteOne;
    await signInThroughApi(page, account);
    // The partly paid invoice of two months ago (two instalments left) and the one of seven.
    const split = await invoiceOf(page, account, 2);
    const single = await invoiceOf(page, account, 7);
    const unpaid = (await unpaidInstalments(page, account)).filter((i) =>
      [split.invoice_id, single.invoice_id].includes(i.invoice_id),
    );
    expect(unpaid).toHaveLength(3);
    const total = unpaid.reduce((sum, i) => sum + Math.round(i.amount * 100), 0) / 100;

    await page.goto(`${account.tenant.origin}/mis-pagos`);
    await page.getByRole('button', { name: invoiceTexts.payments.selectToPay }).click();
    for (const invoiceId of [split.invoice_id, single.invoice_id]) {
      const boxes = page.getByRole('checkbox', { name: new RegExp(escape(invoiceId)) });
      await expect(boxes.first()).toBeVisible();
      for (const box of await boxes.all()) await box.check();
    }
    await page.getByRole('link', { name: invoiceTexts.payments.paySelected }).click();
    await expect(page).toHaveURL(/\/payment-checkin\?payments=/);
    const summary = page.getByRole('region', { name: t.checkin.summary.title });
    await expect(summary).toContainText(t.checkin.summary.instalments);
    await expect(summary).toContainText(euros(total));

    await confirmWithCard(page);
    await payOnGateway(page, cards.authorised);
    await expectResult(page, 'success', account.tenant.origin);
    const details = page.getByRole('region', { name: /Detalles/ });
    await expect(details).toContainText(euros(total));
    await expect(details).toContainText(split.invoice_id);
    await expect(details).toContainText(single.invoice_id);
    // Not saved: no way to the payment methods.
    await expect(page.getByRole('link', { name: t.result.actions.paymentMethods })).toHaveCount(0);

    for (const id of [split.invoice_id, single.invoice_id]) {
      expect(await invoiceDetail(page, account, id)).toMatchObject({ status: 1, pending: 0 });
    }
  });

  test('a declined card, with the keyboard alone: the failure screen, nothing paid', async ({
    page,
  }) => {
    const account = accounts.clienteDemo;
    await signInThroughApi(page, account);
    const invoice = await invoiceOf(page, account, 1);
    const before = await invoiceDetail(page, account, invoice.invoice_id);
    expect(before.pending).toBeGreaterThan(0);

    await page.goto(
      `${account.tenant.origin}/payment-checkin?invoiceId=${encodeURIComponent(invoice.invoice_id)}&amount=${invoice.amount.toFixed(2)}`,
    );
    await expect(page.getByRole('heading', { level: 1, name: t.checkin.title })).toBeVisible();
    const card = page.getByRole('radio', { name: new RegExp(escape(t.checkin.method.creditCard)) });
    await tabTo(page, card);
    await page.keyboard.press('Space');
    await expect(card).toBeChecked();
    const conditions = page.getByRole('checkbox', { name: t.checkin.conditions.accept });
    await tabTo(page, conditions);
    await page.keyboard.press('Space');
    await expect(conditions).toBeChecked();
    await tabTo(page, acceptButton(page));
    await page.keyboard.press('Enter');

    await payOnGateway(page, cards.declined);
    await expectResult(page, 'failure', account.tenant.origin);
    await expect(page.getByText(t.result.failure.text)).toBeVisible();
    await expect(page.getByRole('region', { name: /Detalles/ })).toContainText(
      t.result.status.failed,
    );

    // The outcome has the focus: the next Tab reaches "Reintentar", Enter goes back to the invoice.
    const retry = page.getByRole('link', { name: t.result.actions.retry });
    await tabTo(page, retry, 3);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(`${account.tenant.origin}/invoice-detail/${invoice.invoice_id}`);

    const after = await invoiceDetail(page, account, invoice.invoice_id);
    expect(after).toMatchObject({ status: before.status, pending: before.pending });
  });

  test('a card with a 3DS challenge (code 123456) pays the invoice', async ({ page }) => {
    const account = accounts.segundoDemo;
    await signInThroughApi(page, account);
    const invoice = await invoiceOf(page, account, 0);
    expect(invoice.amount).toBeGreaterThan(0);

    await openCheckinFromInvoice(page, account, invoice);
    await confirmWithCard(page);
    await payOnGateway(page, cards.challenge, { challenge: true });
    await expectResult(page, 'success', account.tenant.origin);
    await expect(page.getByRole('link', { name: t.result.actions.paymentMethods })).toHaveCount(0);
    expect(await invoiceDetail(page, account, invoice.invoice_id)).toMatchObject({
      status: 1,
      pending: 0,
    });
  });

  test('the side menu testing toggle makes the authorised card decline', async ({ page }) => {
    const account = accounts.clienteDemo;
    await signInThroughApi(page, account);
    const invoice = await invoiceOf(page, account, 7);
    const before = await invoiceDetail(page, account, invoice.invoice_id);

    await openCheckinFromInvoice(page, account, invoice);
    await page.getByRole('button', { name: common.nav.openMenu }).click();
    const toggle = page.getByRole('switch', { name: common.menu.simulatePaymentFailure });
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await page.keyboard.press('Escape');

    await confirmWithCard(page);
    await expect(page.getByText('Modo de pruebas: este pago se denegará.')).toBeVisible();
    await payOnGateway(page, cards.authorised);
    await expectResult(page, 'failure', account.tenant.origin);
    expect(await invoiceDetail(page, account, invoice.invoice_id)).toMatchObject({
      status: before.status,
      pending: before.pending,
    });
  });

  test('a saved card from the saved-cards tab', async ({ page }) => {
    const account = accounts.segundoDemo;
    await signInThroughApi(page, account);
    const invoice = await invoiceOf(page, account, 1);
    expect(invoice.amount).toBeGreaterThan(0);

    await openCheckinFromInvoice(page, account, invoice);
    await confirmWithCard(page, { savedCard: /Mi tarjeta ···· 0004/ });
    // The gateway's page for a saved card shows it masked and only asks to confirm.
    await expect(page).toHaveURL(new RegExp(`^${escape(simulatorOrigin)}/`));
    await expect(page.getByText('****0004')).toBeVisible();
    await page.getByRole('button', { name: 'Pagar' }).click();
    await expectResult(page, 'success', account.tenant.origin);
    expect(await invoiceDetail(page, account, invoice.invoice_id)).toMatchObject({
      status: 1,
      pending: 0,
    });
  });
});

test.describe('back from the card page (issue 20)', () => {
  test.describe.configure({ timeout: 90_000 });

  type Started = { payment_id: string; redsys_params: Record<string, string> };
  type StatusAnswer = {
    status: string;
    amount: number;
    refund: { amount: number; status: string } | null;
  };

  /** Card, conditions and "Aceptar y continuar", whatever the form kept from before Back. */
  async function confirmAgain(page: Page) {
    const card = page.getByRole('radio', { name: new RegExp(escape(t.checkin.method.creditCard)) });
    if (!(await card.isChecked())) await card.check();
    const conditions = page.getByRole('checkbox', { name: t.checkin.conditions.accept });
    if (!(await conditions.isChecked())) await conditions.check();
    await acceptButton(page).click();
  }

  test('pays again at once after Back; the first page paid later is refunded', async ({
    page,
    context,
  }, testInfo) => {
    // Tenant 1's invoice of last month (e2e/invoices*.spec.ts still find this month's pending).
    const account = accounts.clienteOne;
    await signInThroughApi(page, account);
    const invoice = await invoiceOf(page, account, 1);
    const before = await invoiceDetail(page, account, invoice.invoice_id);
    expect(before.pending).toBeGreaterThan(0);

    // Every start's answer, read as it passes (the page navigates away at once).
    const starts: { status: number; body: Started }[] = [];
    await page.route(/\/redsys\/init-payment$/, async (route) => {
      const response = await route.fetch();
      starts.push({ status: response.status(), body: (await response.json()) as Started });
      await route.fulfill({ response });
    });

    // First start: the card page opens...
    await openCheckinFromInvoice(page, account, invoice);
    await confirmWithCard(page);
    await expect(page).toHaveURL(new RegExp(`^${escape(simulatorOrigin)}/`));
    const first = starts[0]?.body as Started;
    // ...and the customer goes Back, then pays again at once: no "payment in progress".
    await page.goBack();
    await expect(page.getByRole('heading', { level: 1, name: t.checkin.title })).toBeVisible();
    await confirmAgain(page);
    await expect(page).toHaveURL(new RegExp(`^${escape(simulatorOrigin)}/`));
    expect(starts.map((s) => s.status)).toEqual([200, 200]);
    expect(starts[1]?.body.payment_id).not.toBe(first.payment_id);
    await payOnGateway(page, cards.authorised);
    await expectResult(page, 'success', account.tenant.origin);
    // Back on the portal: the first attempt was superseded by the second.
    expect(
      (await api<StatusAnswer>(page, account, `/redsys/payment/${first.payment_id}/status`)).status,
    ).toBe('superseded');
    expect(await invoiceDetail(page, account, invoice.invoice_id)).toMatchObject({
      status: 1,
      pending: 0,
    });

    // The first card page was still open in another tab, and the customer pays there too.
    const tab = await context.newPage();
    await tab.setContent(
      `<form method="post" action="${simulatorOrigin}/sis/realizarPago">${Object.entries(
        first.redsys_params,
      )
        .map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`)
        .join('')}<button>Go</button></form>`,
    );
    await tab.getByRole('button', { name: 'Go' }).click();
    await payOnGateway(tab, cards.authorised);
    // Money is never dropped: the payment is recorded, and refunded because it was already paid.
    await expect(tab).toHaveURL(new RegExp(`/payment/success\\?payment_id=${first.payment_id}`));
    await expect(
      tab.getByRole('heading', { level: 1, name: t.result.refunded.title }),
    ).toBeVisible();
    await expect
      .poll(
        async () =>
          (await api<StatusAnswer>(tab, account, `/redsys/payment/${first.payment_id}/status`))
            .refund?.status,
        { timeout: 30_000 },
      )
      .toBe('refunded');
    const answer = await api<StatusAnswer>(
      tab,
      account,
      `/redsys/payment/${first.payment_id}/status`,
    );
    expect(answer).toMatchObject({ status: 'paid', refund: { amount: answer.amount } });

    // The result screen of the refunded payment, as the customer sees it, in both sizes and themes.
    for (const { width, height } of [
      { width: 390, height: 844 },
      { width: 1280, height: 800 },
    ]) {
      for (const colorScheme of ['light', 'dark'] as const) {
        await tab.setViewportSize({ width, height });
        await tab.emulateMedia({ colorScheme });
        await tab.reload();
        await expect(tab.getByText(t.result.refund.status.refunded, { exact: true })).toBeVisible();
        await tab.screenshot({
          path: testInfo.outputPath(`refunded-${width}-${colorScheme}.png`),
          fullPage: true,
        });
      }
    }
    const { violations } = await analyzeSettled(tab);
    expect(violations).toEqual([]);
  });
});

test.describe('the confirmation without what to pay', () => {
  test('shows the errors of spec §8 and offers no payment', async ({ page }) => {
    await signInThroughApi(page, accounts.clienteOne);
    await page.goto(`${accounts.clienteOne.tenant.origin}/payment-checkin`);
    const alert = page.getByRole('alert');
    await expect(alert).toContainText(t.errors.invalidAmount);
    await expect(alert).toContainText(t.errors.missingInvoice);
    await expect(acceptButton(page)).toHaveCount(0);
  });
});

test.describe('accessibility (axe)', () => {
  // Four full-page scans per test.
  test.describe.configure({ timeout: 60_000 });

  const combos = [
    { width: 390, height: 844, colorScheme: 'light' },
    { width: 390, height: 844, colorScheme: 'dark' },
    { width: 1280, height: 800, colorScheme: 'light' },
    { width: 1280, height: 800, colorScheme: 'dark' },
  ] as const;

  async function checkAxe(page: Page, label: string) {
    const { violations } = await analyzeSettled(page);
    expect(violations, label).toEqual([]);
  }

  const paymentId = '6f1c1d2e-0000-4000-8000-000000000001';
  const statusAnswer = (
    status: 'pending' | 'paid' | 'failed' | 'superseded',
    refund: { amount: number; status: string } | null = null,
  ) => ({
    payment_id: paymentId,
    order_id: '4821Xk9PqA2b',
    status,
    amount: 83.49,
    invoices: ['F2026-00084'],
    card_saved: status === 'paid',
    created_at: '2026-11-21T15:30:00.000Z',
    settled_at: status === 'pending' ? null : '2026-11-21T15:31:00.000Z',
    refund,
  });

  // Tenant 1 (orange) for the confirmation, tenant demo (violet) for the result: both colours.
  // One test per size and theme, so that they spread over the workers.
  for (const { width, height, colorScheme } of combos) {
    const at = `${width}x${height} ${colorScheme}`;

    test(`the confirmation: empty, filled with an error, invalid (${at})`, async ({ page }) => {
      const account = accounts.clienteOne;
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme });
      await signInThroughApi(page, account);
      const invoice = await invoiceOf(page, account, 0);
      // Nothing is really started: the answer of /redsys/init-payment is played here.
      await page.route(/\/redsys\/init-payment$/, (route) =>
        route.fulfill({
          status: 409,
          contentType: 'application/json',
          body: JSON.stringify({ message: 'In progress', code: 'payment_in_progress' }),
        }),
      );
      await page.goto(
        `${account.tenant.origin}/payment-checkin?invoiceId=${encodeURIComponent(invoice.invoice_id)}&amount=${invoice.amount.toFixed(2)}`,
      );
      await expect(page.getByRole('heading', { level: 1, name: t.checkin.title })).toBeVisible();
      await expect(page.getByText(t.checkin.acceptHint)).toBeVisible();
      await checkAxe(page, `confirmation ${at}`);
      await confirmWithCard(page, { saveCard: true });
      await expect(page.getByRole('alert')).toContainText(t.errors.initFailed);
      await checkAxe(page, `confirmation with an error ${at}`);
      await page.goto(`${account.tenant.origin}/payment-checkin?amount=0`);
      await expect(page.getByRole('alert')).toContainText(t.errors.missingInvoice);
      await checkAxe(page, `confirmation without an invoice ${at}`);
    });

    test(`the result: verifying, success, failure, refunded, superseded (${at})`, async ({
      page,
    }) => {
      const account = accounts.segundoDemo;
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme });
      await signInThroughApi(page, account);
      let answer = statusAnswer('pending');
      await page.route(/\/redsys\/payment\/[^/]+\/status$/, (route) =>
        route.fulfill({
          status: 200,
          contentType: 'application/json',
          body: JSON.stringify(answer),
        }),
      );
      const url = `${account.tenant.origin}/payment/success?payment_id=${paymentId}`;
      await page.goto(url);
      await expect(page.getByRole('heading', { name: t.result.verifying.title })).toBeVisible();
      await checkAxe(page, `verifying ${at}`);
      answer = statusAnswer('paid');
      await expect(page.getByRole('heading', { name: t.result.success.title })).toBeVisible();
      await expect(page.getByRole('link', { name: t.result.actions.paymentMethods })).toBeVisible();
      await checkAxe(page, `success ${at}`);
      answer = statusAnswer('failed');
      await page.goto(url.replace('/payment/success', '/payment/error'));
      await expect(page.getByRole('heading', { name: t.result.failure.title })).toBeVisible();
      await checkAxe(page, `failure ${at}`);
      answer = statusAnswer('paid', { amount: 83.49, status: 'pending' });
      await page.goto(url);
      await expect(page.getByRole('heading', { name: t.result.refunded.title })).toBeVisible();
      await checkAxe(page, `refunded ${at}`);
      answer = statusAnswer('superseded');
      await page.goto(url);
      await expect(page.getByRole('heading', { name: t.result.superseded.title })).toBeVisible();
      await checkAxe(page, `superseded ${at}`);
      // A minute without an answer: "still verifying", with a way to check again.
      answer = statusAnswer('pending');
      await page.clock.install();
      await page.goto(url);
      await expect(page.getByRole('heading', { name: t.result.verifying.title })).toBeVisible();
      await page.clock.runFor(61_000);
      await expect(page.getByRole('heading', { name: t.result.timedOut.title })).toBeVisible();
      await checkAxe(page, `timed out ${at}`);
    });
  }
});
