import type { LightMyRequestResponse } from 'fastify';
import { decodeMerchantParameters } from '@portal/redsys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from './engines.ts';
import { holdLock, untilLockWaits } from './lock-waits.ts';
import { openProviderFixture, type ProviderFixture } from './provider-fixture.ts';

/*
 * A returned debit reported while a card payment of its instalment starts, PostgreSQL (two connections).
 *
 * The provider reports the bank's return of an instalment (POST /admin/instalments/returns, fee
 * 3.50 €, the tenant charges return fees) while the customer starts paying that instalment by card
 * (the 50 € the confirmation showed a moment before). The report holds the instalment's lock; the
 * start queues on it.
 *
 * payments/repository.ts `lockInstalments` reads the fee (`chargedFeeSql`, a subquery on
 * instalment_returns) in the same SELECT ... FOR UPDATE that waits for the lock: after the wait
 * PostgreSQL re-reads the locked row (status `returned` now) but runs the subquery with the
 * snapshot taken BEFORE the wait, which has no return yet: fee 0. The start takes the customer's
 * 50 €, Redsys is asked for 50 €, the payment pays the instalment and the fee is never collected
 * (once `paid`, nothing owes it any more: balance, statement and invoice all drop it).
 * Should: the start sees the fee (lock first, read in a second statement, as returned-debits' and
 * ingestion's lockInstalments do): 422 amount_mismatch for 50 €, and paying 53.50 € collects it.
 *
 * Deterministic: a third transaction holds the instalment's lock; the report queues first, the
 * start second (counted in pg_stat_activity), then the lock is released.
 */

const postgres = engines().filter((e) => e.name === 'postgres');

describe.skipIf(postgres.length === 0).each(postgres)(
  'a card payment started while a returned debit is being reported, on $name',
  (engine) => {
    let fixture: ProviderFixture;
    beforeAll(async () => {
      fixture = await openProviderFixture(engine, { NOTIFICATION_URL: 'http://127.0.0.1:9' });
    });
    afterAll(async () => fixture.close());

    const asked = (started: LightMyRequestResponse) =>
      decodeMerchantParameters(
        started.json<{ redsys_params: Record<string, string> }>().redsys_params
          .Ds_MerchantParameters ?? '',
      ).Ds_Merchant_Amount;

    it('collects the bank fee of a return reported while the start waited', async () => {
      const { db, app, me, apiKey } = fixture;
      await db.withOwner((sql) =>
        sql.query(`UPDATE tenants SET charge_return_fee = true WHERE id = 'demo'`),
      );
      const put = await fixture.putInvoice('RVD-FEE-RACE', 5000, { method: 'Domiciliación' });
      expect(put.statusCode, put.body).toBe(200);
      const item = await fixture.instalmentOf('RVD-FEE-RACE');
      if (!item) throw new Error('no instalment');

      // What the customer is shown before pressing "Pagar": 50 €, nothing returned yet.
      const preview = await me.post('/redsys/checkout-preview', { payment_ids: [item.id] });
      expect(preview.json<{ amount: number }>().amount).toBe(50);

      // A third transaction holds the instalment; the provider's report queues, then the start.
      const release = await holdLock(
        db,
        'SELECT id FROM instalments WHERE id::text = $1 FOR UPDATE',
        [item.id],
      );
      const report = app.inject({
        method: 'POST',
        url: '/demo/api/1.0/admin/instalments/returns',
        headers: { authorization: `Bearer ${apiKey}` },
        payload: {
          returns: [
            {
              invoice_id: 'RVD-FEE-RACE',
              seq: 1,
              return_date: '2026-01-09',
              reason_code: 'AM04',
              fee_cents: 350,
            },
          ],
        },
      });
      await untilLockWaits(db, 1, "the provider's report to wait");
      const start = me.post('/redsys/init-payment', { amount: 50, payment_ids: [item.id] });
      await untilLockWaits(db, 2, 'the start to wait');
      await release();
      const reported = await report;
      expect(reported.statusCode, reported.body).toBe(200);
      expect(reported.json()).toMatchObject({ created: 1 });
      let started = await start;

      // Today: 200, Redsys asked for 5000 cents (the fee of the return just recorded left out).
      const firstAnswer = {
        status: started.statusCode,
        asked: started.statusCode === 200 ? asked(started) : null,
      };

      // The customer pays what the portal asks (a refused start: what the confirmation says now).
      if (started.statusCode !== 200) {
        const again = await me.post('/redsys/checkout-preview', { payment_ids: [item.id] });
        started = await me.post('/redsys/init-payment', {
          amount: again.json<{ amount: number }>().amount,
          payment_ids: [item.id],
        });
        expect(started.statusCode, started.body).toBe(200);
      }
      await fixture.payStarted(started);

      const after = await fixture.returnOf(item.id);
      // Today: { firstAnswer: { status: 200, asked: '5000' }, charged: '5000', feePaid: null }.
      expect({
        firstAnswer,
        charged: asked(started),
        status: after?.status,
        feePaid: after?.fee_paid_cents ?? null,
      }).toEqual({
        firstAnswer: { status: 422, asked: null },
        charged: '5350',
        status: 'paid',
        feePaid: '350',
      });
    });
  },
);
