import { readFileSync } from 'node:fs';
import { expectNoViolationsAnywhere } from './support/axe.ts';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { type Account, accounts, signInThroughApi } from './support/auth.ts';
import { commonTexts, fillText, notificationsTexts as t } from './support/texts.ts';

/**
 * The notification inbox and the header bell (spec §2 "Notifications", PRODUCT.md: real, stored
 * notifications), on the demo data: five notifications per customer, two of them unread.
 *
 * Other specs run at the same time with the same customers, and a card payment adds a notification
 * ("Pago recibido", unread) to its customer. So these journeys never count on a fixed total: they
 * compare the bell with what the server says at that moment, and act on the demo notifications by
 * their texts. Each journey keeps to its own customer, and only this file reads, marks or deletes
 * notifications.
 */

test.use({ locale: 'es-ES', timezoneId: 'Europe/Madrid' });

/** A first load waits longer: the lazy chunks and the list come while other specs run axe. */
const firstLoad = 15_000;

/** The server's shape: the portal's own come as type + params, the organisation's with texts. */
type ServerNote = {
  id: string;
  source: 'portal' | 'organisation';
  type: string;
  title?: string;
  message?: string;
  params?: Record<string, unknown>;
  isRead: boolean;
};

/** The customer's notifications as the server has them now, through the page's own session. */
async function serverNotes(
  page: Page,
  account: Account,
  filter: 'all' | 'read' | 'unread',
): Promise<ServerNote[]> {
  return page.evaluate(
    async ({ base, filter }) => {
      const { accessToken } = JSON.parse(localStorage.getItem('auth') ?? '{}') as {
        accessToken?: string;
      };
      const notes: ServerNote[] = [];
      for (let page = 1; ; page += 1) {
        const answer = await fetch(`${base}/notifications`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${accessToken}` },
          body: JSON.stringify({ filter, page: String(page) }),
        });
        const body = (await answer.json()) as { notifications: ServerNote[]; has_more: boolean };
        notes.push(...body.notifications);
        if (!body.has_more) return notes;
      }
    },
    { base: `/${account.tenant.id}/api/1.0`, filter },
  );
}

const bell = (page: Page) =>
  page.getByRole('banner').getByRole('link', { name: new RegExp(`^${t.title}`) });

/** The count the bell announces (0 when its name is just "Notificaciones"). */
async function bellCount(page: Page): Promise<number> {
  const label = (await bell(page).getAttribute('aria-label')) ?? '';
  const match = /(\d+)/.exec(label);
  return match ? Number(match[1]) : 0;
}

/**
 * The bell shows the server's unread count. A payment elsewhere may add one at any moment, so
 * this asks again until both agree (a window focus makes the bell ask too).
 */
async function expectBellToMatchServer(page: Page, account: Account): Promise<number> {
  let unread = -1;
  await expect(async () => {
    unread = (await serverNotes(page, account, 'unread')).length;
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    expect(await bellCount(page)).toBe(unread);
  }).toPass({ timeout: 15_000 });
  const name =
    unread > 0 ? fillText(commonTexts.nav.notificationsUnread_other, { count: unread }) : t.title;
  await expect(bell(page)).toHaveAttribute('aria-label', name);
  return unread;
}

/** The card of a demo notification, found by its message (payments reuse some titles). */
const card = (page: Page, message: string): Locator =>
  page.getByRole('article').filter({ hasText: message });

const demo = {
  newInvoice: 'Ya puedes consultar tu factura de este mes.',
  reminder: 'Tienes un recibo vencido pendiente de pago.',
  /** The demo's one notification of the portal itself (a payment, read), worded by the app. */
  paid: 'Hemos recibido tu pago de',
  hours: 'Durante las fiestas locales la instalación abrirá de 9:00 a 14:00.',
  welcome: 'Te damos la bienvenida a la oficina online',
};

test('the bell counts the unread, opens the inbox; filter unread; reading one lowers the count', async ({
  page,
}) => {
  const account = accounts.clienteOne;
  await signInThroughApi(page, account);
  await page.goto(`${account.tenant.origin}/home`);
  const before = await expectBellToMatchServer(page, account);
  expect(before).toBeGreaterThanOrEqual(2);
  await expect(bell(page)).toContainText(String(before));

  await bell(page).click();
  await expect(page).toHaveURL(`${account.tenant.origin}/my-notifications`);
  await expect(page.getByRole('heading', { level: 1, name: t.title })).toBeVisible();
  // Newest first, grouped by day: the demo's newest is from today (yesterday just after midnight).
  await expect(page.getByRole('heading', { level: 2 }).first()).toHaveText(
    new RegExp(`^(${t.groups.today}|${t.groups.yesterday})$`),
  );
  await expect(card(page, demo.newInvoice)).toBeVisible({ timeout: firstLoad });
  await expect(card(page, demo.welcome)).toBeVisible();

  const filters = page.getByRole('group', { name: t.filters.label });
  await filters.getByRole('button', { name: t.filters.unread, exact: true }).click();
  await expect(page).toHaveURL(/\?filter=unread$/);
  await expect(
    filters.getByRole('button', { name: t.filters.unread, exact: true }),
  ).toHaveAttribute('aria-pressed', 'true');
  await expect(card(page, demo.hours)).toHaveCount(0);
  const reminder = card(page, demo.reminder);
  await expect(reminder).toBeVisible();
  for (const article of await page.getByRole('article').all()) {
    await expect(article).toHaveAccessibleName(new RegExp(`\\(${t.item.unread}\\)$`));
  }

  const unreadBefore = (await serverNotes(page, account, 'unread')).map((n) => n.id);
  await reminder.getByRole('button', { name: new RegExp(`^${t.item.markRead}:`) }).click();
  await expect(
    page.getByRole('status').getByText(fillText(t.done.read_one, { count: 1 })),
  ).toBeVisible();
  await expect(reminder).toHaveCount(0);

  // On the server it is read, and the bell went down by one (plus any that arrived meanwhile).
  const after = await expectBellToMatchServer(page, account);
  const unreadAfter = (await serverNotes(page, account, 'unread')).map((n) => n.id);
  const arrived = unreadAfter.filter((id) => !unreadBefore.includes(id)).length;
  expect(after).toBe(unreadBefore.length - 1 + arrived);
  const read = await serverNotes(page, account, 'read');
  expect(read.some((n) => n.message === demo.reminder)).toBe(true);

  await filters.getByRole('button', { name: t.filters.read, exact: true }).click();
  await expect(card(page, demo.reminder)).toBeVisible();
  await expect(card(page, demo.reminder)).toHaveAccessibleName('Recordatorio de pago');
});

test('several are chosen and deleted after confirming; one is deleted at once', async ({
  page,
}) => {
  const account = accounts.segundoDemo;
  await signInThroughApi(page, account);
  // The demo's read ones: payments only ever add unread notifications, so this list is stable.
  await page.goto(`${account.tenant.origin}/my-notifications?filter=read`);
  await expect(card(page, demo.hours)).toBeVisible({ timeout: firstLoad });
  await expect(card(page, demo.welcome)).toBeVisible();
  const idsOf = async (message: string) =>
    (await serverNotes(page, account, 'all')).filter((n) => (n.message ?? '').startsWith(message));
  const [hours] = await idsOf(demo.hours);
  const [welcome] = await idsOf(demo.welcome);

  await page.getByRole('button', { name: t.selection.start, exact: true }).click();
  await card(page, demo.hours).getByRole('checkbox').check();
  await card(page, demo.welcome).getByRole('checkbox').check();
  await expect(page.getByText(fillText(t.selection.count_other, { count: 2 }))).toBeVisible();
  await page.getByRole('button', { name: t.selection.delete, exact: true }).click();

  const dialog = page.getByRole('dialog', {
    name: fillText(t.confirmDelete.title_other, { count: 2 }),
  });
  await expect(dialog).toBeVisible();
  // Cancelling deletes nothing.
  await dialog.getByRole('button', { name: t.confirmDelete.cancel }).click();
  await expect(dialog).toBeHidden();
  await expect(card(page, demo.hours)).toBeVisible();

  await page.getByRole('button', { name: t.selection.delete, exact: true }).click();
  await dialog.getByRole('button', { name: t.confirmDelete.confirm }).click();
  await expect(
    page.getByRole('status').getByText(fillText(t.done.deleted_other, { count: 2 })),
  ).toBeVisible();
  await expect(card(page, demo.hours)).toHaveCount(0);
  await expect(card(page, demo.welcome)).toHaveCount(0);
  const left = await serverNotes(page, account, 'all');
  expect(left.map((n) => n.id)).not.toContain(hours?.id);
  expect(left.map((n) => n.id)).not.toContain(welcome?.id);

  // One on its own: no question asked (spec §2 "Eliminar deletes one").
  const [paidNote] = (await serverNotes(page, account, 'read')).filter(
    (n) => n.source === 'portal' && n.type === 'payment_succeeded',
  );
  expect(paidNote).toBeDefined();
  const paid = card(page, demo.paid);
  await paid.getByRole('button', { name: new RegExp(`^${t.item.delete}:`) }).click();
  await expect(
    page.getByRole('status').getByText(fillText(t.done.deleted_one, { count: 1 })),
  ).toBeVisible();
  await expect(paid).toHaveCount(0);
  expect((await serverNotes(page, account, 'all')).map((n) => n.id)).not.toContain(paidNote?.id);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: t.title })).toBeVisible();
  await expect(card(page, demo.hours)).toHaveCount(0);
});

test('"Acceder" opens what the notification is about and marks it read', async ({ page }) => {
  const account = accounts.clienteDemo;
  await signInThroughApi(page, account);
  await page.goto(`${account.tenant.origin}/my-notifications`);
  const newInvoice = card(page, demo.newInvoice);
  await expect(newInvoice).toBeVisible({ timeout: firstLoad });
  await expect(newInvoice).toHaveAccessibleName(`Nueva factura disponible (${t.item.unread})`);
  await newInvoice.getByRole('link', { name: new RegExp(`^${t.item.open}:`) }).click();

  await expect(page).toHaveURL(`${account.tenant.origin}/invoices`);
  await expect(page.getByRole('heading', { level: 1, name: 'Mis facturas' })).toBeVisible();
  await expect
    .poll(
      async () =>
        (await serverNotes(page, account, 'all')).find((n) => n.message === demo.newInvoice)
          ?.isRead,
    )
    .toBe(true);
  await expectBellToMatchServer(page, account);
});

test('a list that cannot load says so and loads on retry', async ({ page }) => {
  const account = accounts.clienteDemo;
  await signInThroughApi(page, account);
  let failures = 0;
  await page.route(`**/${account.tenant.id}/api/1.0/notifications`, async (route) => {
    // react-query tries a failed call three times before it shows the error.
    if (failures < 3) {
      failures += 1;
      await route.abort('connectionrefused');
    } else {
      await route.continue();
    }
  });
  await page.goto(`${account.tenant.origin}/my-notifications`);
  const alert = page.getByRole('alert');
  await expect(alert).toContainText(t.list.loadError, { timeout: 20_000 });
  await alert.getByRole('button', { name: t.list.retry }).click();
  await expect(card(page, demo.welcome)).toBeVisible();
});

test('a payment notification reads in English when the app is in English', async ({ page }) => {
  const account = accounts.clienteOne;
  const en = JSON.parse(
    readFileSync(new URL('../apps/web/src/locales/en/notifications.json', import.meta.url), 'utf8'),
  ) as { title: string; payment: { succeeded: { title: string } } };
  await page.addInitScript(() => localStorage.setItem('language', 'en'));
  await signInThroughApi(page, account);
  await page.goto(`${account.tenant.origin}/my-notifications?filter=read`);
  await expect(page.getByRole('heading', { level: 1, name: en.title })).toBeVisible({
    timeout: firstLoad,
  });
  // The server sends its type and parameters only; the words, the amount and the invoice are the app's.
  const [note] = (await serverNotes(page, account, 'read')).filter(
    (n) => n.source === 'portal' && n.type === 'payment_succeeded',
  );
  expect(note).not.toHaveProperty('title');
  const invoices = (note?.params?.invoices ?? []) as string[];
  const cents = Number(note?.params?.amount_cents);
  const amount = new Intl.NumberFormat('es-ES', { style: 'currency', currency: 'EUR' }).format(
    cents / 100,
  );
  const paid = page.getByRole('article', { name: en.payment.succeeded.title });
  await expect(paid).toBeVisible();
  await expect(paid).toContainText(
    `We received your payment of ${amount} (${invoices.join(', ')})`,
  );
  await expect(page.getByText(/Pago recibido|Hemos recibido/)).toHaveCount(0);
});

test.describe('accessibility (axe), at 390x844 and 1280x800, light and dark', () => {
  const expectNoViolations = expectNoViolationsAnywhere;

  // Both tenants: another primary colour is another contrast.
  for (const account of [accounts.clienteDemo, accounts.clienteOne]) {
    test(`inbox, selection and confirmation, tenant ${account.tenant.id}`, async ({ page }) => {
      await signInThroughApi(page, account);
      await page.goto(`${account.tenant.origin}/my-notifications`);
      await expect(card(page, demo.welcome)).toBeVisible({ timeout: firstLoad });
      await expect(bell(page)).toHaveAttribute('aria-label', /sin leer|^Notificaciones$/);
      await expectNoViolations(page, 'inbox');

      await page.getByRole('button', { name: t.selection.start, exact: true }).click();
      await page.getByRole('checkbox', { name: t.selection.all }).check();
      await expectNoViolations(page, 'selecting');
      await page.getByRole('button', { name: t.selection.delete, exact: true }).click();
      await expect(page.getByRole('dialog', { name: /\?$/ })).toBeVisible();
      await expectNoViolations(page, 'confirmation');
      // Nothing is deleted: this test only looks.
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog', { name: /\?$/ })).toBeHidden();
    });
  }
});
