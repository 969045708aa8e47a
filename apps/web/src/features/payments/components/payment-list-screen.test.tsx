import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAuth } from '@/lib/auth-store';
import { mockApi, renderWithQuery } from '@/testing/mock-api';
import { stubViewport } from '@/testing/viewport';
import { PaymentListScreen } from './payment-list-screen';

const payments = [
  {
    payment_id: 'p1',
    invoice_id: 'F1',
    amount: 15.73,
    due_date: '20990105',
    method: 'Tarjeta',
    method_kind: 'card',
    status: 'pending',
  },
  {
    payment_id: 'p2',
    invoice_id: 'F2',
    amount: 21.78,
    due_date: '20200105',
    method: 'Domiciliación bancaria',
    method_kind: 'direct_debit',
    status: 'overdue',
  },
  {
    payment_id: 'p3',
    invoice_id: 'F3',
    amount: 47.19,
    due_date: '20200101',
    paid_date: '20200102',
    method: 'Tarjeta',
    method_kind: 'card',
    status: 'paid',
  },
  {
    // The status is the server's, whatever the dates look like: the browser derives nothing.
    payment_id: 'p4',
    invoice_id: 'F4',
    amount: 10,
    due_date: 'garbage',
    method: 'Tarjeta',
    method_kind: 'card',
    status: 'overdue',
  },
];

beforeEach(() => {
  setAuth({ accessToken: 't', user: { id: '1', code: 'C', name: 'Ana', email: 'a@x.test' } });
  vi.spyOn(console, 'error').mockImplementation(() => {});
  // Cards (a phone) unless a test asks for the desktop table.
  stubViewport(390);
});
afterEach(() => vi.unstubAllGlobals());

