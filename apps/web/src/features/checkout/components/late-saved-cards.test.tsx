import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import es from '@/locales/es/checkout.json';
import {
  acceptButton,
  checkoutPreview,
  conditionsBox,
  mainSavedCard,
  previewInstalment,
  renderCheckinScreen,
  savedCardMethod,
  setUpCheckinTests,
  slow,
} from '@/testing/checkout';

/**
 * Review (web, money flows): the confirmation shows its form as soon as the server's preview
 * answers; the saved cards come from another call that may answer later. Until then the screen
 * shows the new-card panel. A customer who ticks "Guardar esta tarjeta" there has chosen to pay
 * with a new card; when the saved cards arrive the choice must stay, not silently turn into
 * "pay with the main saved card" (the tab flips and the payment is sent with `card_id`).
 */

const owed = checkoutPreview([
  previewInstalment({
    invoice_id: 'F1',
    due_date: '20261205',
    amount: 45,
    overdue: false,
    status: 'pending',
  }),
]);

setUpCheckinTests();

describe('review3: saved cards that load after the customer chose a new card', () => {
  it('keeps "save this card" (a new card) when the saved cards arrive, and pays with a new card', async () => {
    let releaseCards!: () => void;
    const cardsAnswered = new Promise<void>((resolve) => {
      releaseCards = resolve;
    });
    const { calls, user } = await renderCheckinScreen(
      '/payment-checkin?invoiceId=F1&amount=45.00',
      {
        '/redsys/checkout-preview': () => ({ json: owed }),
        '/payment-methods': async () => {
          await cardsAnswered;
          return { json: { methods: [savedCardMethod(mainSavedCard)], room_for_another: true } };
        },
      },
    );

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

    await user.click(conditionsBox());
    await user.click(acceptButton());
    await waitFor(
      () => expect(calls.filter((c) => c.path === '/redsys/init-payment')).toHaveLength(1),
      slow,
    );
    const body = calls.find((c) => c.path === '/redsys/init-payment')?.body;
    expect(body).toMatchObject({ save_card: true });
    expect(body).not.toHaveProperty('card_id');
  });
});
