import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import es from '@/locales/es/checkout.json';
import { setAuth } from '@/lib/auth-store';
import { mockApi, renderWithQuery } from '@/testing/mock-api';
import { CheckinScreen } from './checkin-screen';

/**
 * The confirmation opens with the main saved card chosen. If that card was removed meanwhile
 * (another tab or device, the provider), `/redsys/init-payment` refuses the card on its field
 * (422 `card_id`; a 404 before session 39, read as "what you are paying was not found"), after
 * the instalments and the amount were checked. The customer must not be told that what they are
 * paying was not found, and the screen must stop offering the card that no longer exists (each
 * new try sent the same `card_id` and got the same refusal).
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

const mainCard = {
  id: 'pm-9',
  kind: 'card',
  alias: 'Principal',
  holder: 'Laura García Martín',
  status: 'active',
  is_main: true,
  card_brand: 'VISA',
  card_masked: '454881******1111',
  card_expiry: '12/99',
  iban: null,
  nif: null,
  entity: null,
  created_at: '2025-01-01T00:00:00.000Z',
  pending_request: null,
  pending_requests: [],
};

const slow = { timeout: 5000 };

beforeEach(() => {
  setAuth({
    accessToken: 'tok',
    user: { id: 'u1', code: 'LE-1', name: 'Laura', email: 'cliente@demo.test' },
  });
  vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  sessionStorage.clear();
  document.body.replaceChildren();
});

describe('review4: paying with a saved card that was removed meanwhile', () => {
  it('does not say the payment was not found, and stops offering the removed card', async () => {
    // The card is removed elsewhere after the confirmation listed it.
    let removed = false;
    const calls = mockApi({
      '/redsys/checkout-preview': () => ({ json: owed }),
      '/payment-methods': () => ({
        json: { methods: removed ? [] : [mainCard], room_for_another: true },
      }),
      '/redsys/init-payment': () => ({
        status: 422,
        json: {
          message: 'Validation failed',
          code: 'validation_failed',
          errors: { card_id: ['invalid_value'] },
        },
      }),
    });
    await renderWithQuery(<CheckinScreen />, {
      path: '/payment-checkin?invoiceId=F2025-00083&amount=264.99',
    });
    const user = userEvent.setup();
    const card = await screen.findByRole('radio', { name: /Principal •••• 1111/ }, slow);
    expect(card).toHaveProperty('checked', true);

    removed = true;
    await user.click(screen.getByRole('checkbox', { name: es.checkin.conditions.accept }));
    await user.click(screen.getByRole('button', { name: new RegExp(`^${es.checkin.accept}`) }));
    await waitFor(
      () => expect(calls.filter((c) => c.path === '/redsys/init-payment')).toHaveLength(1),
      slow,
    );
    expect(calls.find((c) => c.path === '/redsys/init-payment')?.body).toMatchObject({
      card_id: 'pm-9',
    });
    const alert = await screen.findByRole('alert', {}, slow);

    // The invoice is there and still owed: only the card is gone. Saying "we could not find what
    // you are trying to pay" (with a link back to the invoice) is false.
    expect.soft(alert.textContent).not.toContain(es.errors.details.notFound);

    // The removed card is no longer offered (the list is asked again), so the next try does not
    // send the same card and get the same refusal.
    await waitFor(
      () => expect(screen.queryByRole('radio', { name: /Principal •••• 1111/ })).toBeNull(),
      slow,
    );
  });
});
