import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAuth } from '@/lib/auth-store';
import { renderWithRouter } from '@/testing/render-app';
import { ChangePasswordScreen } from './change-password-screen';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

const isProfile = (url: unknown) => /\/user\/profile\//.test(String(url));

/**
 * `fetch` answering `response` to the change (and `hasPassword` to the profile the screen reads
 * first); answers the calls other than the profile's.
 */
function answer(response: () => Response, hasPassword = true) {
  const fetchMock = vi.fn<typeof fetch>(async (url) =>
    isProfile(url) ? json(200, { has_password: hasPassword }) : response(),
  );
  vi.stubGlobal('fetch', fetchMock);
  return {
    get calls() {
      return fetchMock.mock.calls.filter(([url]) => !isProfile(url));
    },
  };
}

beforeEach(() =>
  setAuth({
    accessToken: 'token',
    user: { id: '1', code: 'C1', name: 'Ana', email: 'ana@club.test' },
  }),
);
afterEach(() => vi.unstubAllGlobals());

const newPassword = 'Remo-de-tarde-2026';

async function fill(current: string, password: string, confirmation = password) {
  const user = userEvent.setup();
  if (current) await user.type(screen.getByLabelText('Contraseña actual'), current);
  if (password) await user.type(screen.getByLabelText('Nueva contraseña'), password);
  if (confirmation) await user.type(screen.getByLabelText('Confirmar contraseña'), confirmation);
  await user.click(screen.getByRole('button', { name: 'Cambiar contraseña' }));
}

describe('changing the password from the profile (review #13)', () => {
  it('checks before calling: the current password, the rules and the confirmation', async () => {
    const fetchMock = answer(() => json(500, {}));
    await renderWithRouter(<ChangePasswordScreen />, { path: '/change-password' });
    await fill('', 'ana-club-2026', 'otra');
    const current = screen.getByLabelText('Contraseña actual');
    expect(current.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(current);
    expect(screen.getByText('La contraseña no puede contener tu correo electrónico')).toBeTruthy();
    expect(screen.getByText('Las contraseñas no coinciden')).toBeTruthy();
    expect(fetchMock.calls).toEqual([]);
  });

  it('sends the three fields and says the other sessions ended', async () => {
    const fetchMock = answer(() => json(200, { message: 'Password changed' }));
    await renderWithRouter(<ChangePasswordScreen />, { path: '/change-password' });
    await fill('Demo1234!', newPassword);
    const title = await screen.findByRole('heading', { name: 'Contraseña cambiada' });
    await waitFor(() => expect(document.activeElement).toBe(title));
    expect(screen.getByText(/Hemos cerrado la sesión en tus otros dispositivos/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Volver a mi perfil' }).getAttribute('href')).toBe(
      '/user-profile',
    );
    const [url, init] = fetchMock.calls[0] ?? [];
    expect(String(url)).toMatch(/\/api\/1\.0\/change-password$/);
    expect(JSON.parse(String(init?.body))).toEqual({
      current_password: 'Demo1234!',
      password: newPassword,
      password_confirmation: newPassword,
    });
  });

  it('says a wrong current password, marks and focuses it, and keeps what was typed', async () => {
    answer(() =>
      json(422, {
        message: 'Invalid',
        code: 'validation_error',
        errors: { current_password: ['wrong_password'] },
      }),
    );
    await renderWithRouter(<ChangePasswordScreen />, { path: '/change-password' });
    await fill('no-es-esta', newPassword);
    expect(await screen.findByText('La contraseña actual no es correcta.')).toBeTruthy();
    const current = screen.getByLabelText('Contraseña actual');
    expect(current.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(current));
    expect((screen.getByLabelText('Nueva contraseña') as HTMLInputElement).value).toBe(newPassword);
  });

  it("words the server's refusal of a common password on the new one", async () => {
    answer(() =>
      json(422, {
        message: 'Invalid',
        code: 'validation_error',
        errors: { password: ['password_common'] },
      }),
    );
    await renderWithRouter(<ChangePasswordScreen />, { path: '/change-password' });
    await fill('Demo1234!', 'Contrasena2026');
    expect(
      await screen.findByText(
        'Esa contraseña es una de las más usadas y se adivina enseguida. Elige otra.',
      ),
    ).toBeTruthy();
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByLabelText('Nueva contraseña')),
    );
  });

  it('offers a customer without a password the link that creates one, sent to their address', async () => {
    const fetchMock = answer(() => json(202, { message: 'Sent if it exists' }), false);
    await renderWithRouter(<ChangePasswordScreen />, { path: '/change-password' });
    expect(await screen.findByRole('heading', { name: 'Crear una contraseña' })).toBeTruthy();
    expect(screen.queryByLabelText('Contraseña actual')).toBeNull();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Enviarme el enlace' }));
    expect(await screen.findByRole('status')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('ana@club.test');
    const [url, init] = fetchMock.calls[0] ?? [];
    expect(String(url)).toMatch(/\/api\/1\.0\/forgot-password$/);
    expect(JSON.parse(String(init?.body))).toEqual({ email: 'ana@club.test' });
  });
});
