import { expect, test } from '@playwright/test';
import { expectNoViolationsAnywhere } from './support/axe.ts';
import { accounts, signInThroughApi } from './support/auth.ts';
import { allInvoices } from './support/invoices.ts';
import { type Smtp, takeSmtp } from './support/smtp.ts';
import { authTexts, commonTexts, sessionsTexts as t } from './support/texts.ts';

/**
 * Sign-in by a link from a real e-mail (issue 24), in Chromium: sent away from an invoice to sign
 * in, the customer asks for a link, the server sends it over SMTP to a local server started here,
 * and the link signs in once and opens that invoice. Replayed, it says so and offers another.
 */
test.use({ locale: 'es-ES' });

let smtp: Smtp;
test.beforeAll(async () => {
  smtp = await takeSmtp();
});
test.afterAll(async () => {
  await smtp.close();
});

test('a link from the e-mail signs in once and opens the invoice the customer came from', async ({
  page,
  browser,
}) => {
  const account = accounts.clienteOne;
  const { origin } = account.tenant;
  // Which invoice: read once through the API in another browser.
  const reader = await browser.newContext({ locale: 'es-ES' });
  const readerPage = await reader.newPage();
  await signInThroughApi(readerPage, account);
  const [invoice] = await allInvoices(readerPage, account.tenant);
  if (!invoice) throw new Error('the demo customer has invoices');
  await reader.close();
  const invoicePath = `/invoice-detail/${encodeURIComponent(invoice.invoice_id)}`;

  // Signed out, the invoice sends to sign in; the customer asks for a link instead.
  await page.goto(`${origin}${invoicePath}`);
  await expect(page.getByRole('heading', { level: 1, name: commonTexts.login.title })).toBeVisible({
    timeout: 15_000,
  });
  await page.getByRole('link', { name: authTexts.login.withLink }).click();
  await expect(page.getByRole('heading', { level: 1, name: t.linkRequest.title })).toBeVisible();
  await expectNoViolationsAnywhere(page, 'sign-in link request');
  await page.getByLabel(authTexts.fields.email).fill(account.email);
  await page.getByRole('button', { name: t.linkRequest.submit }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: t.linkRequest.successTitle }),
  ).toBeFocused();

  const mail = await smtp.waitFor(account.email, 15_000, 'sign-in-link');
  const link = /(https?:\/\/[^\s"<>]+\/sign-in-link\?token=[\w-]+)/.exec(mail.raw)?.[1] ?? '';
  expect(new URL(link).origin).toBe(origin);

  // Opening the link signs nobody in until the button is pressed.
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: t.linkSignIn.title })).toBeVisible();
  await expectNoViolationsAnywhere(page, 'sign-in link');
  await page.getByRole('button', { name: t.linkSignIn.button, exact: true }).click();
  await expect(page).toHaveURL(`${origin}${invoicePath}`);
  await expect(page.getByText(invoice.invoice_id).first()).toBeVisible();

  // The same link again, in another browser: spent, and another can be asked for.
  const other = await browser.newContext({ locale: 'es-ES' });
  const otherPage = await other.newPage();
  await otherPage.goto(link);
  await otherPage.getByRole('button', { name: t.linkSignIn.button, exact: true }).click();
  await expect(otherPage.getByRole('alert')).toContainText(t.linkSignIn.invalid);
  await otherPage.getByRole('link', { name: t.linkSignIn.askAgain }).click();
  await expect(
    otherPage.getByRole('heading', { level: 1, name: t.linkRequest.title }),
  ).toBeVisible();
  await other.close();
});
