import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secondEmail } from '../src/db/seed/demo.ts';
import { firstUnpaid, payAtSimulator, startCheckout } from './checkout.ts';
import { engines } from './engines.ts';
import {
  openLostNotifications,
  testReconciler,
  type LostNotifications,
} from './lost-notifications.ts';
import { signedIn } from './session.ts';

/*
 * One customer's starts must not keep the reconciliation from everybody else's lost payments.
 *
 * Before session 39, each run asked the gateway about the 50 oldest attempts without an answer (`stalePending`:
 * pending, or superseded and never answered), in creation order, the tenant's customers all
 * together. Nothing bounds how many such attempts one customer makes: every press of "Pagar" (or
 * every call of a script) on the same instalment supersedes the last one and leaves it to be asked
 * about; starts are neither capped per customer (the caps of SECURITY.md are for methods, requests
 * and card additions) nor limited beyond the global 1,200 requests a minute per address. A
 * customer (or a script on their session) making more than 50 a minute (the run's interval) grows
 * a backlog that every later attempt of every customer of the tenant waits behind: another
 * customer's payment whose notification was lost stays unpaid (they may pay it twice), and an
 * auto-pay charge without its answer keeps its instalment held (409 `payment_in_progress` to the
 * customer) and is not released after RECONCILE_RELEASE_AFTER_MINUTES either, since the release
 * happens only when the attempt is asked about. An hour at the allowed rate is ~70,000 attempts:
 * about a day of runs. SECURITY.md's "the 50 oldest no longer hide newer attempts from each run"
 * and "an abandoned checkout never stays locked ... after RECONCILE_RELEASE_AFTER_MINUTES" no
 * longer hold.
 *
 * Here one customer starts 120 times in a row (all accepted), then another customer pays and the
 * notification is lost: the first run asked only about the first customer's abandoned starts. Now
 * a run takes the attempts in turns by customer (each one's oldest first), so another customer's
 * lost payment is settled by the next run.
 */
describe.each(engines())('reconciliation starved by one customer on $name', (engine) => {
  // The simulator's notification is lost.
  let gateway: LostNotifications;
  beforeAll(async () => {
    gateway = await openLostNotifications(engine);
  });
  afterAll(async () => gateway.close());

  const reconcileOnce = () =>
    testReconciler({
      db: gateway.db,
      gatewayUrl: gateway.simUrl,
      timeoutMs: 5_000,
      releaseAfterMinutes: 120,
    }).reconcileTenant('demo');

  it("settles another customer's lost payment in the next run, however often one customer starts", async () => {
    const { db, app, sim, simUrl } = gateway;
    const flooder = await signedIn(app, 'demo');
    const victim = await signedIn(app, 'demo', secondEmail);

    // One customer presses "Pagar" 120 times on the same instalment (or a script does).
    const item = await firstUnpaid(flooder);
    const answers: number[] = [];
    for (let i = 0; i < 120; i += 1) {
      const res = await flooder.post('/redsys/init-payment', {
        amount: item.amount,
        payment_ids: [item.payment_id],
      });
      answers.push(res.statusCode);
    }
    const accepted = answers.filter((s) => s === 200).length;

    // Then another customer pays at the gateway; the notification is lost.
    const paid = await startCheckout(victim);
    await payAtSimulator(sim, simUrl, paid.form);

    // All of it is older than the reconciliation's threshold now (in the same order).
    await db.withOwner((sql) =>
      sql.query(
        `UPDATE payment_attempts SET created_at = created_at - interval '5 minutes'
          WHERE tenant_id = 'demo' AND settled_at IS NULL`,
      ),
    );
    const results = await reconcileOnce();
    const status = (await victim.get(`/redsys/payment/${paid.id}/status`)).json<{
      status: string;
    }>().status;
    expect(
      {
        victimPayment: status,
        askedAboutInTheRun: results.length,
        flooderStartsAccepted: accepted,
      },
      "one customer's abandoned starts filled the run: another customer's lost payment waits",
    ).toEqual({
      victimPayment: 'paid',
      askedAboutInTheRun: results.length,
      flooderStartsAccepted: accepted,
    });
  });
});
