import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import es from '@/locales/es/checkout.json';
import {
  acceptButton,
  checkoutPreview,
  renderCheckinScreen,
  setUpCheckinTests,
  slow,
} from '@/testing/checkout';

/**
 * Review (web, money flows): the confirmation asks the server again when the customer comes back
 * from the gateway with Back (bfcache) "it may have been paid in the meantime". When the new answer
 * is 422 not_payable, the screen must say there is nothing left to pay (as it does for a tab opened
 * after the payment), not keep offering "Aceptar y continuar" with the old total.
 */

const owed = checkoutPreview();

const notPayable = {
  status: 422,
  json: { message: 'Invalid', code: 'validation_failed', errors: { invoice_id: ['not_payable'] } },
};

setUpCheckinTests();

describe('review3: a confirmation whose instalments were paid while the customer was away', () => {
  it('Back from the gateway after the instalments were paid says there is nothing to pay, not the old total', async () => {
    let paid = false;
    // No saved cards; the payment starts.
    const { calls, user } = await renderCheckinScreen(
      '/payment-checkin?invoiceId=F2025-00083&amount=264.99',
      { '/redsys/checkout-preview': () => (paid ? notPayable : { json: owed }) },
    );
    await user.click(
      await screen.findByRole('checkbox', { name: es.checkin.conditions.accept }, slow),
    );
    await user.click(acceptButton());
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
