import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { demoPassword, signInThroughApi } from './support/auth.ts';
import { expectNoViolations, showAs } from './support/axe.ts';
import { e2ePort } from './support/env.ts';
import { useOwnPortal } from './support/own-portal.ts';

/**
 * Issue 23, item 7 "Ask about this invoice", end to end: from an invoice the customer asks (an
 * empty question is refused first), the organisation answers through the ingestion API (called
 * here as its software would), the customer gets an e-mail, sees the conversation marked unread
 * under "Mis consultas" (reached from the menu), opens it (no longer unread), replies; once the
 * organisation closes it, the reply box is gone. At 390x844 and 1280x800, each with its customer.
 *
 * The main e2e server has no API key (the admin CLI cannot open its embedded database while it
 * runs), so this spec runs a portal of its own: started once to seed the demo, stopped while the
 * CLI makes a key, started again.
 */

const shots = fileURLToPath(new URL('./screenshots/', import.meta.url));
const takeScreenshots = process.env.GALLERY_SCREENSHOTS === '1';

test.describe.configure({ mode: 'serial' });
test.use({ locale: 'es-ES' });

const port = Number(process.env.E2E_THREADS_PORT ?? e2ePort + 70);
const portal = useOwnPortal({
  port,
  smtpPort: Number(process.env.E2E_THREADS_SMTP_PORT ?? e2ePort + 75),
  tenant: 'demo',
  // Seeded by the portal itself, then a key made by the operator's CLI while it is stopped.
  seedDemo: true,
  env: { PUBLIC_URL: `http://localhost:${port}`, AUTH_LIMIT_SCALE: '20' },
});
const { tenant, origin, call } = portal;

type ThreadsTexts = {
  list: Record<'title' | 'new' | 'invoice', string>;
  thread: Record<'title' | 'closed' | 'you', string>;
  form: Record<'label' | 'send', string>;
  invoice: Record<'ask' | 'view', string>;
  errors: Record<'required', string>;
};
const t = JSON.parse(
  readFileSync(new URL('../apps/web/src/locales/es/threads.json', import.meta.url), 'utf8'),
) as ThreadsTexts;
const common = JSON.parse(
  readFileSync(new URL('../apps/web/src/locales/es/common.json', import.meta.url), 'utf8'),
) as {
  nav: { openMenu: string; openMenuUnreadThreads_one: string };
  menu: { invoiceThreads: string; invoiceThreadsUnread_one: string };
};
const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => values[key] ?? '');

/** The screen at every theme of its size, scanned by axe, and pictured when asked. */
async function lookAt(page: Page, name: string, width: number, height: number) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await showAs(page, { width, height, colorScheme });
    await expectNoViolations(page, `${name} ${width} ${colorScheme}`);
    const overflow = await page.evaluate(() => {
      const root = document.scrollingElement ?? document.documentElement;
      return root.scrollWidth - root.clientWidth;
    });
    expect(overflow, `${name}: wider than the screen`).toBeLessThanOrEqual(0);
    if (takeScreenshots) {
      mkdirSync(shots, { recursive: true });
      await page.screenshot({
        path: `${shots}${name}-${width}-${colorScheme}.png`,
        fullPage: true,
      });
    }
  }
}

const journeys = [
  { width: 390, height: 844, email: 'cliente@demo.test' },
  { width: 1280, height: 800, email: 'segundo@demo.test' },
] as const;

