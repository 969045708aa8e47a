import { focusManager } from '@tanstack/react-query';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAuth } from '@/lib/auth-store';
import { mockApi, renderWithQuery } from '@/testing/mock-api';
import { stubViewport } from '@/testing/viewport';
import { PaymentListScreen } from './payment-list-screen';

/**
 * Review 4 (web, payments list): in select-to-pay mode the customer ticks two instalments. The list
 * is asked again (the tab comes back into view) and one of them is now paid (auto-pay, another tab).
 * Its checkbox disappears (a paid row cannot be chosen), but it stays in the selection: the bar
 * still counts it, adds its amount to the total and sends it to the confirmation, where the server
 * refuses the whole selection (422 not_payable). The customer cannot untick it either.
 */

const pending = (id: string, invoice: string, amount: number) => ({
  payment_id: id,
  invoice_id: invoice,
  amount,
  to_pay: amount,
  due_date: '20250105',
  method: 'Tarjeta',
  method_kind: 'card',
  status: 'overdue',
});

beforeEach(() => {
  setAuth({ accessToken: 't', user: { id: '1', code: 'C', name: 'Ana', email: 'a@x.test' } });
  vi.spyOn(console, 'error').mockImplementation(() => {});
  stubViewport(390);
});
afterEach(() => {
  // Unmount first: the focus reset below would otherwise refetch through the real fetch.
  cleanup();
  focusManager.setFocused(undefined);
  vi.unstubAllGlobals();
});

describe('review4: a selected instalment paid meanwhile', () => {
  it('leaves the selection, the total and the hand-over to the confirmation when the list reloads', async () => {
    let p1Paid = false;
    mockApi({
      '/payments': () => ({
        json: {
          payments: [
            p1Paid
              ? { ...pending('p1', 'F1', 15.73), status: 'paid', paid_date: '20251120' }
              : pending('p1', 'F1', 15.73),
            pending('p2', 'F2', 21.78),
          ],
          has_more: false,
        },
      }),
    });
    await renderWithQuery(<PaymentListScreen />, { path: '/mis-pagos' });
    await screen.findByRole('list', { name: 'Pagos' });
    await userEvent.click(screen.getByRole('button', { name: 'Seleccionar para pagar' }));
    for (const box of screen.getAllByRole('checkbox')) await userEvent.click(box);
    expect(screen.getByText('2 pagos seleccionados')).toBeTruthy();

    // p1 is paid elsewhere; the customer comes back to this tab and the list is asked again.
    p1Paid = true;
    act(() => {
      focusManager.setFocused(false);
      focusManager.setFocused(true);
    });
    const list = screen.getByRole('list', { name: 'Pagos' });
    await waitFor(() => expect(within(list).getByText('Pagado')).toBeTruthy());
    // p1 can no longer be chosen (nor unticked): only p2 has a checkbox.
    expect(screen.getAllByRole('checkbox')).toHaveLength(1);

    // What the bar says and hands over must be what can still be paid: p2 alone.
    const summary = screen.getByText(/pagos? seleccionados?$/).closest('[aria-live]');
    expect(summary?.textContent).toContain('1 pago seleccionado');
    expect(summary?.textContent).toContain('Total: 21,78\u00a0€');
    expect(screen.getByRole('link', { name: 'Pagar seleccionados' }).getAttribute('href')).toBe(
      '/payment-checkin?payments=p2&amount=21.78',
    );
  });
});
