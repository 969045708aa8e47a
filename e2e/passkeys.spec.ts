import { expect, test, type Page } from '@playwright/test';
import { expectNoViolationsAnywhere } from './support/axe.ts';
import { demoPassword, signInWithForm } from './support/auth.ts';
import { shortTokenPort } from './support/env.ts';
import { authTexts, commonTexts, fillText, sessionsTexts as t } from './support/texts.ts';

/**
 * Passkeys (issue 24), end to end with Chromium's virtual authenticator (the DevTools WebAuthn
 * domain): added from the profile (the current password asked first), renamed, used to sign in
 * without a password, refused by another portal (another relying party, and the server of another
 * tenant), and removed. On the second server of playwright.config.ts and its demo tenant's first
 * customer, whom no other test signs in as there.
 */
test.use({ locale: 'es-ES' });

const origin = `http://demo.localhost:${shortTokenPort}`;
const otherPortal = `http://localhost:${shortTokenPort}`;
const account = {
  tenant: { id: 'demo', origin },
  email: 'cliente@demo.test',
  password: demoPassword,
};

async function withAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

async function signOutHere(page: Page) {
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
}

test('a passkey is added from the profile, signs in without a password, and stays on its own portal', async ({
  page,
}) => {
  await withAuthenticator(page);
  await signInWithForm(page, account, { path: '/user-profile' });
  await page.getByRole('link', { name: authTexts.profile.passkeys }).click();
  await expect(page.getByRole('heading', { level: 1, name: t.passkeys.title })).toBeVisible();
  await expect(page.getByText(t.passkeys.emptyTitle)).toBeVisible();

  // An access token alone does not add a way in: the current password first (a wrong one is
  // said in the dialog, which keeps it), then the device.
  await page.getByRole('button', { name: t.passkeys.add }).click();
  const dialog = page.getByRole('dialog', { name: t.stepUp.title });
  const password = dialog.getByLabel(t.stepUp.currentPassword, { exact: true });
  await password.fill('Wrong1234!');
  await dialog.getByRole('button', { name: t.stepUp.continue }).click();
  await expect(dialog.getByText(t.stepUp.errors.wrongPassword)).toBeVisible();
  await expect(password).toHaveValue('Wrong1234!');
  await expect(page.getByRole('main').getByRole('listitem')).toHaveCount(0);
  await password.fill(account.password);
  await dialog.getByRole('button', { name: t.stepUp.continue }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status')).toContainText('añadida');
  const rows = page.getByRole('main').getByRole('listitem');
  await expect(rows).toHaveCount(1);
  const firstName = (await rows.first().locator('p').first().textContent()) ?? '';
  await page
    .getByRole('button', { name: fillText(t.passkeys.renameLabel, { name: firstName }) })
    .click();
  // A name of only spaces is no name: said under the field, the form stays, nothing is sent.
  await page.getByLabel(t.passkeys.name).fill('   ');
  await page.getByRole('button', { name: t.passkeys.save }).click();
  await expect(page.getByText(t.passkeys.errors.required)).toBeVisible();
  await expect(page.getByLabel(t.passkeys.name)).toBeFocused();
  await page.getByLabel(t.passkeys.name).fill('Portátil de casa');
  await page.getByRole('button', { name: t.passkeys.save }).click();
  await expect(page.getByRole('status')).toContainText(t.passkeys.renamed);
  await expect(rows.first()).toContainText('Portátil de casa');
  await expectNoViolationsAnywhere(page, 'passkeys');

  // Signed out, the passkey signs in: no e-mail, no password, no code.
  await signOutHere(page);
  await page.goto(`${origin}/login`);
  await page.getByRole('button', { name: authTexts.login.withPasskey }).click();
  await expect(page).toHaveURL(`${origin}/home`);

  // Another portal is another relying party: the browser has no passkey for it...
  await signOutHere(page);
  await page.goto(`${otherPortal}/login`);
  await page.getByRole('button', { name: authTexts.login.withPasskey }).click();
  await expect(page.getByRole('alert')).toContainText(authTexts.errors.passkeyCancelled);
  // ...and its server refuses an assertion this portal's passkey signed.
  await page.goto(`${origin}/login`);
  const captured = new Promise<string>((resolve) => {
    void page.route('**/passkeys/sign-in', async (route) => {
      resolve(route.request().postData() ?? '');
      await route.abort();
    });
  });
  await page.getByRole('button', { name: authTexts.login.withPasskey }).click();
  const assertion = await captured;
  const replayed = await fetch(`${otherPortal}/1/api/1.0/passkeys/sign-in`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: assertion,
  });
  expect(replayed.status).toBe(401);
  await page.unroute('**/passkeys/sign-in');

  // Removed (asked first): it no longer signs in.
  await page.goto(`${origin}/login`);
  await page.getByRole('button', { name: authTexts.login.withPasskey }).click();
  await expect(page).toHaveURL(`${origin}/home`);
  // As in signInWithForm: a navigation before the signed-in page settles ended on /login in CI.
  await page.waitForLoadState('networkidle');
  await page.goto(`${origin}/passkeys`);
  await page
    .getByRole('button', { name: fillText(t.passkeys.removeLabel, { name: 'Portátil de casa' }) })
    .click();
  await page.getByRole('dialog').getByRole('button', { name: t.passkeys.remove }).click();
  await expect(page.getByRole('status')).toContainText(
    fillText(t.passkeys.removed, { name: 'Portátil de casa' }),
  );
  await expect(page.getByText(t.passkeys.emptyTitle)).toBeVisible();
  await signOutHere(page);
  await page.goto(`${origin}/login`);
  await page.getByRole('button', { name: authTexts.login.withPasskey }).click();
  await expect(page.getByRole('alert')).toContainText(authTexts.errors.passkeyRefused);
  await expect(
    page.getByRole('heading', { level: 1, name: commonTexts.login.title }),
  ).toBeVisible();
});
