import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { decodeQuotedPrintable } from '../tools/test-smtp.ts';
import { expectNoViolationsAnywhere } from './support/axe.ts';
import { accounts, demoPassword, signInThroughApi, signInWithForm } from './support/auth.ts';
import { shortTokenPort } from './support/env.ts';
import { authTexts, commonTexts, fillText, sessionsTexts as t } from './support/texts.ts';

/**
 * "Your devices" (issue 24), end to end in Chromium: the list, ending one session and every other
 * one (the ended page is sent to sign in at once), and the "was this you?" e-mail's link. On the
 * second server of playwright.config.ts, which writes its e-mail to the demo outbox and where no
 * other test signs in as this customer, so ending "every other session" ends nobody else's test.
 */
test.use({ locale: 'es-ES' });
// One customer's sessions: the tests end them, so they run one after the other.
test.describe.configure({ mode: 'serial' });

const origin = `http://localhost:${shortTokenPort}`;
const account = { tenant: { id: '1', origin }, email: 'segundo@demo.test', password: demoPassword };
const outbox = fileURLToPath(new URL(`../.data/e2e-${shortTokenPort}/outbox/`, import.meta.url));
const iphone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** The "was this you?" messages to the account in the outbox, oldest first (decoded). */
function newDeviceMails(): string[] {
  if (!existsSync(outbox)) return [];
  return readdirSync(outbox)
    .sort()
    .map((file) => decodeQuotedPrintable(readFileSync(`${outbox}${file}`, 'latin1')))
    .filter((raw) => raw.includes(`To: ${account.email}`) && /X-Portal-Mail: new-device/.test(raw));
}

const endLinkIn = (raw: string): string => {
  const link = /(https?:\/\/[^\s"<>]+\/end-session\?token=[\w-]+)/.exec(raw)?.[1];
  if (!link) throw new Error(`no end-session link in:\n${raw.slice(0, 1500)}`);
  return link;
};

async function phoneSignedIn(browser: Browser): Promise<Page> {
  const phone = await browser.newContext({ userAgent: iphone, locale: 'es-ES' });
  const page = await phone.newPage();
  await signInWithForm(page, account, { path: '/home' });
  return page;
}

async function openDevices(page: Page) {
  await page.goto(`${origin}/user-profile`);
  await page.getByRole('link', { name: authTexts.profile.devices }).click();
  await expect(page.getByRole('heading', { level: 1, name: t.title })).toBeVisible();
}

/**
 * An ended session's page is sent to sign in at its next step inside the app: its access token
 * is refused at once (no reload, so no refresh first).
 */
async function expectSentToSignIn(page: Page) {
  await page.getByRole('link', { name: commonTexts.menu.invoices, exact: true }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: commonTexts.login.title })).toBeVisible({
    timeout: 15_000,
  });
}

test('the customer sees where they are signed in and ends one session, then every other one', async ({
  page,
  browser,
}) => {
  const phone = await phoneSignedIn(browser);
  const mailsBefore = newDeviceMails().length;
  await signInWithForm(page, account, { path: '/home' });
  await openDevices(page);

  const rows = page.getByRole('main').getByRole('listitem').filter({ hasText: 'Último uso' });
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText(t.thisDevice);
  const phoneRow = rows.filter({ hasText: 'Safari 17 · iOS 17' });
  await expect(phoneRow).toContainText('Con contraseña');
  await expectNoViolationsAnywhere(page, 'devices');

  // End the phone's session: said, gone from the list, and the phone is out at once.
  const phoneName = 'Safari 17 · iOS 17';
  await page.getByRole('button', { name: fillText(t.endLabel, { device: phoneName }) }).click();
  await expect(page.getByRole('status')).toContainText(fillText(t.ended, { device: phoneName }));
  await expect(rows).toHaveCount(1);
  await expect(page.getByText(t.onlyThis)).toBeVisible();
  await expectSentToSignIn(phone);

  // This browser was new to the account: a "was this you?" e-mail names it.
  await expect.poll(() => newDeviceMails().length).toBeGreaterThan(mailsBefore);

  // The phone signs in again (a browser it used before: no new e-mail), then every other ends.
  const mailsNow = newDeviceMails().length;
  await signInWithForm(phone, account, { path: '/home' });
  await page.reload();
  await expect(rows).toHaveCount(2);
  await page.getByRole('button', { name: t.endOthers }).click();
  await expect(page.getByRole('status')).toContainText(fillText(t.endedOthers_one, { count: 1 }));
  await expect(rows).toHaveCount(1);
  await expectSentToSignIn(phone);
  expect(newDeviceMails().length).toBe(mailsNow);
  await phone.context().close();
});

