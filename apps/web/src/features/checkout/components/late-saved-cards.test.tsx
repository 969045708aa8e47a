import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import es from '@/locales/es/checkout.json';
import { setAuth } from '@/lib/auth-store';
import { mockApi, renderWithQuery } from '@/testing/mock-api';
import { CheckinScreen } from './checkin-screen';

/**
 * Review (web, money flows): the confirmation shows its form as soon as the server's preview
 * answers; the saved cards come from another call that may answer later. Until then the screen
 * shows the new-card panel. A customer who ticks "Guardar esta tarjeta" there has chosen to pay
 * with a new card; when the saved cards arrive the choice must stay, not silently turn into
 * "pay with the main saved card" (the tab flips and the payment is sent with `card_id`).
 */

const owed = {
  amount: 45,
  currency: 'EUR',
  instalments: [
    {
      payment_id: 'p1',
      invoice_id: 'F1',
      seq: 1,
      due_date: '20261205',
      amount: 45,
      overdue: false,
      status: 'pending',
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
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  sessionStorage.clear();
  document.body.replaceChildren();
});

describe('review3: saved cards that load after the customer chose a new card', () => {
  it('keeps "save this card" (a new card) when the saved cards arrive, and pays with a new card', async () => {
    let releaseCards!: () => void;
    const cardsAnswered = new Promise<void>((resolve) => {
      releaseCards = resolve;
    });
    const calls = mockApi({
      '/redsys/checkout-preview': () => ({ json: owed }),
      '/payment-methods': async () => {
        await cardsAnswered;
        return { json: { methods: [mainCard], room_for_another: true } };
      },
      '/redsys/init-payment': () => ({ json: started }),
    });
    await renderWithQuery(<CheckinScreen />, {
      path: '/payment-checkin?invoiceId=F1&amount=45.00',
    });
    const user = userEvent.setup();

    // The form is there, the saved cards are not yet: the customer asks to save a new card.
    const save = await screen.findByRole(
      'checkbox',
      { name: new RegExp(es.checkin.card.saveCard) },
      slow,
    );
    await user.click(save);
    expect(save).toHaveProperty('checked', true);

    // The saved cards answer now.
    releaseCards();
    await screen.findByRole('tab', { name: es.checkin.card.savedCards }, slow);

    // The customer's choice stands: the new card, to be saved.
    expect(
      screen.getByRole('tab', { name: es.checkin.card.newCard }).getAttribute('aria-selected'),
    ).toBe('true');

    await user.click(screen.getByRole('checkbox', { name: es.checkin.conditions.accept }));
    await user.click(screen.getByRole('button', { name: new RegExp(`^${es.checkin.accept}`) }));
    await waitFor(
      () => expect(calls.filter((c) => c.path === '/redsys/init-payment')).toHaveLength(1),
      slow,
    );
    const body = calls.find((c) => c.path === '/redsys/init-payment')?.body;
    expect(body).toMatchObject({ save_card: true });
    expect(body).not.toHaveProperty('card_id');
  });
});
