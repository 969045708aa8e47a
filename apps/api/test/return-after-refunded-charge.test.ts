import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { decodeMerchantParameters } from '@portal/redsys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { createSecretBox } from '../src/lib/secret-box.ts';
import { createPaymentService } from '../src/modules/payments/service.ts';
import { engines } from './engines.ts';
import { openProviderFixture, type ProviderFixture } from './provider-fixture.ts';
import { postNotification, signedNotification } from './redsys-notification.ts';
import type { signedIn } from './session.ts';

/*
 * Returned direct debits (review of documents / returned-debits): a direct debit that paid an
 * instalment cannot be reported returned when a card charge of the same instalment was refunded
 * whole.
 *
 * What was wrong (fixed in session 37): the returned-debit report (and the status route's `returned`/`pending`) refuse an
 * instalment "paid in the portal" (`instalment_locked`). That test, payments/repository.ts
 * `paidInPortalSql`, asks only whether a paid card attempt *has an item* for the instalment; it
 * ignores `payment_attempt_items.paid` (migration 037), which says whether that charge actually
 * paid it. A card charge that paid nothing (the customer left the card page, the attempt was
 * released, the bank's direct debit paid the instalment meanwhile, then the late authorisation
 * came in and was refunded whole as a surplus) still makes the instalment look paid by card.
 *
 * Why it matters: the direct debit that really paid the instalment comes back from the bank. The
 * provider reports the return and gets 422 `instalment_locked`; the back office cannot set it back
 * to pending either. The instalment stays "Pagado" in the portal (no receipt links it, the card
 * money went back to the customer), the organisation has been paid by nobody, and the customer is
 * never asked for it: the money is lost and the portal's facts are false.
 *
 * Right behaviour: only a card (or Bizum) payment that paid the instalment (`paid IS NOT FALSE`,
 * as the receipts and "Mis pagos" read it) locks it; the return is recorded (`created: 1`) and the
 * instalment is `returned`, owed again.
 */

const box = createSecretBox(randomBytes(32));
const quiet = { warn: () => {}, error: () => {} };

describe.each(engines())(
  'a returned debit after a card charge refunded whole on $name',
  (engine) => {
    let db: Database;
    let app: FastifyInstance;
    let me: Awaited<ReturnType<typeof signedIn>>;
    let fixture: ProviderFixture;
    let service: ReturnType<typeof createPaymentService>;

    beforeAll(async () => {
      fixture = await openProviderFixture(engine, { PUBLIC_URL: 'http://localhost:3000' });
      ({ db, app, me } = fixture);
      service = createPaymentService({
        db,
        secretBox: box,
        simulatorUrl: 'http://127.0.0.1:9',
        notificationBaseUrl: 'http://127.0.0.1:9',
        onPaid: async () => {},
        log: quiet,
      });
    });
    afterAll(async () => fixture.close());

    const admin = (path: string, payload: object) =>
      app.inject({
        method: 'POST',
        url: `/demo/api/1.0/admin${path}`,
        headers: { authorization: `Bearer ${fixture.apiKey}` },
        payload,
      });

    /** The instalment paid by direct debit, and a card charge of it that paid nothing (refunded). */
    const paidByDebitWithRefundedCharge = async (id: string) => {
      const put = await fixture.putInvoice(id, 5000, { method: 'Domiciliación' });
      expect(put.statusCode, put.body).toBe(200);
      const item = await fixture.instalmentOf(id);
      if (!item) throw new Error('no instalment');
      // The customer opens the card page, then leaves it: the attempt is released.
      const started = await me.post('/redsys/init-payment', { amount: 50, payment_ids: [item.id] });
      expect(started.statusCode, started.body).toBe(200);
      const body = started.json<{ payment_id: string; redsys_params: Record<string, string> }>();
      await service.releaseAttempt('demo', body.payment_id);
      // Meanwhile the bank's direct debit collected it: the back office says paid.
      const paid = await admin('/instalments/status', {
        changes: [{ invoice_id: id, seq: 1, status: 'paid', paid_date: '2026-01-05' }],
      });
      expect(paid.statusCode, paid.body).toBe(200);
      // The card page had been paid after all: the late authorisation pays nothing (already paid)
      // and is refunded whole.
      const p = decodeMerchantParameters(body.redsys_params.Ds_MerchantParameters ?? '');
      expect((await postNotification(app, signedNotification(p, '0000'))).statusCode).toBe(200);
      const [facts] = await db.withOwner((sql) =>
        sql.query<{ status: string; paid: boolean; refunded: string }>(
          `SELECT a.status, i.paid,
                (SELECT coalesce(sum(r.amount_cents), 0)::text FROM payment_refunds r
                  WHERE r.tenant_id = a.tenant_id AND r.attempt_id = a.id) AS refunded
           FROM payment_attempts a
           JOIN payment_attempt_items i ON i.tenant_id = a.tenant_id AND i.attempt_id = a.id
          WHERE a.tenant_id = 'demo' AND a.id::text = $1`,
          [body.payment_id],
        ),
      );
      // Control: the charge paid nothing and all of it goes back; it is nobody's receipt.
      expect(facts).toEqual({ status: 'paid', paid: false, refunded: '5000' });
      const receipts = (await me.get('/documents/receipts')).json<{
        receipts: { payment_id: string }[];
      }>().receipts;
      expect(receipts.map((r) => r.payment_id)).not.toContain(body.payment_id);
      return item;
    };

    it('records the return of the direct debit that paid it (not instalment_locked)', async () => {
      const id = 'REVD-RET-REFUNDED-1';
      await paidByDebitWithRefundedCharge(id);

      const returned = await admin('/instalments/returns', {
        returns: [
          { invoice_id: id, seq: 1, return_date: '2026-01-09', reason_code: 'AM04', fee_cents: 0 },
        ],
      });
      // Today: 422 {"errors":{"returns.0":["instalment_locked"]}}.
      expect(returned.statusCode, returned.body).toBe(200);
      expect(returned.json()).toMatchObject({ created: 1 });
      expect((await fixture.instalmentOf(id))?.status).toBe('returned');
    });

    it("takes the back office's 'returned' for it too", async () => {
      const id = 'REVD-RET-REFUNDED-2';
      await paidByDebitWithRefundedCharge(id);
      const returned = await admin('/instalments/status', {
        changes: [{ invoice_id: id, seq: 1, status: 'returned', return_reason_code: 'AM04' }],
      });
      // Today: 422 {"errors":{"changes.0.status":["instalment_locked"]}}.
      expect(returned.statusCode, returned.body).toBe(200);
      expect((await fixture.instalmentOf(id))?.status).toBe('returned');
    });
  },
);
