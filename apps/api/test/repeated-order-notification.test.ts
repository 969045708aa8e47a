import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payAtSimulator, startCheckout } from './checkout.ts';
import { engines } from './engines.ts';
import {
  openLostNotifications,
  testReconciler,
  type LostNotifications,
} from './lost-notifications.ts';
import { postNotification, signedNotification } from './redsys-notification.ts';
import { signedIn } from './session.ts';

/*
 * Money review: a "repeated order" notification (Ds_Response 0913) fails an attempt the customer
 * PAID, and nothing ever asks Redsys about it again.
 *
 * Scenario. The customer pays on Redsys' card page; Redsys authorises, but its notification to the
 * portal is lost (Redsys does not retry: redsys-notes §5). Back on the portal, the customer presses
 * the browser's Back button to the auto-posted `realizarPago` form (or had it open in a second tab)
 * and posts it again: the same Ds_Merchant_Order. Redsys refuses the repeated order (SIS0051) and
 * NOTIFIES it, signed, with Ds_Response 0913 "pedido repetido" for that same order (redsys-notes
 * §5, S9 Anexo III: "SIS0051 -> sent with code 913"; §6: 0913 duplicate order).
 *
 * Today: `settle` treats 0913 like a decline of the payment: the still-pending attempt becomes
 * `failed`, its instalment is freed and the customer is told the payment failed. The reconciliation
 * only asks Redsys about pending (or open superseded) attempts and rechecks only attempts it
 * released itself, so the authorised charge is never learnt: the customer's money is recorded
 * nowhere, the instalment stays unpaid (and is charged again when they pay it again).
 *
 * Should: 0913 says only that a SECOND request with the order was refused; it is no word on the
 * order's own operation. It must not fail the attempt (or, at least, the attempt must stay one the
 * reconciliation asks about), so that the query finds the authorisation and pays the instalment.
 */

describe.each(engines())('a repeated-order notification (0913) on $name', (engine) => {
  // The simulator's notification of the authorisation is lost.
  let gateway: LostNotifications;
  beforeAll(async () => {
    gateway = await openLostNotifications(engine);
  });
  afterAll(async () => gateway.close());

  const reconcile = () =>
    testReconciler({
      db: gateway.db,
      gatewayUrl: gateway.simUrl,
      timeoutMs: 3_000,
      releaseAfterMinutes: 120,
    }).reconcileTenant('demo');

  const instalmentStatus = async (id: string) =>
    (
      await gateway.db.withOwner((sql) =>
        sql.query<{ status: string }>('SELECT status FROM instalments WHERE id = $1', [id]),
      )
    )[0]?.status;

  const age = (id: string) =>
    gateway.db.withOwner((sql) =>
      sql.query(
        "UPDATE payment_attempts SET created_at = created_at - interval '5 minutes' WHERE id = $1",
        [id],
      ),
    );

  it('control: without the repeated post, the reconciliation records the lost authorisation', async () => {
    const { app, sim, simUrl } = gateway;
    const me = await signedIn(app, 'demo');
    const checkout = await startCheckout(me);
    await payAtSimulator(sim, simUrl, checkout.form);
    await age(checkout.id);
    expect(await reconcile()).toContainEqual({ attemptId: checkout.id, outcome: 'paid' });
    expect(await instalmentStatus(checkout.item.payment_id)).toBe('paid');
  });

  it('does not lose a paid charge to the notification of its repeated order', async () => {
    const { db, app, sim, simUrl } = gateway;
    const me = await signedIn(app, 'demo');
    const checkout = await startCheckout(me);
    // The customer pays; Redsys authorises; its notification never reaches the portal.
    await payAtSimulator(sim, simUrl, checkout.form);

    // The same form posted again (Back, or a second tab): Redsys notifies 0913 for the order.
    const repeated = await postNotification(app, signedNotification(checkout.p, '0913'));
    expect(repeated.statusCode).toBe(200);

    // The reconciliation runs later (the attempt is past its threshold).
    await age(checkout.id);
    await reconcile();
    await reconcile();

    const [attempt] = await db.withOwner((sql) =>
      sql.query<{ status: string; recheck_at: Date | null }>(
        'SELECT status, recheck_at FROM payment_attempts WHERE id = $1',
        [checkout.id],
      ),
    );
    // Redsys took the money for this order: the portal must record it.
    expect(
      { attempt: attempt?.status, instalment: await instalmentStatus(checkout.item.payment_id) },
      'the authorised charge was recorded nowhere: the 0913 of a repeated post failed the attempt',
    ).toEqual({ attempt: 'paid', instalment: 'paid' });
  });
});
