import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { todayIso } from '../src/lib/dates.ts';
import type { Mailer } from '../src/modules/mail/mailer.ts';
import {
  openAutoPayFixture,
  oweByCard,
  resetAutoPay,
  sweepOnce,
  testCharger,
  turnOnAutoPay,
  type AutoPayFixture,
} from './auto-pay-fixture.ts';
import { engines } from './engines.ts';
import { down, testPaymentService, testReconciler } from './lost-notifications.ts';

/*
 * The customer's own checkout released without the
 * gateway's answer, and auto-pay.
 *
 * On the due date the customer pays the instalment by hand on Redsys' page; Redsys takes the money
 * but its notification is lost, and its query service does not answer for two hours. The
 * reconciliation lets the checkout go (it must not hold the instalment for ever) and keeps asking
 * about it every 15 minutes (`recheck_at`, decision 046). Auto-pay then charges the saved card for
 * the same instalment: it waits for its *own* charges' re-check (`lastCharge(...).unanswered`,
 * `dueCharges`) but not for a released checkout of the same instalment that is still being asked
 * about. When the query service answers, the checkout is found authorised: an overpayment. The
 * customer's card was charged twice for one instalment (refunded later only where automatic
 * refunds are on). Decision 046 says "Auto-pay does not retry a charge while it is still asked
 * about" and that money is never doubled; holding back an automatic charge blocks nobody (the
 * customer can still pay by hand).
 *
 * Should: auto-pay does not charge an instalment while an attempt of it released without a final
 * answer is still asked about (or 7 days pass).
 */
describe.each(engines())('auto-pay after a released checkout on $name', (engine) => {
  let fixture: AutoPayFixture;
  const mailer: Mailer = { send: async () => {} };
  const today = todayIso();

  beforeAll(async () => {
    fixture = await openAutoPayFixture(engine);
  });
  afterAll(async () => fixture.close());
  beforeEach(async () => resetAutoPay(fixture.db));

  const sweep = async () =>
    (await sweepOnce(testCharger(fixture.db, fixture.simUrl, mailer))).outcomes;
  /** One run of the reconciliation; `gatewayUrl` where its queries go (`down`: nothing answers). */
  const reconcile = (gatewayUrl = fixture.simUrl) =>
    testReconciler({
      db: fixture.db,
      gatewayUrl,
      timeoutMs: 2_000,
      releaseAfterMinutes: 60,
      service: testPaymentService(fixture.db, fixture.simUrl),
    }).reconcileTenant('demo');
  const mitChargesOf = async (amountCents: number) => {
    const { charges } = (await (await fetch(`${fixture.simUrl}/__sim/mit-charges`)).json()) as {
      charges: { amountCents: number; dsResponse: string }[];
    };
    return charges.filter((c) => c.amountCents === amountCents && c.dsResponse === '0000').length;
  };

  it('does not charge the saved card while a released checkout of the instalment is still asked about', async () => {
    const { db, app, me, cardId, simUrl } = fixture;
    await db.withOwner((sql) =>
      sql.query(
        "UPDATE payment_methods SET redsys_reference = 'demoauthorises0101' WHERE id = $1",
        [cardId],
      ),
    );
    // One of the customer's instalments, pending, paid by card, due today.
    const owed = await oweByCard(db, today);
    const { amountCents } = owed;
    await turnOnAutoPay(app, me, cardId);
    const chargedBefore = await mitChargesOf(amountCents);

    // The customer pays it by hand on the gateway's page; the notification is lost.
    const res = await me.post('/redsys/init-payment', {
      amount: amountCents / 100,
      payment_ids: [owed.id],
    });
    expect(res.statusCode, res.body).toBe(200);
    const started = res.json<{ payment_id: string; redsys_params: Record<string, string> }>();
    const form = 'application/x-www-form-urlencoded';
    const page = await (
      await fetch(`${simUrl}/sis/realizarPago`, {
        method: 'POST',
        headers: { 'content-type': form },
        body: new URLSearchParams(started.redsys_params).toString(),
      })
    ).text();
    const action = /action="([^"]*tarjeta)"/.exec(page)?.[1] ?? '';
    expect(action).not.toBe('');
    await fetch(new URL(action, simUrl), {
      method: 'POST',
      headers: { 'content-type': form },
      body: new URLSearchParams({
        card_number: '4548812049400004',
        expiry: '12/30',
        cvc: '123',
        action: 'pay',
      }).toString(),
      redirect: 'manual',
    });

    // Redsys' query service does not answer for two hours: the checkout is let go, asked about later.
    await db.withOwner((sql) =>
      sql.query(
        "UPDATE payment_attempts SET created_at = now() - interval '2 hours' WHERE id = $1",
        [started.payment_id],
      ),
    );
    expect(await reconcile(down)).toEqual([{ attemptId: started.payment_id, outcome: 'expired' }]);

    // Auto-pay's sweep of the due date.
    const outcomes = await sweep();

    // The query service answers again: the checkout was authorised.
    await db.withOwner((sql) =>
      sql.query(
        "UPDATE payment_attempts SET recheck_at = now() - interval '1 second' WHERE id = $1",
        [started.payment_id],
      ),
    );
    const found = await reconcile();

    expect(
      {
        autoPayOutcomes: outcomes.filter(
          (o) => o === 'paid' || o === 'overpaid' || o === 'unknown',
        ),
        checkoutFoundAs: found.find((r) => r.attemptId === started.payment_id)?.outcome,
        cardChargedByAutoPay: (await mitChargesOf(amountCents)) - chargedBefore,
      },
      'auto-pay charged the card while the released checkout was still asked about',
    ).toEqual({ autoPayOutcomes: [], checkoutFoundAs: 'paid', cardChargedByAutoPay: 0 });
  });
});
