import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import es from '@/locales/es/checkout.json';
import {
  acceptButton,
  checkoutPreview,
  conditionsBox,
  mainSavedCard,
  renderCheckinScreen,
  savedCardMethod,
  setUpCheckinTests,
  slow,
} from '@/testing/checkout';

/**
 * The confirmation opens with the main saved card chosen. If that card was removed meanwhile
 * (another tab or device, the provider), `/redsys/init-payment` answers 404 `card_not_found`
 * (a plain `not_found` before session 39, read as "what you are paying was not found"), after
 * the instalments and the amount were checked. The customer must not be told that what they are
 * paying was not found, and the screen must stop offering the card that no longer exists (each
 * new try sent the same `card_id` and got the same 404).
 */

const owed = checkoutPreview();

setUpCheckinTests({ quiet: true });

describe('review4: paying with a saved card that was removed meanwhile', () => {
  it('does not say the payment was not found, and stops offering the removed card', async () => {
    // The card is removed elsewhere after the confirmation listed it.
    let removed = false;
    const { calls, user } = await renderCheckinScreen(
      '/payment-checkin?invoiceId=F2025-00083&amount=264.99',
      {
        '/redsys/checkout-preview': () => ({ json: owed }),
        '/payment-methods': () => ({
          json: {
            methods: removed ? [] : [savedCardMethod(mainSavedCard)],
            room_for_another: true,
          },
        }),
        '/redsys/init-payment': () => ({
          status: 404,
          json: { message: 'Card not found', code: 'card_not_found' },
        }),
      },
    );
    const card = await screen.findByRole('radio', { name: /Principal •••• 1111/ }, slow);
    expect(card).toHaveProperty('checked', true);

    removed = true;
    await user.click(conditionsBox());
    await user.click(acceptButton());
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
