import { act, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearAuth, setAuth } from '@/lib/auth-store';
import { changeLanguage, i18nReady } from '@/lib/i18n';
import { routes } from './router';

const signIn = () =>
  setAuth({
    accessToken: 'token',
    user: { id: '1', code: 'C1', name: 'Ana', email: 'ana@demo.test' },
  });

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

beforeEach(async () => {
  await i18nReady;
  await changeLanguage('es');
});

describe('route guards (spec §6)', () => {
  it.each(['/user-profile', '/mi-actividad', '/home', '/invoices?page=2', '/metodos-de-pago'])(
    'sends a visitor from %s to /login, remembering the screen',
    async (path) => {
      const router = renderAt(path);
      await screen.findByRole('heading', { name: 'Iniciar sesión' });
      expect(router.state.location.pathname).toBe('/login');
      expect(localStorage.getItem('lastPath')).toBe(path);
    },
  );

  it('shows My activity to a customer, with Contracts and Budgets disabled', async () => {
    signIn();
    renderAt('/mi-actividad');
    await screen.findByRole('heading', { level: 1, name: 'Mi actividad' });
    const main = screen.getByRole('main');
    expect(
      within(main)
        .getByRole('link', { name: /Mi usuario/ })
        .getAttribute('href'),
    ).toBe('/user-profile');
    expect(
      within(main)
        .getByRole('link', { name: /Facturas/ })
        .getAttribute('href'),
    ).toBe('/invoices');
    expect(within(main).getByRole('link', { name: /Pagos/ }).getAttribute('href')).toBe(
      '/mis-pagos',
    );
    expect(within(main).queryByRole('link', { name: /Contratos|Presupuestos/ })).toBeNull();
    expect(within(main).getByText('Contratos').closest('[aria-disabled]')).toBeTruthy();
    expect(within(main).getByText('Presupuestos').closest('[aria-disabled]')).toBeTruthy();
  });

  it('leaves a signed-in screen for /login as soon as the session goes', async () => {
    signIn();
    const router = renderAt('/mi-actividad');
    await screen.findByRole('heading', { level: 1, name: 'Mi actividad' });
    act(() => clearAuth());
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });
});
