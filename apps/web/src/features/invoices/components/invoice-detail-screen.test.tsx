import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAuth } from '@/lib/auth-store';
import { mockApi, renderWithQuery } from '@/testing/mock-api';
import { InvoiceDetailScreen } from './invoice-detail-screen';

const detail = {
  invoice_id: 'F2025-00010',
  invoice_date: '20250301',
  iva: 11.34,
  base: 54,
  total: 65.34,
  import: 65.34,
  pending: 43.56,
  to_pay: 43.56,
  customer_name: 'Laura García Martín',
  status: 0,
  state: 'overdue',
  lines: [
    {
      person: 'Laura',
      concept: 'Cuota mensual',
      quota: 'Adulto',
      quantity: 1,
      unit_price: 39,
      iva: 21,
      amount: 39,
    },
    {
      person: 'Laura',
      concept: 'Taquilla',
      quota: 'Mensual',
      quantity: 3,
      unit_price: 5,
      iva: 21,
      amount: 15,
    },
  ],
  payments: [
    {
      payment_id: 'a',
      duedate: '20250306',
      method: 'Tarjeta',
      method_kind: 'card',
      import: 21.78,
      paiddate: '20250306',
      state: 'paid',
      status: 'paid',
    },
    {
      payment_id: 'b',
      duedate: '20200406',
      method: 'Tarjeta',
      method_kind: 'card',
      import: 21.78,
      paiddate: null,
      state: 'pending',
      status: 'overdue',
    },
    {
      payment_id: 'c',
      duedate: '20990506',
      method: 'Tarjeta',
      method_kind: 'card',
      import: 21.78,
      paiddate: null,
      state: 'pending',
      status: 'pending',
    },
  ],
};
const related = { previous_invoice_id: 'F2025-00009', next_invoice_id: null };

