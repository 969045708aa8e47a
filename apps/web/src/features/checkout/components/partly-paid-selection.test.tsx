import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import es from '@/locales/es/checkout.json';
import {
  acceptButton,
  checkoutPreview,
  previewInstalment,
  renderCheckinScreen,
  setUpCheckinTests,
  slow,
} from '@/testing/checkout';

/**
 * Review 4 (web, checkout): a selection of instalments from "Mis pagos" (`?payments=p1,p2`). One of
 * them (p1) is paid meanwhile (auto-pay, another tab); p2 is still owed. The server refuses the
 * whole selection with 422 `payment_ids: ['not_payable']` (apps/api payments service
 * `payableItems`: one instalment not pending/returned). The confirmation then says "Ya no hay nada
 * que pagar" / "Lo que ibas a pagar se ha pagado o anulado mientras tanto": false, p2 is still owed
 * (and overdue). The customer is told they owe nothing when they do.
 */

const owedBoth = checkoutPreview([
  previewInstalment({ invoice_id: 'F1', amount: 45 }),
  previewInstalment({ payment_id: 'p2', invoice_id: 'F2', due_date: '20251105', amount: 45 }),
]);

const notPayable = {
  status: 422,
  json: { message: 'Invalid', code: 'validation_failed', errors: { payment_ids: ['not_payable'] } },
};

setUpCheckinTests({ quiet: true });

describe('review4: a selection of which one instalment was paid meanwhile', () => {
  it('does not tell the customer there is nothing left to pay while the rest is owed', async () => {
    // p1 is paid (by auto-pay) between the confirmation opening and "Aceptar y continuar".
    let p1Paid = false;
    // No saved cards.
    const { calls, user } = await renderCheckinScreen(
      '/payment-checkin?payments=p1,p2&amount=90.00',
      {
        '/redsys/checkout-preview': () => (p1Paid ? notPayable : { json: owedBoth }),
        '/redsys/init-payment': () => notPayable,
      },
    );
    await user.click(
      await screen.findByRole('checkbox', { name: es.checkin.conditions.accept }, slow),
    );
    p1Paid = true;
    await user.click(acceptButton());
    // The refused start asks the preview again (what is owed changed), which refuses too.
    await waitFor(
      () => expect(calls.filter((c) => c.path === '/redsys/checkout-preview')).toHaveLength(2),
      slow,
    );
    // Whatever the screen says once the refusal is in, it must not be that nothing is owed: wait
    // (up to 3 s) for the claim to appear; on today's code it appears at once.
    const saysNothingOwed = await screen
      .findByText(es.checkin.preview.paid.title, {}, { timeout: 3000 })
      .then(
        () => true,
        () => false,
      );
    // p2 (45,00 €, overdue) is still owed: "nothing left to pay" is a false statement.
    expect(saysNothingOwed, `the screen says "${es.checkin.preview.paid.title}"`).toBe(false);
    expect(document.body.textContent).not.toContain(es.checkin.preview.paid.text);
    expect(document.body.textContent).not.toContain(es.errors.details.notPayable);
  });
});
