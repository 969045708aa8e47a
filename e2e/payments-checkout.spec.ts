// page.evaluate callbacks run in the browser; the root tsconfig has no DOM types.
import { readFileSync } from 'node:fs';
import { expectNoViolationsAnywhere } from './support/axe.ts';
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
    acceptConditionsHint: string;
    method: { creditCard: string };
    card: { newCard: string; savedCards: string; saveCard: string };
    conditions: { accept: string };
    summary: { title: string; overdue: string };
  };
  errors: {
    initFailed: string;
    invalidAmount: string;
    missingInvoice: string;
    details: { inProgress: string };
  };
  result: {
    verifying: { title: string };
    timedOut: { title: string };
    success: { title: string };
    failure: {
      title: string;
      text: string;
      declined: string;
      declinedDetail: string;
      errorDetail: string;
    };
    cancelled: { title: string; text: string };
    refunded: { title: string };
    superseded: { title: string };
    refund: { status: { refunded: string } };
    status: { completed: string; failed: string; cancelled: string };
    actions: {
      home: string;
      viewInvoice: string;
      paymentMethods: string;
      retry: string;
      otherCard: string;
    };
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

/**
 * The card is chosen on arrival, and so is the customer's saved card (every demo customer has
 * "Mi tarjeta •••• 0004"): a new card is the "Nueva tarjeta" tab, optionally saved. Then the
 * conditions and "Aceptar y continuar".
 */
async function confirmWithCard(
  page: Page,
  { saveCard = false, savedCard }: { saveCard?: boolean; savedCard?: RegExp } = {},
) {
  await expect(acceptButton(page)).toBeDisabled();
  await expect(
    page.getByRole('radio', { name: new RegExp(escape(t.checkin.method.creditCard)) }),
  ).toBeChecked();
  if (savedCard) {
    await expect(page.getByRole('tab', { name: t.checkin.card.savedCards })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(page.getByRole('radio', { name: savedCard })).toBeChecked();
  } else {
    await page.getByRole('tab', { name: t.checkin.card.newCard }).click();
  }
  if (saveCard) {
    await page.getByRole('checkbox', { name: new RegExp(escape(t.checkin.card.saveCard)) }).check();
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
    await expect(summary.getByRole('listitem')).toHaveCount(3);
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

  test('a declined card, with the keyboard alone, then a cancel: each worded as it is, nothing paid', async ({
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
    // Card and saved card are chosen on arrival; the arrows move to the "new card" tab.
    const card = page.getByRole('radio', { name: new RegExp(escape(t.checkin.method.creditCard)) });
    await expect(card).toBeChecked();
    const savedTab = page.getByRole('tab', { name: t.checkin.card.savedCards });
    await tabTo(page, savedTab);
    await page.keyboard.press('ArrowLeft');
    await expect(page.getByRole('tab', { name: t.checkin.card.newCard })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    const conditions = page.getByRole('checkbox', { name: t.checkin.conditions.accept });
    await tabTo(page, conditions);
    await page.keyboard.press('Space');
    await expect(conditions).toBeChecked();
    await tabTo(page, acceptButton(page));
    await page.keyboard.press('Enter');

    await payOnGateway(page, cards.declined);
    await expectResult(page, 'failure', account.tenant.origin);
    // The bank said no: said so, with what to do (review #14).
    await expect(page.getByText(t.result.failure.declined)).toBeVisible();
    await expect(page.getByText(t.result.failure.declinedDetail)).toBeVisible();
    await expect(page.getByText(t.result.failure.text)).toHaveCount(0);
    const details = page.getByRole('region', { name: /Detalles/ });
    await expect(details).toContainText(t.result.status.failed);
    // No raw ids; the time is the Madrid clock's (dd/mm/yyyy hh:mm h).
    await expect(details).not.toContainText(/[0-9a-f]{8}-[0-9a-f]{4}-/);
    await expect(details).toContainText(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2} h/);

    // The outcome has the focus: the next Tab reaches "Probar con otra tarjeta", Enter goes back
    // to the invoice.
    const retry = page.getByRole('link', { name: t.result.actions.otherCard });
    await tabTo(page, retry, 3);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(`${account.tenant.origin}/invoice-detail/${invoice.invoice_id}`);

    // Again, and this time the customer cancels on the gateway's page: their own choice, no error.
    await page.goto(
      `${account.tenant.origin}/payment-checkin?invoiceId=${encodeURIComponent(invoice.invoice_id)}`,
    );
    await confirmWithCard(page);
    await expect(page).toHaveURL(new RegExp(`^${escape(simulatorOrigin)}/`));
    await page.getByRole('button', { name: 'Cancelar' }).click();
    await expect(page).toHaveURL(/\/payment\/error\?payment_id=/);
    await expect(
      page.getByRole('heading', { level: 1, name: t.result.cancelled.title }),
    ).toBeVisible();
    await expect(page.getByText(t.result.cancelled.text)).toBeVisible();
    await expect(page.getByText(t.result.failure.title)).toHaveCount(0);
    await expect(page.getByRole('region', { name: /Detalles/ })).toContainText(
      t.result.status.cancelled,
    );

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

  test("the saved card chosen on arrival, and the server's amount whatever the address says", async ({
    page,
  }) => {
    const account = accounts.segundoDemo;
    await signInThroughApi(page, account);
    const invoice = await invoiceOf(page, account, 1);
    expect(invoice.amount).toBeGreaterThan(1);
    const instalments = (await unpaidInstalments(page, account)).filter(
      (i) => i.invoice_id === invoice.invoice_id,
    );
    expect(instalments.length).toBeGreaterThan(0);

    // A tampered address (review #7): "amount=1.00" is neither shown nor paid.
    await page.goto(
      `${account.tenant.origin}/payment-checkin?invoiceId=${encodeURIComponent(invoice.invoice_id)}&amount=1.00`,
    );
    const summary = page.getByRole('region', { name: t.checkin.summary.title });
    await expect(summary).toContainText(euros(invoice.amount));
    await expect(page.locator('main')).not.toContainText(euros(1));
    // Which instalments are paid (review #8): each with its invoice, due date and amount.
    const items = summary.getByRole('listitem');
    await expect(items).toHaveCount(instalments.length);
    for (const item of instalments) {
      await expect(summary).toContainText(euros(item.amount));
    }
    await expect(items.first()).toContainText(invoice.invoice_id);
    await expect(items.first()).toContainText(/\d{2}\/\d{2}\/\d{4}/);
    await expect(acceptButton(page)).toContainText(euros(invoice.amount));
    // Card and saved card already chosen: only the conditions are left (review #5).
    await confirmWithCard(page, { savedCard: /Mi tarjeta •••• 0004/ });
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
    const newCard = page.getByRole('tab', { name: t.checkin.card.newCard });
    if ((await newCard.getAttribute('aria-selected')) !== 'true') await newCard.click();
    const conditions = page.getByRole('checkbox', { name: t.checkin.conditions.accept });
    if (!(await conditions.isChecked())) await conditions.check();
    await acceptButton(page).click();
  }

  test('pays again at once after Back; the first page paid later is refunded', async ({
    page,
    context,
  }) => {
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
    await tab.reload();
    await expect(tab.getByText(t.result.refund.status.refunded, { exact: true })).toBeVisible();
    await expectNoViolationsAnywhere(tab, 'the refunded result');
  });
});

test.describe('the confirmation without what to pay', () => {
  test('shows the errors of spec §8 and offers no payment', async ({ page }) => {
    await signInThroughApi(page, accounts.clienteOne);
    await page.goto(`${accounts.clienteOne.tenant.origin}/payment-checkin`);
    const alert = page.getByRole('alert');
    await expect(alert).toContainText(t.errors.missingInvoice);
    await expect(acceptButton(page)).toHaveCount(0);
  });
});

test.describe('accessibility (axe)', () => {
  // Up to eight screens, each scanned four ways, per test.
  test.describe.configure({ timeout: 180_000 });

  const checkAxe = expectNoViolationsAnywhere;

  const paymentId = '6f1c1d2e-0000-4000-8000-000000000001';
  const statusAnswer = (
    status: 'pending' | 'paid' | 'failed' | 'superseded',
    refund: { amount: number; status: string } | null = null,
    failure: 'declined' | 'cancelled' | 'error' | null = null,
  ) => ({
    payment_id: paymentId,
    order_id: '4821Xk9PqA2b',
    status,
    amount: 83.49,
    invoices: ['F2026-00084'],
    card_saved: status === 'paid',
    failure,
    created_at: '2026-11-21T15:30:00.000Z',
    settled_at: status === 'pending' ? null : '2026-11-21T15:31:00.000Z',
    date: '2026-11-21',
    time: '16:31',
    refund,
  });

  // Tenant 1 (orange) for the confirmation, tenant demo (violet) for the result: both colours.
  // Each state is reached once and scanned at every size and theme in place (support/axe.ts).
  test('the confirmation: empty, filled with an error, invalid', async ({ page }) => {
    const account = accounts.clienteOne;
    await page.setViewportSize({ width: 390, height: 844 });
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
    await expect(page.getByText(t.checkin.acceptConditionsHint)).toBeVisible();
    await checkAxe(page, 'confirmation');
    await confirmWithCard(page, { saveCard: true });
    const alert = page.getByRole('alert');
    await expect(alert).toContainText(t.errors.initFailed);
    await expect(alert).toContainText(t.errors.details.inProgress);
    // In view, focused, and never under a bottom bar on a phone (review #1, #5): there is none
    // during checkout (the header's nav is desktop-only).
    await expect(alert).toBeFocused();
    await expect(alert).toBeInViewport({ ratio: 1 });
    await expect(page.getByRole('navigation', { name: 'Navegación principal' })).toHaveCount(0);
    const covered = await alert.evaluate((element) => {
      const box = element.getBoundingClientRect();
      const points: [number, number][] = [
        [box.left + 4, box.top + 4],
        [box.right - 4, box.bottom - 4],
        [box.left + box.width / 2, box.top + box.height / 2],
      ];
      return points.some(([x, y]) => !element.contains(document.elementFromPoint(x, y)));
    });
    expect(covered, 'the error is covered').toBe(false);
    await checkAxe(page, 'confirmation with an error');
    await page.goto(`${account.tenant.origin}/payment-checkin?amount=0`);
    await expect(page.getByRole('alert')).toContainText(t.errors.missingInvoice);
    await checkAxe(page, 'confirmation without an invoice');
  });

  test('the result: verifying, success, failure, refunded, superseded', async ({ page }) => {
    const account = accounts.segundoDemo;
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
    await checkAxe(page, 'verifying');
    answer = statusAnswer('paid');
    await expect(page.getByRole('heading', { name: t.result.success.title })).toBeVisible();
    await expect(page.getByRole('link', { name: t.result.actions.paymentMethods })).toBeVisible();
    await checkAxe(page, 'success');
    // A decline, the customer's cancel and an error, each in its own words (review #14).
    const errorUrl = url.replace('/payment/success', '/payment/error');
    answer = statusAnswer('failed', null, 'declined');
    await page.goto(errorUrl);
    await expect(page.getByRole('heading', { name: t.result.failure.title })).toBeVisible();
    await expect(page.getByText(t.result.failure.declined)).toBeVisible();
    await checkAxe(page, 'declined');
    answer = statusAnswer('failed', null, 'cancelled');
    await page.goto(errorUrl);
    await expect(page.getByRole('heading', { name: t.result.cancelled.title })).toBeVisible();
    await expect(page.getByText(t.result.cancelled.text)).toBeVisible();
    await checkAxe(page, 'cancelled');
    answer = statusAnswer('failed', null, 'error');
    await page.goto(`${errorUrl}&message=${encodeURIComponent('El pago fue cancelado o falló')}`);
    await expect(page.getByRole('heading', { name: t.result.failure.title })).toBeVisible();
    await expect(page.getByText(t.result.failure.text)).toBeVisible();
    await expect(page.getByText(t.result.failure.errorDetail)).toBeVisible();
    const details = page.getByRole('region', { name: /Detalles/ });
    // The spec's message, the Madrid time as the server gave it, the operation, no raw id.
    await expect(details).toContainText('“El pago fue cancelado o falló”');
    await expect(details).toContainText('21/11/2026 16:31 h');
    await expect(details).toContainText('4821Xk9PqA2b');
    await expect(page.locator('main')).not.toContainText(paymentId);
    await checkAxe(page, 'error');
    answer = statusAnswer('paid', { amount: 83.49, status: 'pending' });
    await page.goto(url);
    await expect(page.getByRole('heading', { name: t.result.refunded.title })).toBeVisible();
    await checkAxe(page, 'refunded');
    answer = statusAnswer('superseded');
    await page.goto(url);
    await expect(page.getByRole('heading', { name: t.result.superseded.title })).toBeVisible();
    await checkAxe(page, 'superseded');
    // A minute without an answer: "still verifying", with a way to check again.
    answer = statusAnswer('pending');
    await page.clock.install();
    await page.goto(url);
    await expect(page.getByRole('heading', { name: t.result.verifying.title })).toBeVisible();
    await page.clock.runFor(61_000);
    await expect(page.getByRole('heading', { name: t.result.timedOut.title })).toBeVisible();
    await checkAxe(page, 'timed out');
  });
});