test('the "was this you?" link ends that session once, without signing anyone in', async ({
  page,
  browser,
}) => {
  // Signed in somewhere first, so that the next browser is a new device of the account.
  const usual = await phoneSignedIn(browser);
  // The phone's own mail may still be on its way (it is sent after the sign-in answers): the
  // mail of this browser is told apart by its system, not by coming last.
  const ofThisBrowser = () => newDeviceMails().filter((raw) => !/\biOS\b/.test(raw));
  const before = ofThisBrowser().length;
  await signInWithForm(page, account, { path: '/home' });
  await expect.poll(() => ofThisBrowser().length).toBeGreaterThan(before);
  const link = endLinkIn(ofThisBrowser().at(-1) ?? '');

  // The owner opens the link elsewhere, signed out: opening it ends nothing; the button does.
  const owner = await browser.newContext({ locale: 'es-ES' });
  const ownerPage = await owner.newPage();
  await ownerPage.goto(link);
  await expect(ownerPage.getByRole('heading', { level: 1, name: t.link.title })).toBeVisible();
  await expectNoViolationsAnywhere(ownerPage, 'end-session link');
  await page.goto(`${origin}/user-profile`);
  await expect(
    page.getByRole('heading', { level: 1, name: authTexts.profile.title }),
  ).toBeVisible();
  await ownerPage.getByRole('button', { name: t.link.button }).click();
  await expect(ownerPage.getByRole('heading', { level: 1, name: t.link.done })).toBeVisible();
  await expectSentToSignIn(page);
  // The other session of the account goes on.
  await usual.goto(`${origin}/user-profile`);
  await expect(usual).toHaveURL(`${origin}/user-profile`);

  // The same link again: spent.
  await ownerPage.goto(link);
  await ownerPage.getByRole('button', { name: t.link.button }).click();
  await expect(ownerPage.getByRole('alert')).toContainText(t.link.invalid);
  await owner.close();
  await usual.context().close();
});

test('a page that left while its session was being refreshed is still signed in at the next visit', async ({
  page,
}) => {
  // Tenant 1 on localhost: the test's own request from Node resolves it (demo.localhost it would not).
  const signedIn = accounts.clienteOne;
  const { origin: main } = signedIn.tenant;
  await signInThroughApi(page, signedIn);
  await page.goto(`${main}/mi-actividad`);
  await expect(page).toHaveURL(`${main}/mi-actividad`);

  // The next load's refresh reaches the server (which rotates the token) but its answer, with
  // the new cookie, never reaches the browser: the page was closed or left mid-flight.
  let lost = 0;
  await page.route('**/refresh-token', async (route) => {
    if (lost > 0) return route.continue();
    lost += 1;
    // Sent from Node with the browser's own headers (its cookies included): unlike route.fetch,
    // whose answer would still set the new cookie in the browser.
    const request = route.request();
    const answer = await fetch(request.url(), {
      method: request.method(),
      headers: await request.allHeaders(),
      body: request.postData() ?? null,
    });
    expect(answer.status).toBe(200);
    await route.abort('aborted');
  });
  await page.reload();
  await expect.poll(() => lost).toBe(1);

  // The next visit presents the old cookie again: a new token, not a session ended as stolen.
  // (The profile's data needs a valid access token: it shows only if the refresh was answered.)
  const refreshed = page.waitForResponse('**/refresh-token');
  await page.goto(`${main}/user-profile`);
  expect((await refreshed).status()).toBe(200);
  await expect(page.getByRole('region', { name: authTexts.profile.sections.fiscal })).toBeVisible();
  await expect(page).toHaveURL(`${main}/user-profile`);
});
