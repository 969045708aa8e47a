import { expect, test } from '@playwright/test';
import { demoPassword, signInWithForm } from './support/auth.ts';
import { shortTokenPort } from './support/env.ts';
import { authTexts as t } from './support/texts.ts';

/**
 * Spec §4 "a 403 triggers, once per request, a refresh and retry", against the second server of
 * playwright.config.ts, whose access tokens expire after 5 seconds.
 */

test.use({ locale: 'es-ES' });

test('an expired access token is refreshed silently and the request retried', async ({ page }) => {
  const origin = `http://localhost:${shortTokenPort}`;
  await signInWithForm(
    page,
    { tenant: { id: '1', origin }, email: 'cliente@demo.test', password: demoPassword },
    { path: '/mi-actividad' },
  );
  await expect(page).toHaveURL(`${origin}/mi-actividad`);
  const firstToken = await page.evaluate(() => localStorage.getItem('auth'));

  // Let the access token expire, then move on inside the app (no reload, so no session restore).
  await page.waitForTimeout(6_500);
  const statuses: string[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith('/1/api/1.0/')) {
      statuses.push(`${url.pathname.replace('/1/api/1.0', '')} ${response.status()}`);
    }
  });
  await page
    .getByRole('main')
    .getByRole('link', { name: new RegExp(t.options.myUser) })
    .click();

  await expect(page.getByRole('region', { name: t.profile.sections.fiscal })).toBeVisible();
  await expect(page).toHaveURL(`${origin}/user-profile`);
  // The profile's own call (its fiscal data request, if one waits) goes the same way beside it.
  // Polled: the screen shows once the profile has answered, which may be before the other call's
  // retry has (CI once read the list between the two).
  await expect
    .poll(() => statuses.filter((s) => /^\/(user\/profile|refresh-token)/.test(s)))
    .toEqual([
      expect.stringMatching(/^\/user\/profile\/\S+ 403$/),
      '/refresh-token 200',
      expect.stringMatching(/^\/user\/profile\/\S+ 200$/),
    ]);
  await expect
    .poll(() => statuses.filter((s) => s.startsWith('/user/fiscal-data-requests')))
    .toEqual(['/user/fiscal-data-requests 403', '/user/fiscal-data-requests 200']);
  expect(await page.evaluate(() => localStorage.getItem('auth'))).not.toBe(firstToken);
});
