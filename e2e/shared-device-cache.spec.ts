import { expect, test } from '@playwright/test';
import { accounts, signInWithForm, storedAuth } from './support/auth.ts';
import { commonTexts } from './support/texts.ts';

/**
 * Shared device (web review, session 35): after "Cerrar sesión" the previous customer's profile (name, e-mail,
 * tax id, fiscal address) is still in the browser's HTTP cache, because the API answers its GET
 * calls without `Cache-Control: no-store`. The next person at the computer reads it back without
 * any session: `fetch(url, { cache: 'only-if-cached' })` from the portal's own page (the devtools
 * console will do) answers the stored copy, fresh or stale. The signed PDFs already say
 * `private, no-store`; the JSON of the same customer does not.
 */
test.use({ locale: 'es-ES' });

test('signing out leaves no answer of the customer in the browser cache', async ({ page }) => {
  const account = accounts.clienteOne;
  const origin = account.tenant.origin;
  const profileAnswer = page.waitForResponse(
    (r) => /\/api\/1\.0\/user\/profile\//.test(r.url()) && r.request().method() === 'GET',
  );
  await signInWithForm(page, account, { path: '/user-profile' });
  const answer = await profileAnswer;
  expect(answer.status()).toBe(200);
  const profileUrl = answer.url();

  // The customer signs out, as the menu offers.
  await page.getByRole('button', { name: commonTexts.nav.openMenu }).click();
  await page.getByRole('button', { name: commonTexts.menu.logout }).click();
  await expect(page).toHaveURL(`${origin}/login`);
  expect(await storedAuth(page)).toEqual({});

  // The next person on this computer, signed out, asks the browser's cache only.
  const leftover = await page.evaluate(async (url) => {
    try {
      const response = await fetch(url, { cache: 'only-if-cached', mode: 'same-origin' });
      return { status: response.status, body: await response.text() };
    } catch (error) {
      return { status: 0, body: String(error) };
    }
  }, profileUrl);
  expect(leftover.body).not.toContain(account.email);
  expect(leftover.status).not.toBe(200);
});
