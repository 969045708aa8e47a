import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import type paymentMethodsJson from '../apps/web/src/locales/es/payment-methods.json';
import { accounts, signInThroughApi, storedAuth } from './support/auth.ts';
import { expectNoViolationsAnywhere } from './support/axe.ts';

/**
 * Auto-pay with the card on file (issue 23, item 2): on the seeded saved card's view the customer
 * turns "Pago automático" on, sees the instalments it will pay and the next charge, and turns it
 * off; the server's refusals and a failed load are said on the screen.
 *
 * Signs in as tenant demo's `segundo@demo.test` (the demo tenant offers auto-pay): no other spec
 * touches this customer's card, and the journey leaves auto-pay off as it found it.
 */

type Texts = typeof paymentMethodsJson;
const t = JSON.parse(
  readFileSync(new URL('../apps/web/src/locales/es/payment-methods.json', import.meta.url), 'utf8'),
) as Texts;
const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, key: string) => values[key] ?? '');

const account = accounts.segundoDemo;
const origin = account.tenant.origin;

type AutoPay = {
  card_id: string | null;
  instalments: { invoice_id: string; seq: number; due_date: string }[];
  next_charge_date: string | null;
  notice_days: number;
};

/** A call from the page itself (demo.localhost resolves in the browser only). */
async function api<T>(page: Page, method: 'GET' | 'PUT', path: string, body?: unknown) {
  const { accessToken } = await storedAuth(page);
  const answer = await page.evaluate(
    async ({ url, method, token, body }) => {
      const response = await fetch(url, {
        method,
        headers: {
          Authorization: `Bearer ${token}`,
          Accept: 'application/json',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, json: (await response.json()) as unknown };
    },
    { url: `/${account.tenant.id}/api/1.0${path}`, method, token: accessToken, body },
  );
  expect(answer.status, path).toBe(200);
  return answer.json as T;
}

/** yyyymmdd -> dd/mm/yyyy, as the screen shows dates. */
const shown = (date: string) => `${date.slice(6, 8)}/${date.slice(4, 6)}/${date.slice(0, 4)}`;

/** Signs in and opens the seeded card's view with auto-pay off. */
async function openCard(page: Page) {
  await signInThroughApi(page, account);
  const { methods } = await api<{ methods: { id: string; kind: string }[] }>(
    page,
    'GET',
    '/payment-methods',
  );
  const card = methods.find((m) => m.kind === 'card');
  if (!card) throw new Error('the demo customer has no saved card');
  await api(page, 'PUT', `/payment-methods/${card.id}/auto-pay`, { enabled: false });
  await page.goto(`${origin}/credit-card?id=${card.id}`);
  const section = page.getByRole('region', { name: t.autoPay.title });
  const toggle = section.getByRole('switch', { name: t.autoPay.title });
  await expect(toggle).toBeVisible();
  return { card, section, toggle };
}

test.use({ locale: 'es-ES' });
test.describe.configure({ mode: 'serial' });

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`turns auto-pay on for the saved card, lists what it will pay, and off (${viewport.width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    const { card, section, toggle } = await openCard(page);
    await expect(toggle).not.toBeChecked();
    await expect(section).toContainText(t.autoPay.description);

    await toggle.click();
    await expect(toggle).toBeChecked();
    const state = await api<AutoPay>(page, 'GET', '/user/auto-pay');
    expect(state.card_id).toBe(card.id);
    await expect(section).toContainText(
      fill(t.autoPay.notice, { days: String(state.notice_days) }),
    );
    if (state.next_charge_date) {
      await expect(section.getByTestId('auto-pay-next')).toHaveText(
        fill(t.autoPay.nextCharge, { date: shown(state.next_charge_date) }),
      );
      const list = section.getByRole('list', { name: t.autoPay.covers });
      for (const i of state.instalments.slice(0, 5)) {
        await expect(list).toContainText(
          fill(t.autoPay.instalment, { invoice: i.invoice_id, seq: String(i.seq) }),
        );
        await expect(list).toContainText(fill(t.autoPay.due, { date: shown(i.due_date) }));
      }
    } else {
      await expect(section).toContainText(t.autoPay.none);
    }
    // Still on after a reload: the server keeps it.
    await page.reload();
    await expect(toggle).toBeChecked();
    if (viewport.width === 1280) await expectNoViolationsAnywhere(page, 'auto-pay on');

    await toggle.click();
    await expect(toggle).not.toBeChecked();
    await expect(section).toContainText(t.autoPay.turnedOff);
    await expect(section.getByRole('list', { name: t.autoPay.covers })).toHaveCount(0);
    expect((await api<AutoPay>(page, 'GET', '/user/auto-pay')).card_id).toBeNull();
  });
}

test('says why the server refused, and offers a retry when it cannot load', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const { section, toggle } = await openCard(page);

  // The card turns out unusable for charges without the customer (no COF transaction id).
  await page.route('**/payment-methods/*/auto-pay', (route) =>
    route.fulfill({
      status: 409,
      contentType: 'application/json',
      body: JSON.stringify({ code: 'auto_pay_card_unsupported', message: 'x' }),
    }),
  );
  await toggle.click();
  await expect(section.getByRole('alert')).toHaveText(t.autoPay.noCof);
  await expect(toggle).not.toBeChecked();
  await page.unroute('**/payment-methods/*/auto-pay');

  let failing = true;
  await page.route('**/user/auto-pay', (route) =>
    failing
      ? route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ code: 'internal_error', message: 'x' }),
        })
      : route.continue(),
  );
  await page.reload();
  await expect(section.getByRole('alert')).toContainText(t.autoPay.loadError, { timeout: 15_000 });
  failing = false;
  await section.getByRole('button', { name: t.autoPay.retry }).click();
  await expect(toggle).not.toBeChecked();
});
