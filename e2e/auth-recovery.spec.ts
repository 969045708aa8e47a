import { expect, test } from '@playwright/test';
import { accounts, passwordField, signInWithForm, storedAuth } from './support/auth.ts';
import { type Smtp, takeSmtp } from './support/smtp.ts';
import { authTexts as t } from './support/texts.ts';

/**
 * Password recovery by e-mail, end to end (spec §2 "Recovery" and "Reset"): the server sends a
 * real message over SMTP to a local server started here; its link resets the password in Chromium.
 */

test.use({ locale: 'es-ES' });

let smtp: Smtp;

test.beforeAll(async () => {
  smtp = await takeSmtp();
});

test.afterAll(async () => {
  await smtp.close();
});

/** The reset link of a received message (quoted-printable already decoded). */
function resetLinkIn(raw: string): string {
  const match =
    /(https?:\/\/[^\s"<>]+\/reset-password\?token=[\w-]+&(?:amp;)?email=[^\s"<>]+)/.exec(raw);
  if (!match?.[1]) throw new Error(`no reset link in the e-mail:\n${raw.slice(0, 2000)}`);
  return match[1].replace(/&amp;/g, '&');
}

test('a forgotten password is reset from the link in the e-mail, then changed from the profile', async ({
  page,
  browser,
}) => {
  // This customer's password changes here; no other test signs in with it.
  const account = accounts.segundoOne;
  const { origin } = account.tenant;

  await page.goto(`${origin}/login`);
  await page.getByRole('link', { name: t.login.forgotPassword }).click();
  await expect(page).toHaveURL(`${origin}/recover-password`);
  await page.getByLabel(t.fields.email).fill(account.email);
  await page.getByRole('button', { name: t.recovery.submit }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: t.recovery.successTitle }),
  ).toBeFocused();

  const mail = await smtp.waitFor(account.email, 15_000);
  const link = resetLinkIn(mail.raw);
  expect(new URL(link).origin).toBe(origin);

  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: t.reset.title })).toBeVisible();

  // The strength shows as the user types, in words; the rules are explained before sending.
  const strength = page.getByTestId('password-strength').locator('[aria-live="polite"]');
  const newField = passwordField(page, t.fields.newPassword);
  await newField.fill('abcdefgh');
  await expect(strength).toHaveText(`${t.reset.strength.label}: ${t.reset.strength.weak}`);
  // Tenant 1 is the Club Deportivo Las Encinas.
  await newField.fill('Encinas-2026!');
  await expect(strength).toHaveText(
    `${t.reset.strength.label}: ${t.reset.strength.tooWeak}. ${t.validation.passwordContainsName}`,
  );
  await passwordField(page, t.fields.confirmPassword).fill('Encinas-2026!');
  await page.getByRole('button', { name: t.reset.submit }).click();
  await expect(page.getByText(t.validation.passwordContainsName).first()).toBeVisible();
  await expect(newField).toBeFocused();
  // A leaked password passes the screen's rules; the server refuses it, with its own reason.
  await newField.fill('password1234');
  await passwordField(page, t.fields.confirmPassword).fill('password1234');
  await page.getByRole('button', { name: t.reset.submit }).click();
  await expect(page.getByRole('alert')).toContainText(t.errors.passwordCommon);
  await expect(newField).toBeFocused();

  const newPassword = 'Nueva-clave-2026!';
  await newField.fill(newPassword);
  await expect(strength).toHaveText(`${t.reset.strength.label}: ${t.reset.strength.strong}`);
  await passwordField(page, t.fields.confirmPassword).fill('something else');
  await page.getByRole('button', { name: t.reset.submit }).click();
  await expect(page.getByText(t.validation.passwordMismatch)).toBeVisible();
  await expect(passwordField(page, t.fields.confirmPassword)).toBeFocused();
  await passwordField(page, t.fields.confirmPassword).fill(newPassword);
  await page.getByRole('button', { name: t.reset.submit }).click();
  await expect(page.getByRole('heading', { level: 1, name: t.reset.successTitle })).toBeVisible();

  // The link is single-use.
  await page.goto(link);
  await passwordField(page, t.fields.newPassword).fill('Otra-clave-2026!');
  await passwordField(page, t.fields.confirmPassword).fill('Otra-clave-2026!');
  await page.getByRole('button', { name: t.reset.submit }).click();
  await expect(page.getByRole('alert')).toContainText(
    'El enlace para restablecer la contraseña no es válido',
  );

  await signInWithForm(page, { ...account, password: newPassword });
  await expect(page).toHaveURL(`${origin}/home`);
  expect((await storedAuth(page)).user?.email).toBe(account.email);

  // Then changed from the profile (review #13), while signed in on another device too: that
  // session ends at once, this one stays, and only the newest password signs in.
  const other = await browser.newContext({ locale: 'es-ES' });
  const otherPage = await other.newPage();
  await signInWithForm(otherPage, { ...account, password: newPassword });
  await expect(otherPage).toHaveURL(`${origin}/home`);

  await page.goto(`${origin}/user-profile`);
  await page.getByRole('link', { name: t.profile.changePassword }).click();
  await expect(page).toHaveURL(`${origin}/change-password`);
  await expect(page.getByRole('heading', { level: 1, name: t.change.title })).toBeVisible();
  const current = passwordField(page, t.change.currentPassword);
  await current.fill('not-my-password');
  const changed = 'Remo-de-tarde-2026';
  await passwordField(page, t.fields.newPassword).fill(changed);
  await passwordField(page, t.fields.confirmPassword).fill(changed);
  await page.getByRole('button', { name: t.change.submit }).click();
  await expect(page.getByRole('alert')).toContainText(t.errors.wrongPassword);
  await expect(current).toBeFocused();
  await current.fill(newPassword);
  await page.getByRole('button', { name: t.change.submit }).click();
  await expect(page.getByRole('heading', { level: 1, name: t.change.successTitle })).toBeFocused();
  await page.getByRole('link', { name: t.change.backToProfile }).click();
  await expect(page.getByRole('heading', { level: 1, name: t.profile.title })).toBeVisible();

  // The other device is signed out on its next call.
  await otherPage.goto(`${origin}/user-profile`);
  await expect(otherPage).toHaveURL(`${origin}/login`);
  await other.close();
  const login = (password: string) =>
    page.request.post(`${origin}/${account.tenant.id}/api/1.0/login`, {
      headers: { origin },
      data: { email: account.email, password },
    });
  expect((await login(newPassword)).status()).toBe(401);
  expect((await login(changed)).status()).toBe(200);
});