describe('payments list (spec §2 "Payments list", §4)', () => {
  it('shows each payment with the status the server sent, and a Pagar on each unpaid one', async () => {
    mockApi({ '/payments': () => ({ json: { payments, has_more: false } }) });
    await renderWithQuery(<PaymentListScreen />, { path: '/mis-pagos' });
    const list = await screen.findByRole('list', { name: 'Pagos' });
    const items = within(list).getAllByRole('listitem');
    expect(
      items.map((item) => within(item).getByText(/^(Pendiente|Vencido|Pagado)$/).textContent),
    ).toEqual(['Pendiente', 'Vencido', 'Pagado', 'Vencido']);
    expect(
      within(items[1] as HTMLElement)
        .getByRole('link', { name: 'Pagar el plazo de la factura F2: 21,78\u00a0€' })
        .getAttribute('href'),
    ).toBe('/payment-checkin?payments=p2&amount=21.78');
    expect(within(items[2] as HTMLElement).queryByRole('link', { name: /Pagar/ })).toBeNull();
    expect(within(items[2] as HTMLElement).getByText('Pagado el 02/01/2020')).toBeTruthy();
    expect(
      within(items[0] as HTMLElement)
        .getByRole('link', { name: 'Factura F1' })
        .getAttribute('href'),
    ).toBe('/invoice-detail/F1');
    expect(screen.getByText('No hay más pagos que mostrar')).toBeTruthy();
  });

  it('sends only pending, only overdue and the order to the server', async () => {
    const calls = mockApi({ '/payments': () => ({ json: { payments: [], has_more: false } }) });
    const { router } = await renderWithQuery(<PaymentListScreen />, { path: '/mis-pagos' });
    expect(await screen.findByText('No hay pagos en este periodo')).toBeTruthy();
    expect(calls[0]?.body).toMatchObject({ page: '1', order: 'desc' });
    expect(calls[0]?.body).not.toHaveProperty('overdue');

    await userEvent.click(screen.getByRole('switch', { name: 'Solo vencidos' }));
    await waitFor(() => expect(calls.at(-1)?.body).toMatchObject({ overdue: true }));
    await userEvent.click(screen.getByRole('switch', { name: 'Solo pendientes' }));
    await waitFor(() => expect(calls.at(-1)?.body).toMatchObject({ overdue: true, pending: true }));
    const order = screen.getByRole('switch', { name: 'Ordenar por vencimiento descendente' });
    expect(order.getAttribute('aria-checked')).toBe('true');
    await userEvent.click(order);
    await waitFor(() => expect(calls.at(-1)?.body).toMatchObject({ order: 'asc' }));
    expect(router.state.location.search).toBe('?pending=1&overdue=1&order=asc');
  });

  it('starts with only overdue when the address asks for it', async () => {
    const calls = mockApi({ '/payments': () => ({ json: { payments: [], has_more: false } }) });
    await renderWithQuery(<PaymentListScreen />, { path: '/mis-pagos?overdue=1' });
    await screen.findByText('No hay pagos en este periodo');
    expect(calls[0]?.body).toMatchObject({ overdue: true });
  });

  it('selects unpaid payments, keeps a running total and hands them to the payment screen', async () => {
    mockApi({ '/payments': () => ({ json: { payments, has_more: false } }) });
    await renderWithQuery(<PaymentListScreen />, { path: '/mis-pagos' });
    await screen.findByRole('list', { name: 'Pagos' });
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);

    const mode = screen.getByRole('button', { name: 'Seleccionar para pagar' });
    await userEvent.click(mode);
    // Only the unpaid ones (pending, overdue) can be chosen; their own Pagar steps aside.
    expect(screen.getAllByRole('checkbox')).toHaveLength(3);
    expect(screen.queryAllByRole('link', { name: /Pagar el plazo/ })).toHaveLength(0);
    expect(screen.getByText('0 pagos seleccionados')).toBeTruthy();
    expect(
      screen.getByRole('button', { name: 'Pagar seleccionados' }).hasAttribute('disabled'),
    ).toBe(true);

    await userEvent.click(
      screen.getByRole('checkbox', {
        name: 'Seleccionar el pago de la factura F1 de 15,73\u00a0€',
      }),
    );
    await userEvent.click(
      screen.getByRole('checkbox', {
        name: 'Seleccionar el pago de la factura F2 de 21,78\u00a0€',
      }),
    );
    const summary = screen.getByText('2 pagos seleccionados').closest('[aria-live]');
    expect(summary?.getAttribute('aria-live')).toBe('polite');
    expect(summary?.textContent).toContain('Total: 37,51\u00a0€');
    expect(screen.getByRole('link', { name: 'Pagar seleccionados' }).getAttribute('href')).toBe(
      '/payment-checkin?payments=p1,p2&amount=37.51',
    );

    // Spec §4: leaving the mode clears the selection.
    await userEvent.click(screen.getByRole('button', { name: 'Cancelar selección' }));
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Seleccionar para pagar' }));
    expect(screen.getByText('0 pagos seleccionados')).toBeTruthy();
    expect(screen.getAllByRole('checkbox').every((box) => !(box as HTMLInputElement).checked)).toBe(
      true,
    );
  });

  it('is a table on a desktop, with the hero the route gives it above', async () => {
    stubViewport(1280);
    mockApi({ '/payments': () => ({ json: { payments, has_more: false } }) });
    await renderWithQuery(<PaymentListScreen hero={<p>hero</p>} />, { path: '/mis-pagos' });
    const table = await screen.findByRole('table', { name: 'Pagos' });
    expect(screen.getByText('hero')).toBeTruthy();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Vencimiento', 'Factura', 'Importe', 'Forma de pago', 'Estado', 'Acciones']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(within(rows[1] as HTMLElement).getByText('Vencido')).toBeTruthy();
    expect(
      within(rows[1] as HTMLElement).getByRole('link', { name: /Pagar el plazo/ }),
    ).toBeTruthy();
    expect(within(rows[2] as HTMLElement).queryByRole('link', { name: /Pagar/ })).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Seleccionar para pagar' }));
    expect(within(table).getAllByRole('checkbox')).toHaveLength(3);
  });

  it.each([390, 1280])(
    'offers the receipt of a row paid in the portal, and none where paid elsewhere (%i px)',
    async (width) => {
      stubViewport(width);
      const portalPaid = {
        ...payments[2],
        payment_id: 'p5',
        invoice_id: 'F5',
        receipt_id: 'a-5',
      };
      const calls = mockApi({
        '/payments': () => ({ json: { payments: [...payments, portalPaid], has_more: false } }),
        '/documents/receipt': () => ({ json: { url: '/1/api/1.0/documents/receipt/signed' } }),
      });
      const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
      await renderWithQuery(<PaymentListScreen />, { path: '/mis-pagos' });
      const button = await screen.findByRole('button', {
        name: 'Descargar el justificante del pago de la factura F5',
      });
      expect(button.textContent).toBe('Justificante');
      // F3 was paid too, but not through the portal: no receipt to offer.
      expect(screen.getAllByRole('button', { name: /justificante/i })).toHaveLength(1);

      await userEvent.click(button);
      await vi.waitFor(() => expect(click).toHaveBeenCalled());
      expect(calls.find((c) => c.path === '/documents/receipt')?.body).toEqual({
        payment_id: 'a-5',
        language: 'es',
      });
      expect((click.mock.contexts[0] as HTMLAnchorElement).getAttribute('href')).toBe(
        '/1/api/1.0/documents/receipt/signed',
      );
      click.mockRestore();
    },
  );

  it('shows the spec’s text when loading more fails (spec §8)', async () => {
    mockApi({
      '/payments': (body) =>
        body.page === '1'
          ? { json: { payments: payments.slice(0, 1), has_more: true } }
          : { status: 503, json: { code: 'service_unavailable' } },
    });
    await renderWithQuery(<PaymentListScreen />, { path: '/mis-pagos' });
    await userEvent.click(await screen.findByRole('button', { name: 'Ver más' }));
    expect(
      await screen.findByText('Error al cargar más pagos. Por favor, inténtalo de nuevo.'),
    ).toBeTruthy();
  });
});
