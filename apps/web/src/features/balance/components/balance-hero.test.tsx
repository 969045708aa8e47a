import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAuth } from '@/lib/auth-store';
import { mockApi, renderWithQuery } from '@/testing/mock-api';
import { BalanceHero } from './balance-hero';

const owed = {
  outstanding: 333.96,
  outstanding_count: 3,
  overdue: 264.99,
  overdue_count: 2,
  next_due_date: '20991206',
  pay: { scope: 'overdue', amount: 264.99, payment_ids: ['p1', 'p2'] },
};

beforeEach(() => {
  setAuth({ accessToken: 't', user: { id: '1', code: 'C', name: 'Ana', email: 'a@x.test' } });
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

describe('what you owe (PRODUCT.md "Screens")', () => {
  it('leads with the outstanding total, the overdue part and one Pagar for what the server chose', async () => {
    const calls = mockApi({ '/balance': () => ({ json: owed }) });
    await renderWithQuery(<BalanceHero showPaymentsLink />);
    const hero = await screen.findByRole('region', { name: 'Pendiente de pago' });
    expect(await within(hero).findByText('333,96 €')).toBeTruthy();
    expect(within(hero).getByText('3 plazos sin pagar')).toBeTruthy();
    expect(within(hero).getByText('264,99 € vencido (2 plazos)')).toBeTruthy();
    expect(within(hero).getByText('Próximo vencimiento: 06/12/2099')).toBeTruthy();
    const pay = within(hero).getByRole('link', { name: 'Pagar 264,99\u00a0€' });
    expect(pay.getAttribute('href')).toBe('/payment-checkin?payments=p1,p2&amount=264.99');
    expect(within(hero).getByText('Paga los 2 plazos vencidos')).toBeTruthy();
    expect(within(hero).getByRole('link', { name: 'Ver mis pagos' }).getAttribute('href')).toBe(
      '/mis-pagos',
    );
    expect(calls).toEqual([{ path: '/balance', body: {} }]);
  });

  it('pays every pending instalment when none is overdue, in the customer’s language', async () => {
    mockApi({
      '/balance': () => ({
        json: {
          ...owed,
          overdue: 0,
          overdue_count: 0,
          pay: { scope: 'pending', amount: 333.96, payment_ids: ['p1', 'p2', 'p3'] },
        },
      }),
    });
    await renderWithQuery(<BalanceHero />, { language: 'en' });
    const hero = await screen.findByRole('region', { name: 'Outstanding' });
    expect(await within(hero).findByRole('link', { name: 'Pay 333,96\u00a0€' })).toBeTruthy();
    expect(within(hero).getByText('Pays the 3 unpaid instalments')).toBeTruthy();
    expect(within(hero).queryByText(/overdue/)).toBeNull();
    expect(within(hero).queryByRole('link', { name: 'See my payments' })).toBeNull();
  });

  it('is calm when nothing is owed, and offers a retry when it cannot load', async () => {
    let fail = false;
    mockApi({
      '/balance': () =>
        fail
          ? { status: 500, json: { code: 'internal_error' } }
          : {
              json: {
                outstanding: 0,
                outstanding_count: 0,
                overdue: 0,
                overdue_count: 0,
                next_due_date: null,
                pay: { scope: 'none', amount: 0, payment_ids: [] },
              },
            },
    });
    const { unmount } = await renderWithQuery(<BalanceHero />);
    expect(await screen.findByText('Estás al día')).toBeTruthy();
    expect(screen.queryByRole('link', { name: /Pagar/ })).toBeNull();
    unmount();

    fail = true;
    await renderWithQuery(<BalanceHero />);
    expect(await screen.findByText('No se ha podido cargar lo que tienes pendiente.')).toBeTruthy();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByText('Estás al día')).toBeTruthy();
  });
});
