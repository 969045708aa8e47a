import { expectNoViolations, expectNoViolationsAnywhere } from './support/axe.ts';
import { expect, type Page, test } from '@playwright/test';
import type { ReceivedMail } from '../tools/test-smtp.ts';
import { accounts, signInThroughApi } from './support/auth.ts';
import { type Smtp, takeSmtp } from './support/smtp.ts';
import { contactTexts as t, fillText } from './support/texts.ts';

/**
 * The contact form (spec §2 "Contact", §5; PRODUCT.md: stored, e-mailed to the organisation's
 * mailbox with a copy to the customer, rate limited), end to end on the demo tenant `demo`.
 */

test.use({ locale: 'es-ES' });

const account = accounts.clienteDemo;
const origin = account.tenant.origin;
/** The demo tenant's mailbox (apps/api/src/db/seed/demo.ts). */
const mailbox = 'secretaria@demofitness.test';

/** A message to `to` that contains `text` (the same customer also gets payment receipts). */
async function mailTo(smtp: Smtp, to: string, text: string, ms = 20_000): Promise<ReceivedMail> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = smtp.inbox.find((m) => m.to.includes(to) && m.raw.includes(text));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no e-mail to ${to} with "${text}" within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const privacy = (page: Page) => page.getByRole('checkbox', { name: t.fields.acceptPrivacy });
const submit = (page: Page) => page.getByRole('button', { name: t.submit });

async function fillForm(page: Page, subject: string, message: string) {
  await field(page, t.fields.name).fill('Laura García');
  await field(page, t.fields.company).fill('Particular');
  await field(page, t.fields.subject).fill(subject);
  await field(page, t.fields.message).fill(message);
  await privacy(page).check();
}

/** Counts the calls to `/contact` the page makes. */
function countContactCalls(page: Page): () => number {
  let calls = 0;
  page.on('request', (request) => {
    if (request.url().endsWith(`/${account.tenant.id}/api/1.0/contact`)) calls += 1;
  });
  return () => calls;
}

test.beforeEach(async ({ page }) => {
  await signInThroughApi(page, account);
});

test('the page says how else to reach the club: its mailbox and its telephone (review #18)', async ({
  page,
}) => {
  await page.goto(`${origin}/contacto`);
  await expect(page.getByText(t.clubEmail)).toBeVisible();
  await expect(page.getByRole('link', { name: mailbox })).toHaveAttribute(
    'href',
    `mailto:${mailbox}`,
  );
  await expect(page.getByText(t.clubPhone)).toBeVisible();
  await expect(page.getByRole('link', { name: '+34 930 000 007' })).toHaveAttribute(
    'href',
    'tel:+34930000007',
  );
});

test("a message reaches the organisation's mailbox, and the customer gets a notice", async ({
  page,
}) => {
  await page.goto(`${origin}/contacto`);
  await expect(page.getByRole('heading', { level: 1, name: t.title })).toBeVisible({
    timeout: 15_000,
  });
  // An ASCII mark of this run, to find its e-mails among others.
  const mark = `E2E-${Date.now().toString(36)}`;
  await fillForm(page, `Horario de agosto ${mark}`, `Abris en agosto? ${mark}`);

  const smtp = await takeSmtp();
  try {
    await submit(page).click();
    await expect(page.getByRole('heading', { name: t.success.title })).toBeFocused();
    const toOrganisation = await mailTo(smtp, mailbox, mark);
    expect(toOrganisation.raw).toContain(`Horario de agosto ${mark}`);
    expect(toOrganisation.raw).toContain(`Abris en agosto? ${mark}`);
    expect(toOrganisation.raw).toContain(account.email);
    // The notice, from the organisation's address, repeats nothing the customer wrote, not even the
    // subject (session 37): it is found by its own words.
    const copy = await mailTo(smtp, account.email, 'Hemos recibido tu mensaje');
    expect(copy.raw).not.toContain(mark);
  } finally {
    await smtp.close();
  }

  await expect(page.getByRole('link', { name: t.success.backToHome })).toHaveAttribute(
    'href',
    '/home',
  );
  await expectNoViolations(page, 'success');

  // "Send new message": a fresh, empty form.
  await page.getByRole('button', { name: t.success.sendNew }).click();
  // The signed-in customer's name stays filled in (review #18); the rest is empty again.
  await expect(field(page, t.fields.name)).not.toHaveValue('');
  for (const label of [t.fields.company, t.fields.subject, t.fields.message]) {
    await expect(field(page, label)).toHaveValue('');
  }
  await expect(privacy(page)).not.toBeChecked();
});

