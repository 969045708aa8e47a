import { expect, test } from '@playwright/test';
import { type Account, demoPassword, signInThroughApi } from './support/auth.ts';
import { tenants } from './support/env.ts';

/**
 * Issue 21 (review #6 and #18): the filters' date fields in the app's format and language, with a
 * month and year jump in the calendar; the contact form filled in with the signed-in customer.
 * Read-only: nothing is sent.
 */
test.use({ locale: 'es-ES' });

const account: Account = {
  tenant: tenants.demo,
  email: 'segundo@demo.test',
  password: demoPassword,
};

test("a date typed as dd/mm/yyyy, not the browser's own date input, and the calendar jumps by year and month", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInThroughApi(page, account);
  await page.goto(`${account.tenant.origin}/invoices`);
  const from = page.getByRole('textbox', { name: 'Desde' });
  await expect(from).toBeVisible({ timeout: 15_000 });
  // dd/mm/yyyy (spec §9) in a text field of ours, not the browser's date input (which speaks the
  // browser's language), and the whole date fits (#6).
  expect(await from.getAttribute('type')).not.toBe('date');
  await expect(from).toHaveValue(/^\d{2}\/\d{2}\/\d{4}$/);
  const fits = await from.evaluate((el) => (el as HTMLInputElement).scrollWidth <= el.clientWidth);
  expect(fits).toBe(true);

  await from.fill('05/03/2024');
  await expect(from).toHaveValue('05/03/2024');

  await page.getByRole('button', { name: 'Abrir el calendario: Desde' }).click();
  const dialog = page.getByRole('dialog', { name: 'Desde' });
  await expect(dialog.getByRole('grid', { name: 'marzo 2024' })).toBeVisible();
  await dialog.getByRole('combobox', { name: 'Año' }).selectOption('2022');
  await dialog.getByRole('combobox', { name: 'Mes' }).selectOption({ label: 'julio' });
  await dialog.getByRole('button', { name: 'viernes, 15 de julio de 2022' }).click();
  await expect(dialog).toBeHidden();
  await expect(from).toHaveValue('15/07/2022');
});

test('the contact form comes with the customer name and says where the answer goes', async ({
  page,
}) => {
  await signInThroughApi(page, account);
  await page.goto(`${account.tenant.origin}/contacto`);
  const name = page.getByLabel('Nombre', { exact: true });
  await expect(name).toBeVisible({ timeout: 15_000 });
  await expect(name).not.toHaveValue('');
  await expect(page.getByText(`Te responderemos a ${account.email}.`)).toBeVisible();
  // The club's own mailbox beside the form.
  await expect(page.getByRole('link', { name: /@/ }).first()).toHaveAttribute('href', /^mailto:/);
});