beforeEach(() => {
  setAuth({ accessToken: 't', user: { id: '1', code: 'C', name: 'Ana', email: 'a@x.test' } });
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

describe('invoice detail (spec §2 "Invoice detail")', () => {
  it('shows the invoice, its lines and instalments, and the options', async () => {
    const calls = mockApi({
      '/invoice': () => ({ json: { invoice: detail } }),
      '/invoices/related': () => ({ json: related }),
    });
    await renderWithQuery(<InvoiceDetailScreen invoiceId="F2025-00010" />);

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Factura F2025-00010' }),
    ).toBeTruthy();
    expect(calls.find((c) => c.path === '/invoice')?.body).toEqual({ invoice_id: 'F2025-00010' });
    // One date format on every screen (finding #21), number and date once, in the heading.
    expect(screen.getAllByText('01/03/2025')).toHaveLength(1);
    expect(screen.getAllByText('Laura García Martín')).toHaveLength(1);
    // The status the server sent: partly paid, but an instalment is overdue.
    expect(screen.getAllByText('Vencida').length).toBeGreaterThan(0);
    const amounts = screen.getByRole('region', { name: 'Importes' });
    expect(within(amounts).getByText('11,34 €')).toBeTruthy();
    expect(within(amounts).getByText('65,34 €')).toBeTruthy();

    const lines = screen.getByRole('region', { name: 'Detalle' });
    expect(within(lines).getAllByText('Taquilla').length).toBeGreaterThan(0);
    expect(
      within(lines)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Persona', 'Concepto', 'Cuota', 'Cantidad', 'Valor unitario', 'Importe']);
    // The line total: 3 × 5,00 €.
    expect(within(lines).getAllByText('15,00 €').length).toBeGreaterThan(0);

    const payments = screen.getByRole('region', { name: 'Pagos' });
    expect(within(payments).getAllByText('Vencido').length).toBeGreaterThan(0);
    expect(within(payments).getAllByText('Pagado').length).toBeGreaterThan(0);

    // The amount to pay is what the server says is still owed.
    expect(screen.getByRole('link', { name: /Pagar 43,56/ }).getAttribute('href')).toBe(
      '/payment-checkin?invoiceId=F2025-00010&amount=43.56',
    );
    // No placeholder: the spec's disabled "share" is gone.
    expect(screen.queryByRole('button', { name: /Compartir/ })).toBeNull();

    const nav = screen.getByRole('navigation', { name: 'Otras facturas' });
    expect(
      (await within(nav).findByRole('link', { name: 'Factura anterior' })).getAttribute('href'),
    ).toBe('/invoice-detail/F2025-00009');
    expect(within(nav).queryByRole('link', { name: 'Factura siguiente' })).toBeNull();
  });

  it('offers no pay button when nothing is owed: the status badge says paid', async () => {
    mockApi({
      '/invoice': () => ({
        json: {
          invoice: {
            ...detail,
            status: 1,
            state: 'paid',
            pending: 0,
            to_pay: 0,
            payments: detail.payments.map((p) => ({
              ...p,
              paiddate: '20250306',
              state: 'paid',
              status: 'paid',
            })),
          },
        },
      }),
      '/invoices/related': () => ({ json: related }),
    });
    await renderWithQuery(<InvoiceDetailScreen invoiceId="F2025-00010" />);
    await screen.findByRole('heading', { level: 1, name: 'Factura F2025-00010' });
    expect(screen.getByText('Pagada')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Pagada' })).toBeNull();
    expect(screen.queryByRole('link', { name: /Pagar/ })).toBeNull();
  });

  it('says as pending what there is to pay, a charged return fee included, as the list and the PDF do', async () => {
    // 25 € of a returned direct debit plus the bank's 3,50 € fee the tenant charges: the server's
    // `to_pay` (the list's amount, the PDF's "Pendiente de pago"); `pending` leaves the fee out.
    const returned = {
      ...detail,
      total: 50,
      import: 50,
      base: 50,
      iva: 0,
      pending: 25,
      to_pay: 28.5,
      state: 'returned',
      payments: [
        {
          payment_id: 'r',
          duedate: '20250406',
          method: 'Domiciliación',
          method_kind: 'direct_debit',
          import: 25,
          paiddate: null,
          state: 'returned',
          status: 'returned',
          returned: { return_date: '20250409', reason_code: 'AM04', fee: 3.5, fee_charged: true },
        },
      ],
    };
    mockApi({
      '/invoice': () => ({ json: { invoice: returned } }),
      '/invoices/related': () => ({ json: related }),
    });
    await renderWithQuery(<InvoiceDetailScreen invoiceId="F2025-00010" />);
    await screen.findByRole('heading', { level: 1, name: 'Factura F2025-00010' });
    const amounts = screen.getByRole('region', { name: 'Importes' });
    const pending = within(amounts).getByText('Pendiente de pago').parentElement as HTMLElement;
    expect(within(pending).getByText('28,50 €')).toBeTruthy();
    expect(within(amounts).queryByText('25,00 €')).toBeNull();
    expect(screen.getByRole('link', { name: /Pagar 28,50/ })).toBeTruthy();
  });

  it('downloads the PDF through the signed link, in the interface language', async () => {
    const calls = mockApi({
      '/invoice': () => ({ json: { invoice: detail } }),
      '/invoices/related': () => ({ json: related }),
      '/invoice/pdf': () => ({ json: { url: '/1/api/1.0/invoice/pdf/signed' } }),
    });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await renderWithQuery(<InvoiceDetailScreen invoiceId="F2025-00010" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Descargar PDF' }));
    await vi.waitFor(() => expect(click).toHaveBeenCalled());
    const link = click.mock.contexts[0] as HTMLAnchorElement;
    expect(link.getAttribute('href')).toBe('/1/api/1.0/invoice/pdf/signed');
    expect(link.download).toBe('F2025-00010.pdf');
    expect(calls.find((c) => c.path === '/invoice/pdf')?.body).toEqual({
      invoice_id: 'F2025-00010',
      language: 'es',
    });
  });

  it('says the invoice was not found for a foreign or unknown id (404)', async () => {
    mockApi({ '/invoices/related': () => ({ status: 404, json: { code: 'not_found' } }) });
    await renderWithQuery(<InvoiceDetailScreen invoiceId="nope" />);
    expect(await screen.findByRole('heading', { name: 'Factura no encontrada' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Volver al inicio' }).getAttribute('href')).toBe(
      '/home',
    );
  });

  it('offers a retry when loading fails otherwise', async () => {
    mockApi({ '/invoice': () => ({ status: 500, json: { code: 'internal_error' } }) });
    await renderWithQuery(<InvoiceDetailScreen invoiceId="F1" />);
    expect(
      await screen.findByRole('heading', { name: 'No se ha podido cargar la factura' }),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reintentar' })).toBeTruthy();
  });
});
