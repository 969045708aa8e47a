import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setAuth } from '@/lib/auth-store';
import { i18n, i18nReady } from '@/lib/i18n';
import { unreadThreads } from '@/lib/unread-threads';
import { mockApi } from '@/testing/mock-api';
import { renderWithRouter } from '@/testing/render-app';
import { MainLayout, type RouteHandle } from './main-layout';

const signIn = () =>
  setAuth({
    accessToken: 'token',
    user: { id: '1', code: 'C1', name: 'Ana', email: 'ana@demo.test' },
  });

/** The panel stays mounted (it slides); closed, it is inert and hidden by CSS. */
const isMenuOpen = () =>
  !screen.getByRole('dialog', { name: 'Menú', hidden: true }).hasAttribute('inert');

async function openMenu() {
  const user = userEvent.setup();
  const menuButton = screen.getByRole('button', { name: 'Abrir menú' });
  await user.click(menuButton);
  const menu = await screen.findByRole('dialog', { name: 'Menú' });
  return { user, menuButton, menu };
}

describe('side menu', () => {
  it('opens from the menu button, closes with Escape and gives focus back to the button', async () => {
    await renderWithRouter(<MainLayout>content</MainLayout>);
    expect(isMenuOpen()).toBe(false);

    const { user, menuButton, menu } = await openMenu();
    expect(menuButton.getAttribute('aria-expanded')).toBe('true');
    expect(isMenuOpen()).toBe(true);
    expect(menu.contains(document.activeElement)).toBe(true);

    await user.keyboard('{Escape}');
    await waitFor(() => expect(isMenuOpen()).toBe(false));
    expect(document.activeElement).toBe(menuButton);
    expect(menuButton.getAttribute('aria-expanded')).toBe('false');
  });

  it('keeps Tab inside while open', async () => {
    await renderWithRouter(<MainLayout>content</MainLayout>);
    const { user, menu } = await openMenu();
    const close = within(menu).getByRole('button', { name: 'Cerrar menú' });
    expect(document.activeElement).toBe(close);
    await user.tab({ shift: true });
    expect(menu.contains(document.activeElement)).toBe(true);
    expect(document.activeElement).not.toBe(close);
    await user.tab();
    expect(document.activeElement).toBe(close);
  });

  it('shows Login to a visitor, but not on the sign-in screen itself', async () => {
    const { unmount } = await renderWithRouter(<MainLayout>content</MainLayout>);
    let { menu } = await openMenu();
    expect(within(menu).getByRole('link', { name: 'Iniciar sesión' }).getAttribute('href')).toBe(
      '/login',
    );
    expect(within(menu).queryByText('Opciones')).toBeNull();
    unmount();

    await renderWithRouter(<MainLayout variant="public">content</MainLayout>);
    ({ menu } = await openMenu());
    expect(within(menu).queryByRole('link', { name: 'Iniciar sesión' })).toBeNull();
  });

  it('shows the signed-in options, the company card and Logout to a customer', async () => {
    signIn();
    await renderWithRouter(<MainLayout>content</MainLayout>);
    const { user, menu } = await openMenu();
    expect(within(menu).getByRole('link', { name: 'Notificaciones' }).getAttribute('href')).toBe(
      '/my-notifications',
    );
    expect(within(menu).getByRole('link', { name: 'Métodos de pago' }).getAttribute('href')).toBe(
      '/metodos-de-pago',
    );
    expect(within(menu).getByRole('button', { name: 'Cerrar sesión' })).toBeTruthy();

    await user.click(within(menu).getByRole('button', { name: 'Empresa' }));
    const company = await screen.findByRole('dialog', { name: 'Sobre la empresa' });
    expect(within(company).getByText('Oficina Online')).toBeTruthy();
    await user.keyboard('{Escape}');
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Sobre la empresa' })).toBeNull(),
    );
    // Escape closed the dialog only; the menu stays open with focus back on its entry.
    expect(isMenuOpen()).toBe(true);
    await waitFor(() =>
      expect(document.activeElement).toBe(within(menu).getByRole('button', { name: 'Empresa' })),
    );
  });

  it('switches dark mode on and off', async () => {
    await renderWithRouter(<MainLayout>content</MainLayout>);
    const { user, menu } = await openMenu();
    const toggle = within(menu).getByRole('switch', { name: 'Modo oscuro' });
    await user.click(toggle);
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    expect(localStorage.getItem('theme')).toBe('dark');
    await user.click(toggle);
    expect(document.documentElement.classList.contains('dark')).toBe(false);
  });
});