for (const { width, height, email } of journeys) {
  test(`at ${width}x${height}: ask from an invoice, the organisation answers, unread until opened, reply`, async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width, height });
    await signInThroughApi(page, { tenant: { id: tenant, origin }, email, password: demoPassword });

    // An invoice of the customer, from the list.
    await page.goto(`${origin}/invoices`);
    const first = page.locator('a[href^="/invoice-detail/"]').first();
    await expect(first).toBeVisible({ timeout: 15_000 });
    await first.click();
    await expect(page).toHaveURL(/\/invoice-detail\//);
    const invoiceId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');

    // Ask: an empty question is refused in the page, then the real one opens the conversation.
    await page.getByRole('button', { name: t.invoice.ask }).click();
    const box = page.getByRole('textbox', { name: t.form.label });
    await expect(box).toBeFocused();
    await page.getByRole('button', { name: t.form.send }).click();
    await expect(page.getByText(t.errors.required)).toBeVisible();
    const question = `¿Por qué la factura ${invoiceId} sube este mes? (${width})`;
    await box.fill(question);
    await page.getByRole('button', { name: t.form.send }).click();
    await expect(page).toHaveURL(/\/consultas\/[0-9a-f-]{36}$/);
    const threadId = new URL(page.url()).pathname.split('/').pop() ?? '';
    await expect(
      page.getByRole('heading', { level: 1, name: fill(t.thread.title, { invoice: invoiceId }) }),
    ).toBeVisible();
    await expect(page.getByText(question)).toBeVisible();

    // The organisation's list counts the question as unread until it answers.
    const unreadForOrganisation = async () => {
      const res = await call('GET', '/admin/invoice-threads?unread=true');
      expect(res.status).toBe(200);
      return (res.json as { threads: { id: string; unread: number }[] }).threads;
    };
    expect(await unreadForOrganisation()).toContainEqual(
      expect.objectContaining({ id: threadId, unread: 1 }),
    );
    // Someone there reads it before answering: the customer sees it was read.
    expect((await call('POST', `/admin/invoice-threads/${threadId}/read`)).status).toBe(200);
    expect((await unreadForOrganisation()).map((thread) => thread.id)).not.toContain(threadId);
    await page.reload();
    await expect(page.getByText(/^Leído por /)).toBeVisible();
    await lookAt(page, 'invoice-thread-read', width, height);

    // The organisation answers through the ingestion API.
    const answer = 'Incluye la matrícula del trimestre. Un saludo.';
    const answered = await call('POST', `/admin/invoice-threads/${threadId}/messages`, {
      message: answer,
      author_name: 'Laura, administración',
    });
    expect(answered.status).toBe(201);
    const mail = await portal.smtp.waitFor(email, 30_000, 'invoice-thread-answer');
    expect(mail.raw).toContain(`/consultas/${threadId}`);

    // "Mis consultas", from the menu, which counts it (and says so on the menu button): the
    // conversation is marked as having a new answer.
    await page.goto(`${origin}/home`);
    await page
      .getByRole('button', { name: fill(common.nav.openMenuUnreadThreads_one, { count: '1' }) })
      .click();
    const menuEntry = page.getByRole('link', {
      name: fill(common.menu.invoiceThreadsUnread_one, { count: '1' }),
    });
    await expect(menuEntry).toContainText('1');
    await lookAt(page, 'menu-threads-unread', width, height);
    await menuEntry.click();
    await expect(page.getByRole('heading', { level: 1, name: t.list.title })).toBeVisible();
    const item = page.getByRole('link', {
      name: new RegExp(invoiceId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
    });
    await expect(item.getByText(t.list.new)).toBeVisible();
    await lookAt(page, 'invoice-threads-unread', width, height);

    // Opened, it shows the answer, and is no longer unread.
    await item.click();
    await expect(page.getByText(answer)).toBeVisible();
    await expect(page.getByText('Laura, administración', { exact: false })).toBeVisible();
    await lookAt(page, 'invoice-thread', width, height);
    await page.goBack();
    await expect(page.getByRole('heading', { level: 1, name: t.list.title })).toBeVisible();
    await expect(item).toBeVisible();
    await expect(item.getByText(t.list.new)).toHaveCount(0);
    // Read: the menu counts nothing any more.
    await page.getByRole('button', { name: common.nav.openMenu, exact: true }).click();
    await expect(
      page.getByRole('link', { name: common.menu.invoiceThreads, exact: true }),
    ).toBeVisible();
    await page.keyboard.press('Escape');

    // Reply.
    await item.click();
    const reply = `Gracias, entendido (${width}).`;
    await page.getByRole('textbox', { name: t.form.label }).fill(reply);
    await page.getByRole('button', { name: t.form.send }).click();
    await expect(page.getByText(reply)).toBeVisible();
    await expect(page.getByRole('textbox', { name: t.form.label })).toHaveValue('');

    // The invoice now offers the conversation instead of a new question.
    await page.goto(`${origin}/invoice-detail/${encodeURIComponent(invoiceId)}`);
    await expect(page.getByRole('link', { name: t.invoice.view })).toBeVisible();
    await expect(page.getByRole('button', { name: t.invoice.ask })).toHaveCount(0);

    // Closed by the organisation: read-only.
    expect((await call('POST', `/admin/invoice-threads/${threadId}/close`)).status).toBe(200);
    await page.goto(`${origin}/consultas/${threadId}`);
    await expect(page.getByText(t.thread.closed)).toBeVisible();
    await expect(page.getByRole('textbox', { name: t.form.label })).toHaveCount(0);
  });
}

test('another customer cannot open the conversation: it is "not found"', async ({ page }) => {
  const listed = await call('GET', '/admin/invoice-threads?limit=1');
  const [thread] = (listed.json as { threads: { id: string; customer_code: string }[] }).threads;
  if (!thread) throw new Error('no conversation to probe');
  // The newest is the desktop journey's (segundo); the phone journey's customer tries it.
  await signInThroughApi(page, {
    tenant: { id: tenant, origin },
    email: 'cliente@demo.test',
    password: demoPassword,
  });
  await page.goto(`${origin}/consultas/${thread.id}`);
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page.getByText('Laura, administración')).toHaveCount(0);
});
