import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { todayIso } from '../src/lib/dates.ts';
import { createSecretBox } from '../src/lib/secret-box.ts';
import { createDeclineMailSender } from '../src/modules/auto-pay/declines.ts';
import { createAutoPayMailer } from '../src/modules/auto-pay/mail.ts';
import { createAutoPayCharger, type AutoPayJob } from '../src/modules/auto-pay/service.ts';
import type { Mailer } from '../src/modules/mail/mailer.ts';
import { createReconciler } from '../src/modules/payments/reconcile.ts';
import { createRedsysClient, type MitChargeResult } from '../src/modules/payments/redsys-client.ts';
import { createPaymentService } from '../src/modules/payments/service.ts';
import { engines } from './engines.ts';
import { openAutoPayFixture, resetAutoPay, type AutoPayFixture } from './auto-pay-fixture.ts';
import type { signedIn } from './session.ts';

/*
 * Money review: the auto-pay retry charges the card again while the first charge's outcome is
 * still unknown (released by the reconciliation, its recheck not answered yet).
 *
 * Scenario. Auto-pay charges a due instalment; Redsys takes the money but its answer is lost.
 * Redsys' query service does not answer (an outage, or Redsys answering XML errors) for the next
 * day or two. Two hours in, the reconciliation releases the charge (it must not hold the instalment
 * for ever, decision 046) and records it as declined with `no_answer`; it is asked about again
 * every 15 minutes (recheck_at). The tenant retries declined charges after `auto_pay_retry_days`
 * (2 here; 1 is allowed): the sweep sees a "failed" last charge and charges the card a second time,
 * though nobody knows yet whether the first one went through. When the query service answers again,
 * the recheck finds the first charge authorised and records an overpayment: the customer was
 * charged twice for one instalment (refunded later only where auto-refund is on; otherwise it waits
 * for the operator).
 *
 * SECURITY.md promises "an auto-pay charge taken while the query service did not answer is not
 * charged a second time by the retry"; that holds only if the query service is back before the
 * retry day.
 *
 * Should: a charge released without the gateway's final answer (recheck_at still set) is not a
 * decline the retry may follow: the retry waits until the recheck learns the outcome (XML0024 or a
 * denial: retry; authorised: paid) or gives up after 7 days. The customer can still pay by hand
 * (decision 046's reason not to hold the instalment is not affected).
 */

const box = createSecretBox(randomBytes(32));
const day = 24 * 60 * 60 * 1000;
const quiet = { warn: () => {}, error: () => {} };
const down = 'http://127.0.0.1:9';

