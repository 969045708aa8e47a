import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signInCustomer } from '@/testing/checkout';
import { type ApiCall, mockApi, renderWithQuery } from '@/testing/mock-api';
import { PasskeysScreen } from './passkeys-screen';

const passkey = {
  id: 'p1',
  name: 'Chrome en Mac',
  backed_up: false,
  created_at: '2026-11-20T08:00:00.000Z',
  last_used_at: null,
};

afterEach(() => vi.unstubAllGlobals());

/** The screen with one passkey, "Chrome en Mac", whose rename form is open. */
async function openRename(language: 'es' | 'ca' | 'eu' | 'en' = 'es') {
  signInCustomer();
  const calls = mockApi({
    '/user/profile/u1': () => ({ json: { has_password: true } }),
    '/passkeys': () => ({ json: { passkeys: [passkey] } }),
    '/passkeys/p1/rename': () => ({ json: {} }),
  });
  await renderWithQuery(<PasskeysScreen />, { path: '/passkeys', language });
  const user = userEvent.setup();
  const row = (await screen.findByText('Chrome en Mac')).closest('li') as HTMLElement;
  await user.click(within(row).getAllByRole('button')[0] as HTMLElement);
  const field = within(row).getByRole<HTMLInputElement>('textbox');
  const save = within(row).getByRole('button', { name: /^(Guardar|Desar|Gorde|Save)$/ });
  return { calls, user, row, field, save };
}

const renames = (calls: ApiCall[]) => calls.filter((call) => call.path === '/passkeys/p1/rename');

describe('renaming a passkey', () => {
  it('says a name of only spaces is required, keeps the form open and sends nothing', async () => {
    const { calls, user, row, field, save } = await openRename();
    await user.clear(field);
    await user.type(field, '   ');
    await user.click(save);

    expect(within(row).getByText('Este campo es obligatorio')).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(field.getAttribute('aria-describedby')).toContain(`${field.id}-error`);
    expect(document.activeElement).toBe(field);
    // The form stays, with what was typed.
    expect(screen.getByRole('textbox')).toBe(field);
    expect(field.value).toBe('   ');
    expect(renames(calls)).toEqual([]);

    // Typing again clears the error; a real name is sent trimmed.
    await user.type(field, 'Portátil ');
    expect(within(row).queryByText('Este campo es obligatorio')).toBeNull();
    await user.click(save);
    expect(await screen.findByText('Nombre cambiado.')).toBeTruthy();
    expect(renames(calls).map((call) => call.body)).toEqual([{ name: 'Portátil' }]);
  });

  it.each([
    ['ca', 'Aquest camp és obligatori'],
    ['eu', 'Eremu hau derrigorrezkoa da'],
    ['en', 'This field is required'],
  ] as const)('says it in %s too', async (language, text) => {
    const { calls, user, row, field, save } = await openRename(language);
    await user.clear(field);
    await user.type(field, '  ');
    await user.click(save);
    expect(within(row).getByText(text)).toBeTruthy();
    expect(renames(calls)).toEqual([]);
  });

  it('says which field the server refused, under it', async () => {
    const { calls, user, row, field, save } = await openRename();
    calls.length = 0;
    mockApi({
      '/passkeys': () => ({ json: { passkeys: [passkey] } }),
      '/passkeys/p1/rename': () => ({
        status: 422,
        json: {
          message: 'Invalid',
          code: 'validation_failed',
          errors: { name: ['invalid_characters'] },
        },
      }),
    });
    await user.clear(field);
    await user.type(field, 'Mi móvil');
    await user.click(save);
    expect(await within(row).findByText('Contiene caracteres que no se admiten.')).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(within(row).queryByRole('alert')).toBeNull();
  });

  it('drops a passkey already removed elsewhere (404) and reads the list again, no "try again"', async () => {
    const { user, row, field, save } = await openRename();
    // Removed from another device or tab while the form was open.
    const calls = mockApi({
      '/user/profile/u1': () => ({ json: { has_password: true } }),
      '/passkeys': () => ({ json: { passkeys: [] } }),
      '/passkeys/p1/rename': () => ({
        status: 404,
        json: { code: 'not_found', message: 'No such passkey' },
      }),
    });
    await user.clear(field);
    await user.type(field, 'Portátil');
    await user.click(save);

    expect(
      await screen.findByText(
        'La llave de acceso «Chrome en Mac» ya no estaba en tu cuenta: se quitó desde otro dispositivo o pestaña.',
      ),
    ).toBeTruthy();
    expect(row.isConnected).toBe(false);
    expect(screen.queryByText('Chrome en Mac')).toBeNull();
    expect(screen.queryByText('No se ha podido hacer. Inténtalo de nuevo.')).toBeNull();
    expect(screen.queryByText('Nombre cambiado.')).toBeNull();
    // The list is read again, to show what the server holds.
    expect(calls.map((call) => call.path)).toContain('/passkeys');
  });
});
