import { expect, test } from '@playwright/test';
import { demoPassword, signInThroughApi } from './support/auth.ts';
import { shortTokenPort } from './support/env.ts';
import { authTexts, profileTexts as t } from './support/texts.ts';

/**
 * Issue 23, item 1: the customer changes their telephone, invoice e-mail and postal address from
 * the profile. A wrong value is refused with its reason and nothing is saved; the right ones are
 * saved, said, and shown on the profile after a reload. On the second server (its own database),
 * as a customer whose mail nobody waits for: the invoice e-mail is put back at the end anyway.
 */
test.use({ locale: 'es-ES' });

const origin = `http://localhost:${shortTokenPort}`;
const account = { tenant: { id: '1', origin }, email: 'cliente@demo.test', password: demoPassword };

test('contact data: a wrong telephone is refused, the right data saved and shown on the profile', async ({
  page,
}) => {
  await signInThroughApi(page, account);
  await page.goto(`${origin}/user-profile`);
  await page.getByRole('link', { name: authTexts.profile.editContact }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: t.contactData.title })).toBeVisible();

  const phone = page.getByLabel(t.contactData.fields.phone, { exact: true });
  const invoiceEmail = page.getByLabel(t.contactData.fields.invoiceEmail, { exact: true });
  await expect(phone).toBeEditable();

  // Refused in the browser, with the contract's schema: the reason, the field marked and focused.
  await phone.fill('llamar por la tarde');
  await invoiceEmail.fill('no-es-un-correo');
  await page.getByRole('button', { name: t.contactData.save }).click();
  await expect(page.getByText(t.errors.invalidPhone)).toBeVisible();
  await expect(page.getByText(t.errors.invalidEmail)).toBeVisible();
  await expect(phone).toHaveAttribute('aria-invalid', 'true');
  await expect(phone).toBeFocused();

  // Then right: saved and said.
  await phone.fill('+34 611 222 333');
  await invoiceEmail.fill('facturas.cliente@demo.test');
  await page
    .getByLabel(t.contactData.fields.shippingAddress, { exact: true })
    .fill('Calle del Prado 7, 3º A');
  await page.getByLabel(t.contactData.fields.postalCode, { exact: true }).fill('28014');
  await page.getByLabel(t.contactData.fields.city, { exact: true }).fill('Madrid');
  await page.getByRole('button', { name: t.contactData.save }).click();
  const saved = page
    .getByRole('status')
    .filter({ hasText: t.contactData.saved.split('{{')[0] ?? '' });
  await expect(saved).toBeVisible();

  // The profile shows them, also after a reload (stored, not only in the page).
  await page.getByRole('link', { name: t.contactData.back }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: authTexts.profile.title }),
  ).toBeVisible();
  for (const shown of [
    '+34 611 222 333',
    'facturas.cliente@demo.test',
    'Calle del Prado 7, 3º A',
    '28014',
  ])
    await expect(page.getByText(shown, { exact: true })).toBeVisible();
  await page.reload();
  await expect(page.getByText('+34 611 222 333', { exact: true })).toBeVisible();

  // Put the invoice e-mail back: empty, invoices go to the sign-in address.
  await page.getByRole('link', { name: authTexts.profile.editContact }).first().click();
  await invoiceEmail.fill('');
  await page.getByRole('button', { name: t.contactData.save }).click();
  await expect(saved).toBeVisible();
});

test('access rows on a phone: each note takes the row and its button goes below it', async ({
  page,
}) => {
  // At 390 px the note beside "Cambiar correo de acceso" was squeezed to ~97 px by the button,
  // and the sign-in address in it ran out of its column.
  await page.setViewportSize({ width: 390, height: 844 });
  await signInThroughApi(page, account);
  await page.goto(`${origin}/user-profile`);
  const button = page.getByRole('link', { name: authTexts.profile.changeEmail });
  await expect(button).toBeVisible();
  const note = page.getByRole('listitem').filter({ has: button }).locator('p');
  await expect(note).toContainText(account.email);
  const fits = await note.evaluate((el) => ({
    width: el.clientWidth,
    overflow: el.scrollWidth - el.clientWidth,
  }));
  expect(fits.overflow).toBe(0);
  expect(fits.width).toBeGreaterThanOrEqual(240);
  const [noteBox, buttonBox] = [await note.boundingBox(), await button.boundingBox()];
  expect(buttonBox?.y ?? 0).toBeGreaterThanOrEqual((noteBox?.y ?? 0) + (noteBox?.height ?? 0));
});