describe.each(engines())(
  'auto-pay retry while a charge is of unknown outcome on $name',
  (engine) => {
    let db: Database;
    let app: FastifyInstance;
    let simUrl: string;
    let me: Awaited<ReturnType<typeof signedIn>>;
    let cardId: string;
    const mailer: Mailer = { send: async () => {} };
    const today = todayIso();

    let fixture: AutoPayFixture;
    beforeAll(async () => {
      fixture = await openAutoPayFixture(engine);
      ({ db, app, simUrl, me, cardId } = fixture);
    });
    afterAll(async () => fixture.close());
    beforeEach(async () => resetAutoPay(db));

    /** One of the demo customer's instalments, pending, paid by card, due today. */
    const owe = async () => {
      const [row] = await db.withOwner((sql) =>
        sql.query<{ id: string; amount_cents: string }>(
          `UPDATE instalments SET status = 'pending', paid_date = NULL, method = 'Tarjeta', due_date = $1
          WHERE tenant_id = 'demo' AND id IN (
            SELECT e.id FROM instalments e JOIN customers c
              ON c.tenant_id = e.tenant_id AND c.id = e.customer_id
             WHERE e.tenant_id = 'demo' AND c.email = 'cliente@demo.test' AND e.status = 'paid'
               AND NOT EXISTS (SELECT 1 FROM auto_pay_charges x WHERE x.instalment_id = e.id)
               AND NOT EXISTS (SELECT 1 FROM payment_attempt_items x WHERE x.instalment_id = e.id)
             ORDER BY e.due_date DESC LIMIT 1)
          RETURNING id, amount_cents`,
          [today],
        ),
      );
      if (!row) throw new Error('no instalment to owe');
      return { id: row.id, amountCents: Number(row.amount_cents) };
    };
    const payments = () =>
      createPaymentService({
        db,
        secretBox: box,
        simulatorUrl: simUrl,
        notificationBaseUrl: down,
        onPaid: async () => {},
        log: quiet,
      });
    const charger = (lose = false) => {
      const redsys = createRedsysClient({ simulatorUrl: simUrl });
      const mail = createAutoPayMailer(db, mailer);
      return createAutoPayCharger({
        db,
        payments: payments(),
        send: async (gateway, input): Promise<MitChargeResult> => {
          const answer = await redsys.mitCharge(gateway, input);
          return lose ? { kind: 'unknown', reason: 'timeout' } : answer;
        },
        mail,
        declineMails: createDeclineMailSender({ db, mail, log: quiet }),
        log: quiet,
      });
    };
    const sweep = async (run: ReturnType<typeof charger>, now = new Date()) => {
      const jobs: AutoPayJob[] = [];
      await run.sweep(async (job) => {
        jobs.push(job);
      }, now);
      const outcomes = await Promise.all(jobs.map((job) => run.charge(job, now)));
      return { jobs, outcomes };
    };
    const reconcile = (gatewayUrl = simUrl) =>
      createReconciler({
        db,
        secretBox: box,
        service: payments(),
        client: createRedsysClient({ simulatorUrl: gatewayUrl, timeoutMs: 2_000 }),
        afterMinutes: 1,
        releaseAfterMinutes: 60,
        log: quiet,
      }).reconcileTenant('demo');
    /** What the gateway charged with the saved card (the simulator's record of MIT charges). */
    const chargedAtGateway = async (amountCents: number) => {
      const res = await fetch(`${simUrl}/__sim/mit-charges`);
      const { charges } = (await res.json()) as {
        charges: { amountCents: number; dsResponse: string }[];
      };
      return charges.filter((c) => c.amountCents === amountCents && c.dsResponse === '0000').length;
    };

    it('does not charge the card again while the first charge is still being asked about', async () => {
      await db.withOwner((sql) =>
        sql.query(
          "UPDATE payment_methods SET redsys_reference = 'demoauthorises0002' WHERE id = $1",
          [cardId],
        ),
      );
      const item = await owe();
      const res = await app.inject({
        method: 'PUT',
        url: `/demo/api/1.0/payment-methods/${cardId}/auto-pay`,
        headers: { authorization: `Bearer ${me.token}` },
        payload: { enabled: true },
      });
      expect(res.statusCode, res.body).toBe(200);
      const before = await chargedAtGateway(item.amountCents);

      // Charge 1: Redsys takes the money, its answer is lost.
      expect((await sweep(charger(true))).outcomes).toEqual(['unknown']);
      const [charge] = await db.withOwner((sql) =>
        sql.query<{ id: string }>(
          'SELECT payment_attempt_id AS id FROM auto_pay_charges WHERE instalment_id = $1',
          [item.id],
        ),
      );
      const first = charge?.id ?? '';
      // The query service does not answer: past the bound the charge is let go (asked again later).
      await db.withOwner((sql) =>
        sql.query(
          "UPDATE payment_attempts SET created_at = now() - interval '2 hours' WHERE id = $1",
          [first],
        ),
      );
      expect(await reconcile(down)).toEqual([{ attemptId: first, outcome: 'expired' }]);
      // Every recheck of the next two days gets no answer either.
      for (let i = 0; i < 3; i += 1) {
        await db.withOwner((sql) =>
          sql.query(
            "UPDATE payment_attempts SET recheck_at = now() - interval '1 second' WHERE id = $1",
            [first],
          ),
        );
        expect(await reconcile(down)).toEqual([{ attemptId: first, outcome: 'unanswered' }]);
      }

      // The retry day: the first charge's outcome is still unknown.
      const later = new Date(Date.now() + 2 * day + 60_000);
      const retry = await sweep(charger(), later);

      // The query service answers again: the first charge was authorised after all.
      await db.withOwner((sql) =>
        sql.query(
          "UPDATE payment_attempts SET recheck_at = now() - interval '1 second' WHERE id = $1",
          [first],
        ),
      );
      const found = await reconcile();

      expect(
        {
          retryOutcomes: retry.outcomes,
          firstChargeFoundAs: found.find((r) => r.attemptId === first)?.outcome,
          cardChargedTimes: (await chargedAtGateway(item.amountCents)) - before,
        },
        'the retry charged the card a second time while the first charge was of unknown outcome',
      ).toEqual({ retryOutcomes: [], firstChargeFoundAs: 'paid', cardChargedTimes: 1 });
    });
  },
);
