import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, type Locator, type Page, test } from '@playwright/test';
import type paymentMethodsJson from '../apps/web/src/locales/es/payment-methods.json';
import { accounts, signInThroughApi, storedAuth } from './support/auth.ts';
import { expectNoViolations, type ScreenVariant, showAs } from './support/axe.ts';

/**
 * Issue 23, item 6: adding a bank account for direct debit signs its SEPA Core mandate in the
 * portal. The mandate shows the creditor (name, address, identifier), the debtor and IBAN typed,
 * "Pago recurrente" and the standard text; nothing is saved without the explicit acceptance; the
 * signed mandate is listed with its PDF; changing the account signs a new one and marks the old
 * one replaced. At 390x844 and 1280x800, axe in light and dark on the mandate form and the list.
 *
 * Tenant demo's `cliente@demo.test`: no other spec counts its bank accounts (payments-checkout
 * counts cards); each journey deletes the accounts it adds (their mandates end revoked), so the
 * customer stays under the cap of saved methods.
 */
test.use({ locale: 'es-ES' });
// Both sizes sign for the same customer: one after the other, so each sees only its own mandates.
test.describe.configure({ mode: 'serial', timeout: 180_000 });

type Texts = typeof paymentMethodsJson;
const t = JSON.parse(
  readFileSync(new URL('../apps/web/src/locales/es/payment-methods.json', import.meta.url), 'utf8'),
) as Texts;

const account = accounts.clienteDemo;
const origin = account.tenant.origin;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, key: string) => values[key] ?? '');
const acceptLabel = new RegExp(`^${escape(t.mandate.accept.split('{{')[0] ?? '')}`);

const galleryDir = fileURLToPath(new URL('./screenshots/', import.meta.url));
const takeScreenshots = process.env.GALLERY_SCREENSHOTS === '1';
if (takeScreenshots) mkdirSync(galleryDir, { recursive: true });

const ibanA = 'ES91 2100 0418 4502 0005 1332';
const ibanB = 'ES79 2100 0813 6101 2345 6789';

type Mandate = {
  id: string;
  reference: string;
  status: string;
  iban: string;
  payment_method_id: string | null;
};

