import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAuth } from '@/lib/auth-store';
import { lastItemsRange, previousMonthRange, todayApiDate } from '@/lib/dates';
import { mockApi, renderWithQuery } from '@/testing/mock-api';
import { HomeScreen } from './home-screen';

const signIn = (name: string, email = 'laura@demo.test') =>
  setAuth({ accessToken: 't', user: { id: '1', code: 'C', name, email } });

beforeEach(() => vi.spyOn(console, 'error').mockImplementation(() => {}));
afterEach(() => vi.unstubAllGlobals());

describe('home (spec §2 "Home")', () => {
  it('opens with the hero the route gives it, above the rest', async () => {
    mockApi({});
    signIn('Laura');
    await renderWithQuery(<HomeScreen hero={<section aria-label="hero" />} />, { path: '/home' });
    const hero = screen.getByRole('region', { name: 'hero' });
    const stats = screen.getByRole('region', { name: 'Resumen del mes pasado' });
    expect(hero.compareDocumentPosition(stats) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('greets by name, else by e-mail, else with the default label', async () => {
    mockApi({});
    signIn('Laura García');
    const { unmount } = await renderWithQuery(<HomeScreen />, { path: '/home' });
    expect(screen.getByRole('heading', { level: 1, name: 'Hola, Laura García' })).toBeTruthy();
    unmount();
    signIn('  ');
    const second = await renderWithQuery(<HomeScreen />, { path: '/home' });
    expect(screen.getByRole('heading', { level: 1, name: 'Hola, laura@demo.test' })).toBeTruthy();
    second.unmount();
    signIn('', '');
    await renderWithQuery(<HomeScreen />, { path: '/home' });
    expect(screen.getByRole('heading', { level: 1, name: 'Hola, usuario' })).toBeTruthy();
  });

  it('shows the previous month’s figures and the last invoice and payment', async () => {
    signIn('Laura');
    const calls = mockApi({
      '/invoices/summary': () => ({
        json: { summary: { total_invoices: 2, total_pending: 94.38 } },
      }),
      '/invoices': () => ({
        json: {
          invoices: [
            {
              invoice_id: 'F-OLD',
              invoice_date: '20250101',
              status: 1,
              state: 'paid',
              amount: 0,
              total: 10,
            },
            {
              invoice_id: 'F-NEW',
              invoice_date: '20250301',
              status: 0,
              state: 'overdue',
              amount: 47.19,
              total: 47.19,
            },
          ],
          has_more: false,
        },
      }),
      '/payments': () => ({
        json: {
          payments: [
            {
              payment_id: 'p',
              invoice_id: 'F-NEW',
              amount: 47.19,
              due_date: '20200306',
              method: 'Tarjeta',
              method_kind: 'card',
              status: 'overdue',
            },
          ],
          has_more: false,
        },
      }),
    });
    await renderWithQuery(<HomeScreen />, { path: '/home' });

    const stats = screen.getByRole('region', { name: 'Resumen del mes pasado' });
    expect(await within(stats).findByText('2')).toBeTruthy();
    expect(within(stats).getByText('94,38 €')).toBeTruthy();
    expect(calls.find((c) => c.path === '/invoices/summary')?.body).toEqual(previousMonthRange());
    expect(calls.find((c) => c.path === '/invoices')?.body).toEqual({
      ...lastItemsRange(),
      page: '1',
    });
    // The last payment is one already due: the range stops at today.
    expect(calls.find((c) => c.path === '/payments')?.body).toMatchObject({
      datefrom: lastItemsRange().datefrom,
      dateto: todayApiDate(),
    });

    const invoice = await screen.findByRole('link', { name: /Última factura/ });
    expect(invoice.getAttribute('href')).toBe('/invoice-detail/F-NEW');
    expect(invoice.textContent).toContain('Factura F-NEW');
    expect(invoice.textContent).toContain('01/03/2025');
    expect(invoice.textContent).toContain('47,19\u00a0€');
    // The status the server computed: overdue, as on every list.
    expect(invoice.textContent).toContain('Vencida');

    const payment = await screen.findByRole('link', { name: /Último pago/ });
    expect(payment.getAttribute('href')).toBe('/mis-pagos');
    expect(await within(payment).findByText('Vencido')).toBeTruthy();
    expect(payment.textContent).toContain('Vence el 06/03/2020');

    const tiles = screen.getByRole('region', { name: 'Gestión' });
    expect(
      within(tiles)
        .getByRole('link', { name: /Facturas/ })
        .getAttribute('href'),
    ).toBe('/invoices');
    expect(within(tiles).getByRole('link', { name: /Pagos/ }).getAttribute('href')).toBe(
      '/mis-pagos',
    );
    expect(within(tiles).getByText('Presupuestos').closest('[aria-disabled]')).toBeTruthy();
    expect(within(tiles).getByText('Contratos').closest('[aria-disabled]')).toBeTruthy();
  });

  it('shows dashes and the error label when the figures fail, and the empty labels', async () => {
    signIn('Laura');
    mockApi({
      '/invoices/summary': () => ({ status: 500, json: { code: 'internal_error' } }),
      '/invoices': () => ({ json: { invoices: [], has_more: false } }),
      '/payments': () => ({ json: { payments: [], has_more: false } }),
    });
    await renderWithQuery(<HomeScreen />, { path: '/home' });
    const stats = screen.getByRole('region', { name: 'Resumen del mes pasado' });
    expect(await within(stats).findByText('No se han podido cargar los datos')).toBeTruthy();
    expect(within(stats).getAllByText('--')).toHaveLength(2);

    const invoice = await screen.findByRole('link', { name: /Todavía no tienes facturas/ });
    expect(invoice.getAttribute('href')).toBe('/invoices');
    expect(await screen.findByRole('link', { name: /Todavía no tienes pagos/ })).toBeTruthy();
  });
});