test('empty fields show the errors of spec §5, and nothing is sent', async ({ page }) => {
  const calls = countContactCalls(page);
  await page.goto(`${origin}/contacto`);
  await field(page, t.fields.subject).fill('   ');
  await submit(page).click();

  // The name comes filled in for a signed-in customer (review #18): the other three are empty.
  await expect(field(page, t.fields.name)).not.toHaveValue('');
  for (const label of [t.fields.company, t.fields.subject, t.fields.message]) {
    await expect(field(page, label)).toHaveAttribute('aria-invalid', 'true');
    await expect(field(page, label)).toHaveAccessibleDescription(
      new RegExp(`^${t.validation.required}`),
    );
  }
  await expect(privacy(page)).toHaveAccessibleDescription(t.validation.privacyRequired);
  await expect(page.getByText(t.validation.required, { exact: true })).toHaveCount(3);
  await expect(field(page, t.fields.company)).toBeFocused();
  expect(calls()).toBe(0);
});

test('an over-long message is refused clearly and kept whole', async ({ page }) => {
  const calls = countContactCalls(page);
  await page.goto(`${origin}/contacto`);
  const long = 'x'.repeat(5001);
  await fillForm(page, 'Un mensaje muy largo', long);

  const tooLong = fillText(t.validation.tooLong, { max: 5000, count: 5001 });
  await expect(page.getByText(tooLong)).toBeVisible();
  await expect(
    page.getByText(fillText(t.fields.characters, { count: 5001, max: 5000 })),
  ).toBeVisible();
  await submit(page).click();
  await expect(field(page, t.fields.message)).toBeFocused();
  await expect(field(page, t.fields.message)).toHaveAttribute('aria-invalid', 'true');
  await expect(field(page, t.fields.message)).toHaveValue(long);
  expect(calls()).toBe(0);

  // One character less, and it goes.
  await field(page, t.fields.message).press('End');
  await field(page, t.fields.message).press('Backspace');
  await expect(page.getByText(tooLong)).toHaveCount(0);
});

test('no connection and too many messages are said clearly; what was typed stays', async ({
  page,
}) => {
  await page.goto(`${origin}/contacto`);
  await fillForm(page, 'Sin conexión', 'Probando la conexión');
  const contactUrl = `**/${account.tenant.id}/api/1.0/contact`;

  await page.route(contactUrl, (route) => route.abort('internetdisconnected'));
  await submit(page).click();
  await expect(page.getByRole('alert')).toHaveText(t.errors.network);

  await page.unroute(contactUrl);
  await page.route(contactUrl, (route) =>
    route.fulfill({
      status: 429,
      contentType: 'application/json',
      headers: { 'Retry-After': '1500' },
      body: JSON.stringify({ message: 'Too many messages', code: 'rate_limited' }),
    }),
  );
  await submit(page).click();
  await expect(page.getByRole('alert')).toHaveText(
    fillText(t.errors.rateLimited_other, { count: 25 }),
  );

  await expect(field(page, t.fields.name)).toHaveValue('Laura García');
  await expect(field(page, t.fields.subject)).toHaveValue('Sin conexión');
  await expect(field(page, t.fields.message)).toHaveValue('Probando la conexión');
  await expect(privacy(page)).toBeChecked();
});

test('accessibility (axe): the form, empty and with errors, at 390x844 and 1280x800, light and dark', async ({
  page,
}) => {
  await page.goto(`${origin}/contacto`);
  await expect(page.getByRole('form', { name: t.formLabel })).toBeVisible({ timeout: 15_000 });
  await expectNoViolationsAnywhere(page, 'empty form');
  await submit(page).click();
  await expect(page.getByText(t.validation.privacyRequired)).toBeVisible();
  await expectNoViolationsAnywhere(page, 'form with errors');
});
