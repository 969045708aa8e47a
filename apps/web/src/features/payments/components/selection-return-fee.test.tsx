import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAuth } from '@/lib/auth-store';
import { mockApi, renderWithQuery } from '@/testing/mock-api';
import { stubViewport } from '@/testing/viewport';
import { PaymentListScreen } from './payment-list-screen';

/**
 * A returned direct debit whose bank fee the tenant charges is paid
 * with its fee (the server's checkout preview and Redsys charge instalment + fee; the invoice
 * detail's "Pagar" says `to_pay`, fee included). The select-to-pay bar's "Total" must be what the
 * selection will cost, not the instalments without the fee.
 */

const payments = [
  {
    payment_id: 'p1',
    invoice_id: 'F1',
    amount: 15.73,
    to_pay: 15.73,
    due_date: '20990105',
    method: 'Tarjeta',
    method_kind: 'card',
    status: 'pending',
  },
  {
    payment_id: 'p5',
    invoice_id: 'F5',
    amount: 40,
    // As the server serves it: the amount plus the charged fee.
    to_pay: 43.5,
    due_date: '20250105',
    method: 'Domiciliación bancaria',
    method_kind: 'direct_debit',
    status: 'returned',
    returned: { return_date: '20250110', reason_code: 'AM04', fee: 3.5, fee_charged: true },
  },
];

beforeEach(() => {
  setAuth({ accessToken: 't', user: { id: '1', code: 'C', name: 'Ana', email: 'a@x.test' } });
  vi.spyOn(console, 'error').mockImplementation(() => {});
  stubViewport(390);
});
afterEach(() => vi.unstubAllGlobals());

describe('select-to-pay with a returned debit whose fee is charged', () => {
  it('the running total includes the return fee that will be charged with it', async () => {
    mockApi({ '/payments': () => ({ json: { payments, has_more: false } }) });
    await renderWithQuery(<PaymentListScreen />, { path: '/mis-pagos' });
    await screen.findByRole('list', { name: 'Pagos' });
    await userEvent.click(screen.getByRole('button', { name: 'Seleccionar para pagar' }));
    for (const box of screen.getAllByRole('checkbox')) await userEvent.click(box);

    const summary = screen.getByText('2 pagos seleccionados').closest('[aria-live]');
    // 15,73 + 40,00 + 3,50 of the bank's fee: what the confirmation and Redsys will charge.
    expect(summary?.textContent).toContain('Total: 59,23\u00a0€');
  });
});
