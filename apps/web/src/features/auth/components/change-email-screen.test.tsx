import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAuth } from '@/lib/auth-store';
import { renderWithRouter } from '@/testing/render-app';
import { ChangeEmailScreen } from './change-email-screen';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const isProfile = (url: unknown) => /\/user\/profile\//.test(String(url));

/** `fetch` answering the profile (with or without a password) and `change` to the request. */
function answer(change: () => Response, hasPassword = true) {
  const fetchMock = vi.fn<typeof fetch>(async (url) =>
    isProfile(url) ? json(200, { has_password: hasPassword }) : change(),
  );
  vi.stubGlobal('fetch', fetchMock);
  return () => fetchMock.mock.calls.filter(([url]) => !isProfile(url));
}

beforeEach(() =>
  setAuth({
    accessToken: 'token',
    user: { id: '1', code: 'C1', name: 'Ana', email: 'ana@club.test' },
  }),
);
afterEach(() => vi.unstubAllGlobals());

describe('changing the sign-in e-mail (issue 23)', () => {
  it('checks before calling: an address, a new one, and the password', async () => {
    const calls = answer(() => json(500, {}));
    await renderWithRouter(<ChangeEmailScreen />, { path: '/change-email' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Correo electrónico nuevo'), 'ANA@club.test');
    await user.click(screen.getByRole('button', { name: 'Enviar el enlace de confirmación' }));
    expect(screen.getByText('Es el correo con el que ya entras.')).toBeTruthy();
    expect(screen.getByText('Escribe tu contraseña actual.')).toBeTruthy();
    expect(calls()).toEqual([]);
  });

  it('sends the address and the password, then says where the link went', async () => {
    const calls = answer(() => json(202, { email: 'ana.nueva@club.test' }));
    await renderWithRouter(<ChangeEmailScreen />, { path: '/change-email' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Correo electrónico nuevo'), 'ana.nueva@club.test');
    await user.type(screen.getByLabelText('Contraseña actual'), 'Demo1234!');
    await user.click(screen.getByRole('button', { name: 'Enviar el enlace de confirmación' }));
    expect(await screen.findByRole('heading', { name: 'Revisa tu correo nuevo' })).toBeTruthy();
    expect(screen.getByText(/ana\.nueva@club\.test/)).toBeTruthy();
    const [url, init] = calls()[0] ?? [];
    expect(String(url)).toMatch(/\/user\/email-change$/);
    expect(JSON.parse(String(init?.body))).toEqual({
      email: 'ana.nueva@club.test',
      current_password: 'Demo1234!',
    });
  });

  it("marks the server's refusal of a taken address", async () => {
    answer(() =>
      json(422, {
        message: 'Invalid',
        code: 'validation_error',
        errors: { email: ['email_taken'] },
      }),
    );
    await renderWithRouter(<ChangeEmailScreen />, { path: '/change-email' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Correo electrónico nuevo'), 'otra@club.test');
    await user.type(screen.getByLabelText('Contraseña actual'), 'Demo1234!');
    await user.click(screen.getByRole('button', { name: 'Enviar el enlace de confirmación' }));
    expect(
      await screen.findByText('Ese correo ya lo usa otra cuenta de esta organización.'),
    ).toBeTruthy();
  });

  it('sends a customer without a password whose sign-in is too old to sign in again', async () => {
    const calls = answer(
      () => json(403, { message: 'Sign in again', code: 'reauthentication_required' }),
      false,
    );
    await renderWithRouter(<ChangeEmailScreen />, { path: '/change-email' });
    await vi.waitFor(() => expect(screen.queryByLabelText('Contraseña actual')).toBeNull());
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Correo electrónico nuevo'), 'ana.nueva@club.test');
    await user.click(screen.getByRole('button', { name: 'Enviar el enlace de confirmación' }));
    expect(
      await screen.findByText(/este cambio solo puede hacerse en los 10 minutos siguientes/),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Volver a iniciar sesión' })).toBeTruthy();
    expect(JSON.parse(String(calls()[0]?.[1]?.body))).toEqual({
      email: 'ana.nueva@club.test',
      current_password: '',
    });
  });

  it('asks no password of a customer who has none', async () => {
    answer(() => json(202, { email: 'ana.nueva@club.test' }), false);
    await renderWithRouter(<ChangeEmailScreen />, { path: '/change-email' });
    await vi.waitFor(() => expect(screen.queryByLabelText('Contraseña actual')).toBeNull());
  });
});
