import { expect, test, type Browser, type Page } from '@playwright/test';
import { generate } from 'otplib';
import { expectNoViolationsAnywhere } from './support/axe.ts';
import { demoPassword, signInWithForm } from './support/auth.ts';
import { shortTokenPort } from './support/env.ts';
import { authTexts, fillText, sessionsTexts as t } from './support/texts.ts';

/**
 * Two-step verification (issue 24), end to end in Chromium: turned on from the profile (the
 * current password first) with the app's QR code (its key read off the screen, codes computed as
 * an authenticator app does), then password + code, password + recovery code, a wrong code, and
 * turned off. On the second server of playwright.config.ts and its demo tenant, whose customers no
 * other test signs in as.
 */
test.use({ locale: 'es-ES' });
test.describe.configure({ mode: 'serial' });

const origin = `http://demo.localhost:${shortTokenPort}`;
const account = {
  tenant: { id: 'demo', origin },
  email: 'segundo@demo.test',
  password: demoPassword,
};

/** The code an authenticator app shows `steps` time steps from now. */
const codeAt = (secret: string, steps = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

async function signInToCode(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ locale: 'es-ES' });
  const page = await context.newPage();
  await page.goto(`${origin}/login`);
  await page.getByLabel(authTexts.fields.email).fill(account.email);
  await page.getByLabel(authTexts.fields.password, { exact: true }).fill(account.password);
  await page.getByRole('button', { name: authTexts.login.submit, exact: true }).click();
  await expect(page).toHaveURL(`${origin}/verify-sign-in`);
  await expect(page.getByRole('heading', { level: 1, name: t.verify.title })).toBeVisible();
  return page;
}

test('two-step verification: on from the profile, then password + code or recovery code, then off', async ({
  page,
  browser,
}) => {
  // Five sign-ins with the password (argon2 each) and two axe scans: over the default minute on
  // a busy two-core machine (it ran out there once with three workers).
  test.setTimeout(150_000);
  await signInWithForm(page, account, { path: '/user-profile' });
  await page.getByRole('link', { name: authTexts.profile.twoFactor }).click();
  await expect(page.getByRole('heading', { level: 1, name: t.twoFactor.title })).toBeVisible();
  await page.getByRole('button', { name: t.twoFactor.enable }).click();
  // The current password before the secret: an access token alone does not turn it on.
  await expect(page.getByRole('heading', { level: 2, name: t.stepUp.title })).toBeVisible();
  await page.getByLabel(t.stepUp.currentPassword, { exact: true }).fill(account.password);
  await page.getByRole('button', { name: t.stepUp.continue }).click();
  await expect(page.getByRole('img', { name: t.twoFactor.qrLabel })).toBeVisible();
  const secret = ((await page.getByTestId('totp-key').textContent()) ?? '').replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await expectNoViolationsAnywhere(page, 'two-factor setup');

  // A wrong code first: said, and the field keeps the focus.
  const codeField = page.getByLabel(t.verify.code);
  await codeField.fill('000000');
  await page.getByRole('button', { name: t.twoFactor.confirm }).click();
  await expect(page.getByRole('alert')).toContainText(t.verify.wrong);
  await expect(codeField).toBeFocused();
  await codeField.fill(await codeAt(secret));
  await page.getByRole('button', { name: t.twoFactor.confirm }).click();
  await expect(page.getByRole('heading', { level: 1, name: t.twoFactor.codesTitle })).toBeVisible();
  const codes = await page
    .getByRole('list', { name: t.twoFactor.codesTitle })
    .getByRole('listitem')
    .allTextContents();
  expect(codes).toHaveLength(10);
  await page.getByRole('button', { name: t.twoFactor.continue }).click();
  await expect(page.getByRole('status')).toContainText(t.twoFactor.enabled);
  await expect(
    page.getByText(fillText(t.twoFactor.recoveryLeft_other, { count: 10 })),
  ).toBeVisible();

  // Password, then the code of the app (the next one: the first was spent on the set-up).
  const withCode = await signInToCode(browser);
  await expectNoViolationsAnywhere(withCode, 'verify sign-in');
  await withCode.getByLabel(t.verify.code).fill(await codeAt(secret, 1));
  await withCode.getByRole('button', { name: t.verify.submit }).click();
  await expect(withCode).toHaveURL(`${origin}/home`);
  await withCode.context().close();

  // Password, then a recovery code; the same recovery code again is refused.
  const withRecovery = await signInToCode(browser);
  await withRecovery.getByRole('button', { name: t.verify.useRecovery }).click();
  await withRecovery.getByLabel(t.verify.recoveryCode).fill(codes[0] ?? '');
  await withRecovery.getByRole('button', { name: t.verify.submit }).click();
  await expect(withRecovery).toHaveURL(`${origin}/home`);
  await withRecovery.context().close();
  const replay = await signInToCode(browser);
  await replay.getByRole('button', { name: t.verify.useRecovery }).click();
  await replay.getByLabel(t.verify.recoveryCode).fill(codes[0] ?? '');
  await replay.getByRole('button', { name: t.verify.submit }).click();
  await expect(replay.getByRole('alert')).toContainText(t.verify.wrong);
  await replay.context().close();

  // Off again, with a recovery code; then the password alone signs in.
  await page.reload();
  await page.getByLabel(t.verify.recoveryCode).fill(codes[1] ?? '');
  await page.getByRole('button', { name: t.twoFactor.disableSubmit }).click();
  await expect(page.getByRole('status')).toContainText(t.twoFactor.disabled);
  const plain = await browser.newContext({ locale: 'es-ES' });
  const plainPage = await plain.newPage();
  await signInWithForm(plainPage, account, { path: '/home' });
  await expect(plainPage).toHaveURL(`${origin}/home`);
  await plain.close();
});
