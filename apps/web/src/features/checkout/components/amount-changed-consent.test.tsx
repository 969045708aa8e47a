import { focusManager } from '@tanstack/react-query';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import es from '@/locales/es/checkout.json';
import { setAuth } from '@/lib/auth-store';
import { mockApi, renderWithQuery } from '@/testing/mock-api';
import { CheckinScreen } from './checkin-screen';

/**
 * Review 4 (web, checkout): the conditions the customer ticks name the amount ("autorizar un cargo
 * de 264,99 €"). When what is owed changes under the open confirmation (the tab comes back into
 * view and the preview is asked again, or the start is refused with `amount_mismatch` and the
 * preview is asked again), the screen shows the new amount, but the box stays ticked: one more
 * click starts a charge of an amount the customer never accepted. And after `amount_mismatch` the
 * screen keeps telling the customer to go back to the invoice to see the new amount, which it
 * already shows.
 */

const preview = (amount: number) => ({
  amount,
  currency: 'EUR',
  instalments: [
    {
      payment_id: 'p1',
      invoice_id: 'F2025-00083',
      seq: 1,
      due_date: '20251005',
      amount,
      overdue: true,
      status: 'overdue',
    },
  ],
  methods: ['credit_card'],
  date: '2026-11-21',
  time: '12:36',
});

const started = {
  success: true,
  payment_id: '6f1c1d2e-0000-4000-8000-000000000001',
  redsys_params: {
    Ds_SignatureVersion: 'HMAC_SHA512_V2',
    Ds_MerchantParameters: 'e30=',
    Ds_Signature: 'c2ln',
  },
  order_id: '2611Ab3dEf9h',
  url: 'http://localhost:3180/sis/realizarPago',
  message: 'Payment started',
};

const mismatch = {
  status: 422,
  json: { message: 'Invalid', code: 'validation_failed', errors: { amount: ['amount_mismatch'] } },
};

const slow = { timeout: 5000 };
const conditionsText = (amount: string) => es.checkin.conditions.text.replace('{{amount}}', amount);
const conditions = () =>
  screen.getByRole('checkbox', { name: es.checkin.conditions.accept }) as HTMLInputElement;
const accept = () =>
  screen.getByRole('button', { name: new RegExp(`^${es.checkin.accept}`) }) as HTMLButtonElement;

beforeEach(() => {
  setAuth({
    accessToken: 'tok',
    user: { id: 'u1', code: 'LE-1', name: 'Laura', email: 'cliente@demo.test' },
  });
  vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  // Unmount first: the focus reset below would otherwise refetch through the real fetch.
  cleanup();
  focusManager.setFocused(undefined);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  sessionStorage.clear();
  document.body.replaceChildren();
});

describe('review4: the accepted conditions named an amount that is no longer the one charged', () => {
  it('a new amount found when the tab comes back into view un-ticks the conditions', async () => {
    let owed = 264.99;
    mockApi({
      '/payment-methods': () => ({ json: { methods: [], room_for_another: true } }),
      '/redsys/checkout-preview': () => ({ json: preview(owed) }),
      '/redsys/init-payment': () => ({ json: started }),
    });
    await renderWithQuery(<CheckinScreen />, {
      path: '/payment-checkin?invoiceId=F2025-00083&amount=264.99',
    });
    const user = userEvent.setup();
    await screen.findByText(conditionsText('264,99 €'), {}, slow);
    await user.click(conditions());
    expect(conditions().checked).toBe(true);

    // Away in another tab, a returned debit's fee is added: 300,00 € are owed now. The customer
    // comes back to this tab (the preview is asked again on focus).
    owed = 300;
    act(() => {
      focusManager.setFocused(false);
      focusManager.setFocused(true);
    });
    await screen.findByText(conditionsText('300,00 €'), {}, slow);

    // What was accepted was a charge of 264,99 €: 300,00 € must be accepted anew.
    expect(conditions().checked).toBe(false);
    expect(accept().disabled).toBe(true);
  });

  it('after amount_mismatch, the new amount must be accepted anew, and no "go back to the invoice"', async () => {
    let owed = 264.99;
    const calls = mockApi({
      '/payment-methods': () => ({ json: { methods: [], room_for_another: true } }),
      '/redsys/checkout-preview': () => ({ json: preview(owed) }),
      '/redsys/init-payment': () => mismatch,
    });
    await renderWithQuery(<CheckinScreen />, {
      path: '/payment-checkin?invoiceId=F2025-00083&amount=264.99',
    });
    const user = userEvent.setup();
    await screen.findByText(conditionsText('264,99 €'), {}, slow);
    await user.click(conditions());

    // The amount changed just before the click: the start is refused, the preview asked again.
    owed = 300;
    await user.click(accept());
    await waitFor(
      () => expect(calls.filter((c) => c.path === '/redsys/checkout-preview')).toHaveLength(2),
      slow,
    );
    await screen.findByText(conditionsText('300,00 €'), {}, slow);

    // The screen shows 300,00 € now: it must not tell the customer to go back to the invoice to
    // see the updated amount...
    expect.soft(document.body.textContent).not.toContain(es.errors.details.amountMismatch);
    // ...and the conditions they accepted (264,99 €) do not cover 300,00 €.
    expect(conditions().checked).toBe(false);
    expect(accept().disabled).toBe(true);
  });
});
