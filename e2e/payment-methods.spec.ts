// page.evaluate callbacks run in the browser; the root tsconfig has no DOM types.
import { readFileSync } from 'node:fs';
import { expectNoViolationsAnywhere } from './support/axe.ts';
import { expect, type Locator, type Page, test } from '@playwright/test';
import type paymentMethodsJson from '../apps/web/src/locales/es/payment-methods.json';
import { type Account, accounts, signInThroughApi, storedAuth } from './support/auth.ts';

/**
 * Payment methods end to end: the list, saving a card through the local Redsys simulator (a
 * tokenisation: the card is typed on the simulator's page only), adding a bank account, deleting,
 * the main-method request and the bank-transfer data.
 *
 * Every journey signs in as tenant 1's `cliente@demo.test`: the payment specs that run alongside
 * count the saved cards of tenant demo's customers (e2e/payments-checkout.spec.ts) and never change
 * this customer's methods. Each journey works on methods it creates itself (a unique alias) and
 * never deletes or requests anything for the seeded ones, so the journeys of this file and of the
 * others can run in any order.
 */

type Texts = typeof paymentMethodsJson;
const t = JSON.parse(
  readFileSync(new URL('../apps/web/src/locales/es/payment-methods.json', import.meta.url), 'utf8'),
) as Texts;