describe('header', () => {
  it('shows a back link when the route names a back target', async () => {
    await i18nReady;
    const router = createMemoryRouter(
      [
        { path: '/plain', element: <MainLayout>plain</MainLayout> },
        {
          path: '/detail',
          handle: { backTo: '/invoices' } satisfies RouteHandle,
          element: <MainLayout>detail</MainLayout>,
        },
      ],
      { initialEntries: ['/plain'] },
    );
    render(<RouterProvider router={router} />);
    expect(screen.queryByRole('link', { name: 'Volver' })).toBeNull();
    await act(() => router.navigate('/detail'));
    expect(screen.getByRole('link', { name: 'Volver' }).getAttribute('href')).toBe('/invoices');
  });

  it('shows the bell, and on desktop the profile, only to a customer', async () => {
    await renderWithRouter(<MainLayout>content</MainLayout>);
    const header = screen.getByRole('banner');
    expect(within(header).queryByRole('link', { name: 'Notificaciones' })).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Navegación principal' })).toBeNull();
    act(() => signIn());
    expect(within(header).getByRole('link', { name: 'Notificaciones' }).getAttribute('href')).toBe(
      '/my-notifications',
    );
    expect(within(header).getByRole('link', { name: 'Mi perfil' }).getAttribute('href')).toBe(
      '/user-profile',
    );
    expect(screen.getAllByRole('navigation', { name: 'Navegación principal' })).toHaveLength(2);
  });
});

describe('the "Mis consultas" entry (unread conversations)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('counts unread conversations in its name and a badge, also on the menu button, and drops them once read', async () => {
    let unread = 2;
    const calls = mockApi({
      '/invoice-threads/unread-count': () => ({ json: { unread } }),
      '/notifications/unread-count': () => ({ json: { unread: 0 } }),
    });
    signIn();
    await renderWithRouter(<MainLayout>content</MainLayout>);
    await act(() => unreadThreads.refresh());
    expect(calls.some((c) => c.path === '/invoice-threads/unread-count')).toBe(true);

    const menuButton = await screen.findByRole('button', {
      name: 'Abrir menú, 2 consultas sin leer',
    });
    const user = userEvent.setup();
    await user.click(menuButton);
    const menu = await screen.findByRole('dialog', { name: 'Menú' });
    const entry = within(menu).getByRole('link', { name: 'Mis consultas, 2 sin leer' });
    expect(entry.getAttribute('href')).toBe('/consultas');
    expect(entry.textContent).toBe('Mis consultas2');

    // A conversation was opened (read): its screen asks again.
    unread = 0;
    await act(() => unreadThreads.refresh());
    expect(within(menu).getByRole('link', { name: 'Mis consultas' }).textContent).toBe(
      'Mis consultas',
    );
    expect(screen.getByRole('button', { name: 'Abrir menú', hidden: true })).toBeTruthy();

    // A list of conversations carries the count too.
    act(() => unreadThreads.set(120));
    expect(
      within(menu).getByRole('link', { name: 'Mis consultas, 120 sin leer' }).textContent,
    ).toBe('Mis consultas99+');
  });
});

describe('language dialog', () => {
  it('lists the four languages in their own names and applies the chosen one on Accept', async () => {
    await renderWithRouter(<MainLayout>content</MainLayout>);
    const { user, menu } = await openMenu();
    await user.click(within(menu).getByRole('button', { name: /Idioma/ }));

    const dialog = await screen.findByRole('dialog', { name: 'Selecciona el idioma' });
    const options = within(dialog).getAllByRole('radio');
    expect(options.map((o) => o.closest('label')?.textContent)).toEqual([
      'Español',
      'Català',
      'English',
      'Euskara',
    ]);
    expect(within(dialog).getByRole('radio', { name: 'Español' })).toHaveProperty('checked', true);

    await user.click(within(dialog).getByRole('radio', { name: 'English' }));
    await user.click(within(dialog).getByRole('button', { name: 'Aceptar' }));

    await waitFor(() => expect(i18n.language).toBe('en'));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /language/i })).toBeNull());
    expect(document.documentElement.lang).toBe('en');
    expect(localStorage.getItem('language')).toBe('en');
    expect(within(menu).getByRole('button', { name: /Language/ })).toBeTruthy();
    expect(within(menu).getByRole('switch', { name: 'Dark mode' })).toBeTruthy();
    await act(async () => {
      await i18n.changeLanguage('es');
    });
  });
});
