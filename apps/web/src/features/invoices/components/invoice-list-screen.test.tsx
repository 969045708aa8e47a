import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAuth } from '@/lib/auth-store';
import { mockApi, renderWithQuery } from '@/testing/mock-api';
import { stubViewport } from '@/testing/viewport';
import { InvoiceListScreen } from './invoice-list-screen';

const invoice = (n: number, over: Partial<Record<string, unknown>> = {}) => ({
  invoice_id: `F2025-${String(n).padStart(5, '0')}`,
  invoice_date: '20250301',
  status: 1,
  state: 'paid',
  amount: 0,
  total: 47.19,
  ...over,
});

beforeEach(() => {
  setAuth({ accessToken: 't', user: { id: '1', code: 'C', name: 'Ana', email: 'a@x.test' } });
  vi.spyOn(console, 'error').mockImplementation(() => {});
  // Cards (a phone) unless a test asks for the desktop table.
  stubViewport(390);
});
afterEach(() => vi.unstubAllGlobals());

describe('invoice list (spec §2 "Invoice list", §4, §8)', () => {
  it('shows cards with the status the server sent, a Pagar when owed, and loads more', async () => {
    const calls = mockApi({
      '/invoices': (body) =>
        body.page === '1'
          ? {
              json: {
                invoices: [
                  invoice(3, { status: 0, state: 'pending', amount: 47.19 }),
                  // Partly paid with an overdue instalment: overdue wins (PRODUCT.md "Screens").
                  invoice(2, { status: 0, state: 'overdue', amount: 20, total: 47.19 }),
                  invoice(1, { status: 2, state: 'cancelled', amount: 0 }),
                ],
                has_more: true,
              },
            }
          : { json: { invoices: [invoice(0)], has_more: false } },
    });
    await renderWithQuery(<InvoiceListScreen />, { path: '/invoices' });

    const list = await screen.findByRole('list', { name: 'Facturas' });
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(3);
    const [pending, overdue, cancelled] = cards as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(pending).getByRole('link', { name: 'F2025-00003' }).getAttribute('href')).toBe(
      '/invoice-detail/F2025-00003',
    );
    expect(pending.textContent).toContain('Pendiente');
    expect(pending.textContent).toContain('47,19\u00a0€');
    expect(pending.textContent).toContain('01/03/2025');
    expect(
      within(pending)
        .getByRole('link', { name: 'Pagar la factura F2025-00003: 47,19\u00a0€' })
        .getAttribute('href'),
    ).toBe('/payment-checkin?invoiceId=F2025-00003&amount=47.19');
    expect(within(overdue).getByText('Vencida')).toBeTruthy();
    expect(overdue.textContent).toContain('Pendiente: 20,00\u00a0€');
    expect(within(cancelled).getByText('Anulada')).toBeTruthy();
    expect(within(cancelled).queryByRole('link', { name: /Pagar/ })).toBeNull();
    expect(calls[0]?.body).toMatchObject({ page: '1' });
    expect(calls[0]?.body).not.toHaveProperty('paid');

    await userEvent.click(screen.getByRole('button', { name: 'Ver más' }));
    expect(await screen.findByText('No hay más facturas que mostrar')).toBeTruthy();
    expect(within(list).getAllByRole('listitem')).toHaveLength(4);
    // Focus moves to the first loaded card, not lost with the button.
    expect(document.activeElement).toBe(within(list).getByRole('link', { name: 'F2025-00000' }));
    expect(calls[1]?.body).toMatchObject({ page: '2' });
  });

  it('is a table on a desktop: date, number, amount, status, PDF and Pagar', async () => {
    stubViewport(1280);
    mockApi({
      '/invoices': () => ({
        json: {
          invoices: [invoice(2, { status: 0, state: 'overdue', amount: 47.19 }), invoice(1)],
          has_more: false,
        },
      }),
    });
    await renderWithQuery(<InvoiceListScreen />, { path: '/invoices' });
    const table = await screen.findByRole('table', { name: 'Facturas' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Fecha', 'Número', 'Importe', 'Estado', 'Acciones']);
    const [, overdue, paid] = within(table).getAllByRole('row') as [
      HTMLElement,
      HTMLElement,
      HTMLElement,
    ];
    expect(within(overdue).getByText('Vencida')).toBeTruthy();
    expect(
      within(overdue).getByRole('link', { name: /Pagar la factura F2025-00002/ }),
    ).toBeTruthy();
    expect(
      within(overdue).getByRole('button', { name: 'Descargar el PDF de la factura F2025-00002' }),
    ).toBeTruthy();
    expect(within(paid).getByText('Pagada')).toBeTruthy();
    expect(within(paid).queryByRole('link', { name: /Pagar/ })).toBeNull();
  });

  it('sends the paid and pending filters and can clear them', async () => {
    const calls = mockApi({
      '/invoices': () => ({ json: { invoices: [invoice(1)], has_more: false } }),
    });
    const { router } = await renderWithQuery(<InvoiceListScreen />, { path: '/invoices' });
    await screen.findByText('F2025-00001');

    await userEvent.click(screen.getByRole('switch', { name: 'Pagadas' }));
    await waitFor(() => expect(calls.at(-1)?.body).toMatchObject({ paid: true }));
    expect(router.state.location.search).toBe('?paid=1');
    expect(screen.getByRole('switch', { name: 'Pagadas' }).getAttribute('aria-checked')).toBe(
      'true',
    );

    await userEvent.click(screen.getByRole('switch', { name: 'Pendientes' }));
    await waitFor(() => expect(calls.at(-1)?.body).toMatchObject({ paid: true, pending: true }));

    await userEvent.click(screen.getByRole('button', { name: 'Limpiar filtros' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.getByRole('switch', { name: 'Pagadas' }).getAttribute('aria-checked')).toBe(
      'false',
    );
  });

  it('searches a date range and refuses a reversed one without calling', async () => {
    const calls = mockApi({ '/invoices': () => ({ json: { invoices: [], has_more: false } }) });
    await renderWithQuery(<InvoiceListScreen />, { path: '/invoices' });
    // Spec §8: an empty result.
    expect(await screen.findByText('No hay más facturas disponibles')).toBeTruthy();

    const from = screen.getByLabelText('Desde');
    const to = screen.getByLabelText('Hasta');
    await userEvent.clear(from);
    await userEvent.type(from, '2024-05-01');
    await userEvent.clear(to);
    await userEvent.type(to, '2024-01-01');
    const before = calls.length;
    await userEvent.click(screen.getByRole('button', { name: 'Buscar' }));
    expect(screen.getByText('La fecha inicial no puede ser posterior a la final.')).toBeTruthy();
    expect(to.getAttribute('aria-invalid')).toBe('true');
    expect(calls.length).toBe(before);

    await userEvent.clear(to);
    await userEvent.type(to, '2024-12-31');
    await userEvent.click(screen.getByRole('button', { name: 'Buscar' }));
    await waitFor(() =>
      expect(calls.at(-1)?.body).toMatchObject({ datefrom: '20240501', dateto: '20241231' }),
    );
  });

  it('says so when the list fails, and when loading more fails (spec §8)', async () => {
    let fail = true;
    mockApi({
      '/invoices': (body) =>
        fail
          ? { status: 500, json: { code: 'internal_error' } }
          : body.page === '1'
            ? { json: { invoices: [invoice(1)], has_more: true } }
            : { status: 500, json: { code: 'internal_error' } },
    });
    await renderWithQuery(<InvoiceListScreen />, { path: '/invoices' });
    expect(await screen.findByText('No se han podido cargar las facturas.')).toBeTruthy();

    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Ver más' }));
    expect(await screen.findByText('No hay más facturas en esta búsqueda.')).toBeTruthy();
    expect(screen.getByText('F2025-00001')).toBeTruthy();
  });

  it('speaks the interface language, amounts staying es-ES', async () => {
    mockApi({
      '/invoices': () => ({
        json: {
          invoices: [invoice(1, { status: 0, state: 'pending', amount: 1234.5, total: 1234.5 })],
          has_more: false,
        },
      }),
    });
    await renderWithQuery(<InvoiceListScreen />, { path: '/invoices', language: 'eu' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Nire fakturak' })).toBeTruthy();
    const card = (await screen.findByRole('link', { name: 'F2025-00001' })).closest('li');
    expect(card?.textContent).toContain('Ordaintzeko');
    expect(card?.textContent).toContain('1234,50\u00a0€');
    expect(screen.getByText('Ez dago erakusteko faktura gehiagorik')).toBeTruthy();
  });

  it('shows a skeleton while loading', async () => {
    mockApi({ '/invoices': () => new Promise(() => {}) });
    await renderWithQuery(<InvoiceListScreen />, { path: '/invoices' });
    expect(screen.getByRole('status', { name: 'Cargando…' })).toBeTruthy();
  });
});
