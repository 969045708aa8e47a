import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIso } from '../src/lib/dates.ts';
import { firstUnpaid, payAtSimulator, startCheckout } from './checkout.ts';
import { engines } from './engines.ts';
import {
  down,
  openLostNotifications,
  testReconciler,
  type LostNotifications,
} from './lost-notifications.ts';
import { signedIn } from './session.ts';

/*
 * The paid date of an authorisation the reconciliation finds later.
 *
 * Before session 39, `recordAuthorisation` wrote `paid_date = todayIso(now())`: the day the portal learns of the
 * charge, not the day the gateway took it. The query service's answer says when (`Ds_Date`
 * yyyy-mm-dd, `Ds_Hour`, redsys-notes §1.2), but the reconciler's `paramsOf` drops both. A
 * checkout paid on Redsys' page while its notification was lost and its query service silent is
 * released, then found by the re-check up to 7 days later (decision 046): "Mis pagos", the
 * receipt and the statement (which sorts payments into periods by `paid_date`) then say it was
 * paid days after the customer paid it, e.g. a payment of the 31st in next month's statement.
 *
 * Should: a charge found through the query is dated by the gateway's `Ds_Date` (Madrid), as the
 * notification path is dated the day it comes (the day of the charge).
 */
const day = 24 * 60 * 60 * 1000;

describe.each(engines())('the paid date of a charge found by the re-check on $name', (engine) => {
  // The gateway's clock: three days ago while the customer pays.
  let simNow = new Date(Date.now() - 3 * day);
  let gateway: LostNotifications;
  let me: Awaited<ReturnType<typeof signedIn>>;

  beforeAll(async () => {
    gateway = await openLostNotifications(engine, { now: () => simNow });
    me = await signedIn(gateway.app, 'demo');
  });
  afterAll(async () => gateway.close());

  const reconcile = (gatewayUrl: string) =>
    testReconciler({
      db: gateway.db,
      gatewayUrl,
      timeoutMs: 2_000,
      releaseAfterMinutes: 60,
    }).reconcileTenant('demo');

  it('dates the instalment by the day the gateway charged it, not the day it was found', async () => {
    const { db, sim, simUrl } = gateway;
    const item = await firstUnpaid(me);
    const { id, form } = await startCheckout(me, item);
    const paidOn = todayIso(simNow);
    // Three days ago: the customer pays on the gateway's page; the notification is lost.
    await payAtSimulator(sim, simUrl, form);
    simNow = new Date();
    // The query service did not answer then: the reconciliation let the checkout go (asked later).
    await db.withOwner((sql) =>
      sql.query(
        "UPDATE payment_attempts SET created_at = now() - interval '3 days' WHERE id = $1",
        [id],
      ),
    );
    expect(await reconcile(down)).toEqual([{ attemptId: id, outcome: 'expired' }]);
    // Today the re-check gets its answer: authorised three days ago.
    await db.withOwner((sql) =>
      sql.query(
        "UPDATE payment_attempts SET recheck_at = now() - interval '1 second' WHERE id = $1",
        [id],
      ),
    );
    expect(await reconcile(simUrl)).toEqual([{ attemptId: id, outcome: 'paid' }]);

    const listed = (
      await me.post('/payments', { datefrom: '20000101', dateto: '20991231', page: '1' })
    )
      .json<{ payments: { payment_id: string; status: string; paid_date?: string }[] }>()
      .payments.find((x) => x.payment_id === item.payment_id);
    expect(listed?.status).toBe('paid');
    expect(listed?.paid_date, '"Mis pagos" dates the payment the day it was found').toBe(
      paidOn.replace(/-/g, ''),
    );
  });
});