const account = accounts.clienteOne;
const origin = account.tenant.origin;
const simulatorOrigin = `http://localhost:${process.env.E2E_SIMULATOR_PORT ?? 3180}`;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, key: string) => values[key] ?? '');
/** A name no other run or journey uses. */
const unique = (prefix: string) =>
  `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** Redsys' public test cards, as the simulator knows them (apps/redsys-sim/src/cards.ts). */
const cards = { authorised: '4548812049400004', declined: '5576440022788500' } as const;

/** Seeded for every demo customer (apps/api/src/db/seed/demo.ts): the main bank account. */
const seededMain = 'Cuenta principal';

test.use({ locale: 'es-ES', colorScheme: 'light' });

type Method = { id: string; alias: string; kind: string; is_main: boolean };

async function api<T>(
  page: Page,
  who: Account,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<T> {
  const { accessToken } = await storedAuth(page);
  const url = `${origin}/${who.tenant.id}/api/1.0${path}`;
  const headers = { Authorization: `Bearer ${accessToken}` };
  const answer =
    method === 'GET'
      ? await page.request.get(url, { headers })
      : await page.request.post(url, { headers, data: body });
  expect(answer.ok(), path).toBe(true);
  return (await answer.json()) as T;
}

/** A bank account of this journey's own, added through the API. */
async function addAccount(page: Page, alias: string): Promise<Method> {
  const { method } = await api<{ method: Method }>(
    page,
    account,
    'POST',
    '/payment-methods/bank-account',
    {
      iban: 'ES91 2100 0418 4502 0005 1332',
      holder: 'Laura García Martín',
      nif: '12345678Z',
      alias,
      // Tenant 1 collects by direct debit (demo seed): the SEPA mandate is signed with the account.
      mandate_accepted: true,
    },
  );
  return method;
}

function savedList(page: Page): Locator {
  return page.getByRole('list', { name: t.list.savedTitle });
}

/** The list item of the method called `name`. */
function itemOf(page: Page, name: string): Locator {
  return savedList(page)
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name, exact: true }) });
}

async function openList(page: Page) {
  await page.goto(`${origin}/metodos-de-pago`);
  // Often a context's first page: the whole app loads first (slow on a loaded two-core runner).
  await expect(page.getByRole('heading', { level: 1, name: t.list.title })).toBeVisible({
    timeout: 15_000,
  });
  await expect(savedList(page)).toBeVisible();
}

/** The simulator's card page (apps/redsys-sim/src/pages/payment-pages.ts), in Spanish. */
async function typeCardOnGateway(page: Page, card: string) {
  await expect(page).toHaveURL(new RegExp(`^${escape(simulatorOrigin)}/`));
  await page.getByLabel('Número de tarjeta').fill(card);
  await page.getByLabel('Caducidad (MM/AA)').fill('12/30');
  await page.getByLabel('Código de seguridad (CVC)').fill('123');
  await page.getByRole('button', { name: 'Pagar' }).click();
}

test('/metodos-de-pago without a session asks to sign in (finding #15), then comes back', async ({
  page,
}) => {
  await page.goto(`${origin}/metodos-de-pago`);
  await expect(page).toHaveURL(`${origin}/login`);
  expect(await page.evaluate(() => localStorage.getItem('lastPath'))).toBe('/metodos-de-pago');
});

test.describe('saving a card through the Redsys simulator', () => {
  // Two servers and two sites per journey; on a busy machine it can take a while.
  test.describe.configure({ timeout: 60_000 });

  test('the authorised card is verified, saved and listed', async ({ page }) => {
    await signInThroughApi(page, account);
    const alias = unique('Tarjeta e2e');
    await page.goto(`${origin}/a%C3%B1adir-tarjeta`);
    await expect(page.getByRole('heading', { level: 1, name: t.addCard.title })).toBeVisible();
    // PCI DSS SAQ A: nothing of the card is typed on our page.
    await expect(page.locator('input[autocomplete^="cc-"]')).toHaveCount(0);
    await expect(page.getByLabel(t.fields.alias)).toBeVisible();
    await page.getByLabel(t.fields.alias).fill(alias);
    await page.getByRole('button', { name: t.addCard.submit }).click();

    await typeCardOnGateway(page, cards.authorised);

    await expect(page).toHaveURL(
      new RegExp(`^${escape(origin)}/metodos-de-pago\\?card_attempt=[0-9a-f-]{36}$`),
    );
    await expect(
      page.getByRole('status').filter({ hasText: t.cardAttempt.saved.title }),
    ).toBeVisible();
    const item = itemOf(page, alias);
    await expect(item).toBeVisible();
    await expect(item).toContainText('VISA');
    await expect(item).toContainText('terminada en 0004');
    await expect(item).toContainText('Caduca 12/30');
    await expect(item).toContainText('Activa');

    // Its view: the masked number only, never the full one.
    await item.getByRole('link', { name: alias }).click();
    await expect(page).toHaveURL(/\/credit-card\?id=/);
    await expect(page.getByRole('heading', { level: 1, name: alias })).toBeVisible();
    await expect(page.getByRole('region', { name: t.cardView.details })).toContainText('0004');
    await expect(page.locator('body')).not.toContainText(cards.authorised);
  });

  test('a declined card is not saved, and the list says so', async ({ page }) => {
    await signInThroughApi(page, account);
    const alias = unique('Denegada e2e');
    await page.goto(`${origin}/a%C3%B1adir-tarjeta`);
    await page.getByLabel(t.fields.alias).fill(alias);
    await page.getByRole('button', { name: t.addCard.submit }).click();
    await typeCardOnGateway(page, cards.declined);

    await expect(page).toHaveURL(/\/metodos-de-pago\?card_attempt=/);
    await expect(
      page.getByRole('status').filter({ hasText: t.cardAttempt.failed.title }),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: t.cardAttempt.failed.retry })).toHaveAttribute(
      'href',
      '/añadir-tarjeta',
    );
    await expect(itemOf(page, alias)).toHaveCount(0);
  });
});

test('a bank account: a wrong IBAN and NIF first, then saved "No verificada" and activated', async ({
  page,
}) => {
  await signInThroughApi(page, account);
  const alias = unique('Cuenta e2e');
  await page.goto(`${origin}/add-bank-account`);
  await expect(page.getByRole('heading', { level: 1, name: t.addBankAccount.title })).toBeVisible();
  const iban = page.getByLabel(t.fields.iban, { exact: true });
  const nif = page.getByLabel(t.fields.nif);
  await iban.fill('ES91 2100 0418 4502 0005 1333');
  await page.getByLabel(t.fields.holder, { exact: true }).fill('Laura García Martín');
  await nif.fill('12345678A');
  await page.getByLabel(t.fields.alias).fill(alias);
  await page.getByRole('button', { name: t.addBankAccount.submit }).click();

  await expect(iban).toHaveAttribute('aria-invalid', 'true');
  await expect(iban).toBeFocused();
  await expect(page.getByText(t.validation.invalidIban)).toBeVisible();
  await expect(page.getByText(t.validation.invalidNif)).toBeVisible();
  await expect(page).toHaveURL(/\/add-bank-account$/);

  // Spec §5: errors clear as the customer types.
  await iban.fill('ES91 2100 0418 4502 0005 1332');
  await expect(page.getByText(t.validation.invalidIban)).toHaveCount(0);
  await expect(page.getByText(t.validation.invalidNif)).toBeVisible();
  // The entity comes from the IBAN's bank code.
  await expect(page.getByLabel(t.fields.entity)).toHaveValue('CaixaBank');
  await nif.fill('12345678Z');
  await expect(page.getByText(t.validation.invalidNif)).toHaveCount(0);
  // The SEPA mandate of the account (e2e/sepa-mandate.spec.ts tells its story).
  await page
    .getByRole('checkbox', {
      name: new RegExp(`^${escape(t.mandate.accept.split('{{')[0] ?? '')}`),
    })
    .check();
  await page.getByRole('button', { name: t.addBankAccount.submit }).click();

  await expect(page).toHaveURL(/\/bank-account\?id=/);
  await expect(page.getByRole('heading', { level: 1, name: alias })).toBeVisible();
  await expect(page.getByText(t.bankAccountView.added)).toBeVisible();
  await expect(page.getByText(t.status.unverified, { exact: true })).toBeVisible();
  const details = page.getByRole('region', { name: t.bankAccountView.details });
  await expect(details).toContainText('ES91 2100 0418 4502 0005 1332');
  await expect(details).toContainText('12345678Z');
  await expect(details).toContainText('CaixaBank');

  await page.getByRole('button', { name: t.bankAccountView.activate }).click();
  await expect(page.getByText(t.bankAccountView.activationPending)).toBeVisible();
  await expect(page.getByText(t.badges.verificationRequested)).toBeVisible();

  await openList(page);
  const item = itemOf(page, alias);
  await expect(item).toContainText(t.status.unverified);
  await expect(item).toContainText(t.badges.verificationRequested);
});

test.describe('deleting', () => {
  test('asks in a modal; cancel keeps it, delete removes it', async ({ page }) => {
    await signInThroughApi(page, account);
    const alias = unique('Borrar e2e');
    await addAccount(page, alias);
    await openList(page);
    const item = itemOf(page, alias);
    await expect(item).toBeVisible();

    const remove = item.getByRole('button', { name: fill(t.list.deleteMethod, { name: alias }) });
    await remove.click();
    let dialog = page.getByRole('dialog', { name: t.delete.title });
    await expect(dialog).toContainText(fill(t.delete.text, { name: alias }));
    await dialog.getByRole('button', { name: t.common.cancel }).click();
    await expect(dialog).toHaveCount(0);
    await expect(remove).toBeFocused();
    await expect(item).toBeVisible();

    await remove.click();
    dialog = page.getByRole('dialog', { name: t.delete.title });
    await dialog.getByRole('button', { name: t.delete.confirm }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByText(fill(t.list.deleted, { name: alias }))).toBeVisible();
    await expect(item).toHaveCount(0);
    // Gone on the server too.
    const { methods } = await api<{ methods: Method[] }>(page, account, 'GET', '/payment-methods');
    expect(methods.some((m) => m.alias === alias)).toBe(false);
  });

  test('the main method is refused, with the reason', async ({ page }) => {
    await signInThroughApi(page, account);
    await openList(page);
    const item = itemOf(page, seededMain);
    await expect(item).toContainText(t.badges.main);
    await item
      .getByRole('button', { name: fill(t.list.deleteMethod, { name: seededMain }) })
      .click();
    const dialog = page.getByRole('dialog', { name: t.delete.title });
    await dialog.getByRole('button', { name: t.delete.confirm }).click();
    await expect(dialog.getByRole('alert')).toHaveText(t.delete.errors.main);
    await expect(dialog.getByRole('button', { name: t.delete.confirm })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(item).toBeVisible();
  });
});

test('a main-method change is a request, then shown as pending', async ({ page }) => {
  await signInThroughApi(page, account);
  const alias = unique('Principal e2e');
  const method = await addAccount(page, alias);
  await page.goto(`${origin}/bank-account?id=${method.id}`);
  await expect(page.getByRole('heading', { level: 1, name: alias })).toBeVisible();

  const checkbox = page.getByRole('checkbox', { name: t.mainMethod.checkbox });
  await expect(checkbox).not.toBeChecked();
  await checkbox.click();
  const dialog = page.getByRole('dialog', { name: t.mainMethod.dialog.title });
  await expect(dialog).toContainText('Club Deportivo Las Encinas');
  // It never becomes checked by itself (behind the modal dialog the page is hidden from the
  // accessibility tree, hence includeHidden).
  await expect(
    page.getByRole('checkbox', { name: t.mainMethod.checkbox, includeHidden: true }),
  ).not.toBeChecked();
  await dialog.getByRole('button', { name: t.mainMethod.dialog.request }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText(t.mainMethod.pending)).toBeVisible();
  await expect(checkbox).not.toBeChecked();
  await expect(checkbox).toBeDisabled();

  await openList(page);
  const item = itemOf(page, alias);
  await expect(item).toContainText(t.badges.mainRequested);
  // The seeded main method is still the main one until the provider decides.
  await expect(itemOf(page, seededMain)).toContainText(t.badges.main);
});

test('bank transfer: the tenant account, the reference, the QR code and copy', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  await signInThroughApi(page, account);
  await page.goto(`${origin}/metodos-de-pago`);
  await page.getByRole('link', { name: new RegExp(escape(t.list.add.bankTransfer)) }).click();
  await expect(page).toHaveURL(`${origin}/add-bank-transfer`);
  await expect(
    page.getByRole('heading', { level: 1, name: t.bankTransfer.addTitle }),
  ).toBeVisible();

  const info = await api<{ iban: string; beneficiary: string; reference: string }>(
    page,
    account,
    'GET',
    '/payment-methods/bank-transfer',
  );
  const data = page.getByRole('region', { name: t.bankTransfer.accountTitle });
  await expect(data).toContainText(info.beneficiary);
  await expect(data).toContainText(info.iban);
  await expect(data).toContainText('Cliente LE-000123');
  await expect(
    page.getByRole('img', {
      name: new RegExp(`^Código QR de transferencia SEPA a ${escape(info.beneficiary)}`),
    }),
  ).toBeVisible();

  await data
    .getByRole('button', { name: fill(t.bankTransfer.copyLabel, { field: t.bankTransfer.iban }) })
    .click();
  await expect(data.getByText(t.bankTransfer.copied)).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    info.iban.replace(/\s/g, ''),
  );

  // The main-method modal: the transfer is asked for through the contact form.
  await page.getByRole('checkbox', { name: t.mainMethod.checkbox }).click();
  const dialog = page.getByRole('dialog', { name: t.mainMethod.dialog.title });
  await expect(dialog).toContainText(t.mainMethod.dialog.transfer);
  await dialog.getByRole('button', { name: t.common.understood }).click();

  // /datos-bancarios: the same data, read only.
  await page.goto(`${origin}/datos-bancarios`);
  await expect(
    page.getByRole('heading', { level: 1, name: t.bankTransfer.dataTitle }),
  ).toBeVisible();
  await expect(page.getByRole('region', { name: t.bankTransfer.accountTitle })).toContainText(
    info.iban,
  );
  await expect(page.getByRole('checkbox')).toHaveCount(0);
});

test('accessibility (axe): the list, its delete modal and the bank account form with errors, at 390x844 and 1280x800, light and dark', async ({
  page,
}) => {
  test.slow();
  await signInThroughApi(page, account);
  await openList(page);
  await expectNoViolationsAnywhere(page, 'list');

  await itemOf(page, seededMain)
    .getByRole('button', { name: fill(t.list.deleteMethod, { name: seededMain }) })
    .click();
  await expect(page.getByRole('dialog', { name: t.delete.title })).toBeVisible();
  await expectNoViolationsAnywhere(page, 'delete modal');
  await page.keyboard.press('Escape');

  await page.goto(`${origin}/add-bank-account`);
  await page.getByLabel(t.fields.iban, { exact: true }).fill('ES00 1234');
  await page.getByRole('button', { name: t.addBankAccount.submit }).click();
  await expect(page.getByText(t.validation.invalidIban)).toBeVisible();
  await expectNoViolationsAnywhere(page, 'bank account form with errors');
});
