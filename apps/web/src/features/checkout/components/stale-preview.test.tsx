import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import es from '@/locales/es/checkout.json';
import { setAuth } from '@/lib/auth-store';
import { mockApi, renderWithQuery } from '@/testing/mock-api';
import { CheckinScreen } from './checkin-screen';

/**
 * Review (web, money flows): the confirmation asks the server again when the customer comes back
 * from the gateway with Back (bfcache) "it may have been paid in the meantime". When the new answer
 * is 422 not_payable, the screen must say there is nothing left to pay (as it does for a tab opened
 * after the payment), not keep offering "Aceptar y continuar" with the old total.
 */

const owed = {
  amount: 264.99,
  currency: 'EUR',
  instalments: [
    {
      payment_id: 'p1',
      invoice_id: 'F2025-00083',
      seq: 1,
      due_date: '20251005',
      amount: 264.99,
      overdue: true,
      status: 'overdue',
    },
  ],
  methods: ['credit_card'],
  date: '2026-11-21',
  time: '12:36',
};

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

const notPayable = {
  status: 422,
  json: { message: 'Invalid', code: 'validation_failed', errors: { invoice_id: ['not_payable'] } },
};

const slow = { timeout: 5000 };

beforeEach(() => {
  setAuth({
    accessToken: 'tok',
    user: { id: 'u1', code: 'LE-1', name: 'Laura', email: 'cliente@demo.test' },
  });
  vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  sessionStorage.clear();
  document.body.replaceChildren();
});

describe('review3: a confirmation whose instalments were paid while the customer was away', () => {
  it('Back from the gateway after the instalments were paid says there is nothing to pay, not the old total', async () => {
    let paid = false;
    const calls = mockApi({
      '/payment-methods': () => ({ json: { methods: [], room_for_another: true } }),
      '/redsys/checkout-preview': () => (paid ? notPayable : { json: owed }),
      '/redsys/init-payment': () => ({ json: started }),
    });
    await renderWithQuery(<CheckinScreen />, {
      path: '/payment-checkin?invoiceId=F2025-00083&amount=264.99',
    });
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('checkbox', { name: es.checkin.conditions.accept }, slow),
    );
    await user.click(screen.getByRole('button', { name: new RegExp(`^${es.checkin.accept}`) }));
    await waitFor(() => expect(HTMLFormElement.prototype.submit).toHaveBeenCalled(), slow);

    // On the gateway the payment is authorised (the notification pays the instalment); the
    // customer presses Back and the browser restores this page from its back-forward cache.
    paid = true;
    act(() => {
      const event = new Event('pageshow') as Event & { persisted: boolean };
      Object.defineProperty(event, 'persisted', { value: true });
      window.dispatchEvent(event);
    });
    await waitFor(
      () => expect(calls.filter((c) => c.path === '/redsys/checkout-preview')).toHaveLength(2),
      slow,
    );

    // The server now says nothing is owed: the screen must say so...
    const alert = await screen.findByRole('alert', {}, slow);
    expect(alert.textContent).toContain(es.checkin.preview.paid.title);
    // ...and no longer offer to pay 264,99 € again.
    expect(screen.queryByRole('button', { name: new RegExp(`^${es.checkin.accept}`) })).toBeNull();
  });
});
