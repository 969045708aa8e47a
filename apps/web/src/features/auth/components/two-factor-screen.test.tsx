import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setAuth } from '@/lib/auth-store';
import { defaultVisualConfig, VisualConfigContext } from '@/lib/visual-config';
import { renderWithRouter } from '@/testing/render-app';
import { TwoFactorScreen } from './two-factor-screen';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const setup = {
  secret: 'JBSWY3DPEHPK3PXP',
  uri: 'otpauth://totp/Portal:ana?secret=JBSWY3DPEHPK3PXP',
};

/**
 * Renders the screen (the second factor offered, and off) for a customer with (or without) a password;
 * `/second-factor/setup` answers `answer`. Returns the bodies it was sent.
 */
async function renderTwoFactor(answer: () => Response, hasPassword = true) {
  setAuth({
    accessToken: 'tok',
    user: { id: 'u1', code: 'C1', name: 'Ana', email: 'ana@club.test' },
  });
  const fetchMock = vi.fn<typeof fetch>(async (input) => {
    const path = new URL(String(input), 'http://x').pathname.replace(/^\/[^/]+\/api\/1\.0/, '');
    if (path.startsWith('/user/profile/')) return json(200, { has_password: hasPassword });
    if (path === '/second-factor') return json(200, { enabled: false, recovery_codes_left: 0 });
    if (path === '/second-factor/setup') return answer();
    return json(404, { code: 'not_found', message: 'Not found' });
  });
  vi.stubGlobal('fetch', fetchMock);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  await renderWithRouter(
    <VisualConfigContext value={{ ...defaultVisualConfig, secondFactor: 'optional' }}>
      <QueryClientProvider client={client}>
        <TwoFactorScreen />
      </QueryClientProvider>
    </VisualConfigContext>,
    { path: '/two-factor' },
  );
  return () =>
    fetchMock.mock.calls
      .filter(([url]) => String(url).endsWith('/second-factor/setup'))
      .map(([, init]) => JSON.parse(String(init?.body)) as unknown);
}

/** "Activar", once the profile has said whether there is a password to ask for. */
async function enable() {
  const button = await screen.findByRole('button', { name: 'Activar' });
  await waitFor(() => expect(button.hasAttribute('disabled')).toBe(false));
  await userEvent.setup().click(button);
}

afterEach(() => vi.unstubAllGlobals());

describe('turning on two-step verification proves it is the owner', () => {
  it('asks for the password before the QR code; a wrong one is said and kept', async () => {
    let attempts = 0;
    const bodies = await renderTwoFactor(() =>
      ++attempts === 1
        ? json(422, {
            message: 'Invalid',
            code: 'validation_failed',
            errors: { current_password: ['wrong_password'] },
          })
        : json(200, setup),
    );
    await enable();
    expect(await screen.findByRole('heading', { name: 'Confirma que eres tú' })).toBeTruthy();
    expect(screen.queryByRole('img', { name: /QR/ })).toBeNull();
    const field = screen.getByLabelText<HTMLInputElement>('Contraseña actual');
    expect(document.activeElement).toBe(field);

    const user = userEvent.setup();
    await user.type(field, 'Demo1234?');
    await user.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(await screen.findByText('La contraseña actual no es correcta.')).toBeTruthy();
    expect(field.value).toBe('Demo1234?');

    await user.clear(field);
    await user.type(field, 'Demo1234!');
    await user.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(
      await screen.findByRole('img', { name: 'Código QR para la aplicación de autenticación' }),
    ).toBeTruthy();
    expect(bodies()).toEqual([
      { current_password: 'Demo1234?' },
      { current_password: 'Demo1234!' },
    ]);
  });

  it('goes back to the status with Cancel, having asked the server nothing', async () => {
    const bodies = await renderTwoFactor(() => json(200, setup));
    await enable();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Cancelar' }));
    expect(await screen.findByRole('button', { name: 'Activar' })).toBeTruthy();
    expect(screen.queryByLabelText('Contraseña actual')).toBeNull();
    expect(bodies()).toEqual([]);
  });

  it('shows a customer without a password the QR code at once', async () => {
    const bodies = await renderTwoFactor(() => json(200, setup), false);
    await enable();
    expect(
      await screen.findByRole('img', { name: 'Código QR para la aplicación de autenticación' }),
    ).toBeTruthy();
    expect(screen.queryByLabelText('Contraseña actual')).toBeNull();
    expect(bodies()).toEqual([{ current_password: '' }]);
  });

  it('sends a customer without a password whose sign-in is too old to sign in again', async () => {
    await renderTwoFactor(
      () => json(403, { message: 'Sign in again', code: 'reauthentication_required' }),
      false,
    );
    await enable();
    expect(
      await screen.findByText(/este cambio solo puede hacerse en los 10 minutos siguientes/),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Volver a iniciar sesión' })).toBeTruthy();
  });
});