/** A call of the signed-in customer, from the page (demo.localhost resolves only in Chromium). */
async function api(
  page: Page,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<{ status: number; json: unknown }> {
  const { accessToken } = await storedAuth(page);
  const url = `/${account.tenant.id}/api/1.0${path}`;
  return page.evaluate(
    async ({ url, method, token, body }) => {
      const answer = await fetch(url, {
        method,
        headers: {
          Authorization: `Bearer ${token ?? ''}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await answer.text();
      return { status: answer.status, json: text ? (JSON.parse(text) as unknown) : null };
    },
    { url, method, token: accessToken, body },
  );
}

async function mandates(page: Page): Promise<Mandate[]> {
  const answer = await api(page, 'GET', '/sepa-mandates');
  expect(answer.status).toBe(200);
  return (answer.json as { mandates: Mandate[] }).mandates;
}

/** Light and dark at the journey's size: axe on each, and a picture for the gallery. */
async function checkThemes(page: Page, name: string, size: { width: number; height: number }) {
  for (const colorScheme of ['light', 'dark'] as const) {
    const variant: ScreenVariant = { ...size, colorScheme };
    await showAs(page, variant);
    await expectNoViolations(page, `${name} ${size.width} ${colorScheme}`);
    if (takeScreenshots)
      await page.screenshot({
        path: `${galleryDir}${name}-${size.width}-${colorScheme}.png`,
        fullPage: true,
      });
  }
  await showAs(page, { ...size, colorScheme: 'light' });
}

async function fillAccount(page: Page, iban: string, alias: string) {
  await page.getByLabel(t.fields.iban, { exact: true }).fill(iban);
  await page.getByLabel(t.fields.holder, { exact: true }).fill('Laura García Martín');
  await page.getByLabel(t.fields.nif).fill('12345678Z');
  await page.getByLabel(t.fields.alias).fill(alias);
}

function mandateItem(page: Page, reference: string): Locator {
  return page
    .getByRole('list', { name: t.mandate.listTitle })
    .getByRole('article', { name: reference });
}

for (const size of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`${size.width}x${size.height}: a bank account signs its SEPA mandate, refused without acceptance; its PDF; a new account replaces it`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    await signInThroughApi(page, account);
    const before = new Set((await mandates(page)).map((m) => m.id));
    const alias = `Domiciliación ${size.width} ${Date.now()}`;

    // The server refuses an account without the acceptance too (422 mandate_required).
    const refused = await api(page, 'POST', '/payment-methods/bank-account', {
      iban: ibanA,
      holder: 'Laura García Martín',
      nif: '12345678Z',
    });
    expect(refused.status).toBe(422);
    expect((refused.json as { errors: object }).errors).toEqual({
      mandate_accepted: ['mandate_required'],
    });

    // The mandate to sign, with the account's data as typed.
    await page.goto(`${origin}/add-bank-account`);
    const terms = page.getByRole('region', { name: t.mandate.title });
    await expect(terms).toBeVisible({ timeout: 15_000 });
    await fillAccount(page, ibanA, alias);
    await expect(terms).toContainText(t.mandate.legal.slice(0, 80));
    await expect(terms).toContainText(t.mandate.recurrent);
    await expect(terms).toContainText(/ES\d{2}ZZZ[A-Z0-9]+/);
    await expect(terms).toContainText('Laura García Martín');
    await expect(terms).toContainText(ibanA);

    // Without the acceptance nothing is sent.
    let posts = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/payment-methods/bank-account'))
        posts += 1;
    });
    await page.getByRole('button', { name: t.addBankAccount.submit }).click();
    const accept = page.getByRole('checkbox', { name: acceptLabel });
    await expect(page.getByText(t.mandate.required)).toBeVisible();
    await expect(accept).toBeFocused();
    await expect(accept).toHaveAttribute('aria-invalid', 'true');
    await expect(page).toHaveURL(/\/add-bank-account$/);
    expect(posts).toBe(0);
    await checkThemes(page, 'sepa-mandate-form', size);

    await accept.check();
    await expect(page.getByText(t.mandate.required)).toHaveCount(0);
    await page.getByRole('button', { name: t.addBankAccount.submit }).click();
    await expect(page).toHaveURL(/\/bank-account\?id=/);
    expect(posts).toBe(1);
    const first = (await mandates(page)).find((m) => !before.has(m.id));
    expect(first).toMatchObject({ status: 'active', iban: ibanA });
    const firstReference = first?.reference ?? '';

    // Listed with its state, and its PDF downloads.
    await page.goto(`${origin}/metodos-de-pago`);
    const firstItem = mandateItem(page, firstReference);
    await expect(firstItem).toContainText(t.mandate.states.active);
    await expect(firstItem).toContainText(ibanA);
    const downloading = page.waitForEvent('download');
    await firstItem
      .getByRole('button', { name: fill(t.mandate.downloadPdf, { reference: firstReference }) })
      .click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`${firstReference}.pdf`);
    const pdf = readFileSync(await download.path());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');

    // Another account: a new mandate, the old one replaced.
    await page.goto(`${origin}/add-bank-account`);
    await expect(page.getByRole('region', { name: t.mandate.title })).toBeVisible({
      timeout: 15_000,
    });
    await fillAccount(page, ibanB, `${alias} B`);
    await page.getByRole('checkbox', { name: acceptLabel }).check();
    await page.getByRole('button', { name: t.addBankAccount.submit }).click();
    await expect(page).toHaveURL(/\/bank-account\?id=/);
    const now = await mandates(page);
    const second = now.find((m) => !before.has(m.id) && m.id !== first?.id);
    expect(second).toMatchObject({ status: 'active', iban: ibanB });
    expect(now.find((m) => m.id === first?.id)?.status).toBe('replaced');
    expect(now.filter((m) => m.status === 'active')).toHaveLength(1);

    await page.goto(`${origin}/metodos-de-pago`);
    await expect(mandateItem(page, second?.reference ?? '')).toContainText(t.mandate.states.active);
    const replaced = mandateItem(page, firstReference);
    await expect(replaced).toContainText(t.mandate.states.replaced);
    await expect(replaced).toContainText(
      fill(t.mandate.replacedBy, { reference: second?.reference ?? '' }),
    );
    await replaced.scrollIntoViewIfNeeded();
    await checkThemes(page, 'sepa-mandates-list', size);

    // The journey's accounts go (their mandates end revoked): the customer stays under the cap.
    for (const m of [first, second]) {
      if (!m?.payment_method_id) continue;
      const gone = await api(page, 'DELETE', `/payment-methods/${m.payment_method_id}`);
      expect(gone.status).toBe(200);
    }
    expect((await mandates(page)).filter((m) => m.id === second?.id)[0]?.status).toBe('revoked');
  });
}

/**
 * Issue 23, item 6: the demo seed's bank account was saved before mandates existed. Its card
 * offers "Firmar mandato SEPA", which opens the same terms for the saved IBAN (nothing typed
 * again); signing it lists its mandate and the action goes. Tenant demo's `segundo@demo.test`: no
 * other spec looks at its bank account's mandate (tenant 1's has its password changed by
 * auth-recovery.spec.ts, which may run first).
 */
test('a bank account saved before mandates signs its mandate from its card, without the IBAN', async ({
  page,
}) => {
  const who = accounts.segundoDemo;
  const home = who.tenant.origin;
  await signInThroughApi(page, who);
  const sign = page.getByRole('link', { name: /Firmar mandato SEPA/ });
  for (const size of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(size);
    await page.goto(`${home}/metodos-de-pago`);
    await expect(sign).toHaveCount(1, { timeout: 15_000 });
    await expect(sign).toHaveText(t.list.signMandate);
    await expect(page.getByText(t.list.noMandate)).toBeVisible();
    await sign.scrollIntoViewIfNeeded();
    await checkThemes(page, 'sepa-mandate-card', size);
  }

  await sign.click();
  await expect(page).toHaveURL(/\/firmar-mandato\?id=/);
  await expect(page.getByRole('heading', { level: 1, name: t.signMandate.title })).toBeVisible();
  const terms = page.getByRole('region', { name: t.mandate.title });
  await expect(terms).toContainText(/ES\d{2}ZZZ[A-Z0-9]+/);
  await expect(terms).toContainText(/ES\d{2}( \d{4}){5}/);
  await expect(page.getByLabel(t.fields.iban, { exact: true })).toHaveCount(0);
  const submit = page.getByRole('button', { name: t.signMandate.submit });
  await submit.click();
  await expect(page.getByText(t.signMandate.required)).toBeVisible();
  for (const size of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(size);
    await checkThemes(page, 'sepa-mandate-sign', size);
  }

  await page.getByRole('checkbox', { name: acceptLabel }).check();
  await submit.click();
  await expect(page).toHaveURL(/\/metodos-de-pago$/);
  await expect(page.getByRole('status').getByText(/Has firmado la orden/)).toBeVisible();
  await expect(sign).toHaveCount(0);
  const signed = page
    .getByRole('list', { name: t.mandate.listTitle })
    .getByRole('article')
    .filter({ hasText: t.mandate.states.active });
  await expect(signed).toHaveCount(1);
});
