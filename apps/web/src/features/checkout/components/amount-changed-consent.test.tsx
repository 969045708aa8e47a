import { focusManager } from '@tanstack/react-query';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import es from '@/locales/es/checkout.json';
import {
  acceptButton,
  checkoutPreview,
  conditionsBox,
  previewInstalment,
  renderCheckinScreen,
  setUpCheckinTests,
  slow,
} from '@/testing/checkout';

/**
 * Review 4 (web, checkout): the conditions the customer ticks name the amount ("autorizar un cargo
 * de 264,99 €"). When what is owed changes under the open confirmation (the tab comes back into
 * view and the preview is asked again, or the start is refused with `amount_mismatch` and the
 * preview is asked again), the screen shows the new amount, but the box stays ticked: one more
 * click starts a charge of an amount the customer never accepted. And after `amount_mismatch` the
 * screen keeps telling the customer to go back to the invoice to see the new amount, which it
 * already shows.
 */

const preview = (amount: number) => checkoutPreview([previewInstalment({ amount })]);

const mismatch = {
  status: 422,
  json: { message: 'Invalid', code: 'validation_failed', errors: { amount: ['amount_mismatch'] } },
};

const conditionsText = (amount: string) => es.checkin.conditions.text.replace('{{amount}}', amount);

setUpCheckinTests({ quiet: true });
afterEach(() => {
  // Unmount first: the focus reset below would otherwise refetch through the real fetch. (Vitest
  // runs after-hooks last registered first: this one before setUpCheckinTests' undoes the stubs.)
  cleanup();
  focusManager.setFocused(undefined);
});

describe('review4: the accepted conditions named an amount that is no longer the one charged', () => {
  it('a new amount found when the tab comes back into view un-ticks the conditions', async () => {
    let owed = 264.99;
    // No saved cards; the payment starts.
    const { user } = await renderCheckinScreen(
      '/payment-checkin?invoiceId=F2025-00083&amount=264.99',
      { '/redsys/checkout-preview': () => ({ json: preview(owed) }) },
    );
    await screen.findByText(conditionsText('264,99 €'), {}, slow);
    await user.click(conditionsBox());
    expect(conditionsBox().checked).toBe(true);

    // Away in another tab, a returned debit's fee is added: 300,00 € are owed now. The customer
    // comes back to this tab (the preview is asked again on focus).
    owed = 300;
    act(() => {
      focusManager.setFocused(false);
      focusManager.setFocused(true);
    });
    await screen.findByText(conditionsText('300,00 €'), {}, slow);

    // What was accepted was a charge of 264,99 €: 300,00 € must be accepted anew.
    expect(conditionsBox().checked).toBe(false);
    expect(acceptButton().disabled).toBe(true);
  });

  it('after amount_mismatch, the new amount must be accepted anew, and no "go back to the invoice"', async () => {
    let owed = 264.99;
    // No saved cards.
    const { calls, user } = await renderCheckinScreen(
      '/payment-checkin?invoiceId=F2025-00083&amount=264.99',
      {
        '/redsys/checkout-preview': () => ({ json: preview(owed) }),
        '/redsys/init-payment': () => mismatch,
      },
    );
    await screen.findByText(conditionsText('264,99 €'), {}, slow);
    await user.click(conditionsBox());

    // The amount changed just before the click: the start is refused, the preview asked again.
    owed = 300;
    await user.click(acceptButton());
    await waitFor(
      () => expect(calls.filter((c) => c.path === '/redsys/checkout-preview')).toHaveLength(2),
      slow,
    );
    await screen.findByText(conditionsText('300,00 €'), {}, slow);

    // The screen shows 300,00 € now: it must not tell the customer to go back to the invoice to
    // see the updated amount...
    expect.soft(document.body.textContent).not.toContain(es.errors.details.amountMismatch);
    // ...and the conditions they accepted (264,99 €) do not cover 300,00 €.
    expect(conditionsBox().checked).toBe(false);
    expect(acceptButton().disabled).toBe(true);
  });
});
