import { decodeMerchantParameters } from '@portal/redsys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from './engines.ts';
import { testPaymentService } from './lost-notifications.ts';
import { openProviderFixture, type ProviderFixture } from './provider-fixture.ts';
import { postNotification, signedNotification } from './redsys-notification.ts';

/*
 * A late card authorisation of an instalment whose direct debit was returned (with the bank's fee)
 * after the card payment was released.
 *
 * The customer starts paying a 50 € direct-debit instalment by card (nothing returned: 50 €) and
 * leaves the card page; the reconciliation releases the attempt. The bank then returns the debit:
 * the provider reports it with a 3.50 € fee, the tenant charges return fees, the instalment is
 * `returned` and owed 53.50 €. Then Redsys's late authorisation of the 50 € arrives.
 * payments/repository.ts `payInstalments` marks the instalment paid when `e.amount_cents <=
 * i.amount_cents` (50 € <= 50 €), ignoring the fee the instalment owes now (the attempt item's
 * `fee_cents` is 0, so `recordReturnFeesPaid` records nothing). Once `paid`, `chargedFeeSql` is 0:
 * the 3.50 € fee the customer was told they owe is never collected, nor shown anywhere again.
 * (The same rule already refuses a late charge for an instalment the provider RAISED:
 * late-authorisation-edges.test.ts "does not mark an instalment the provider raised to 70 € ...".)
 * Should: the 50 € pay the instalment only with its fee covered; otherwise the fee stays owed
 * (the instalment `returned`, 53.50 € asked, the 50 € refunded as a surplus) or is recorded paid.
 */

describe.each(engines())(
  'a late authorisation after a returned debit with a fee, on $name',
  (engine) => {
    let fixture: ProviderFixture;
    let service: ReturnType<typeof testPaymentService>;
    beforeAll(async () => {
      fixture = await openProviderFixture(engine, { PUBLIC_URL: 'http://localhost:3000' });
      service = testPaymentService(fixture.db);
      await fixture.db.withOwner((sql) =>
        sql.query(`UPDATE tenants SET charge_return_fee = true WHERE id = 'demo'`),
      );
    });
    afterAll(async () => fixture.close());

    it('does not let the bank fee disappear', async () => {
      const { app, me, apiKey } = fixture;
      const put = await fixture.putInvoice('RVD-LATE-FEE', 5000, { method: 'Domiciliación' });
      expect(put.statusCode, put.body).toBe(200);
      const item = await fixture.instalmentOf('RVD-LATE-FEE');
      if (!item) throw new Error('no instalment');

      // The customer starts paying 50 € by card, leaves the card page; the attempt is released.
      const started = await me.post('/redsys/init-payment', { amount: 50, payment_ids: [item.id] });
      expect(started.statusCode, started.body).toBe(200);
      const body = started.json<{ payment_id: string; redsys_params: Record<string, string> }>();
      await service.releaseAttempt('demo', body.payment_id);

      // The bank returns the debit: 3.50 € fee, charged to the customer.
      const reported = await app.inject({
        method: 'POST',
        url: '/demo/api/1.0/admin/instalments/returns',
        headers: { authorization: `Bearer ${apiKey}` },
        payload: {
          returns: [
            {
              invoice_id: 'RVD-LATE-FEE',
              seq: 1,
              return_date: '2026-01-09',
              reason_code: 'AM04',
              fee_cents: 350,
            },
          ],
        },
      });
      expect(reported.statusCode, reported.body).toBe(200);
      expect(reported.json()).toMatchObject({ created: 1 });
      const owed = await me.post('/redsys/checkout-preview', { payment_ids: [item.id] });
      expect(owed.json<{ amount: number }>().amount, 'control: the fee is owed').toBe(53.5);

      // The card page had been paid after all: the late authorisation of the 50 €.
      const p = decodeMerchantParameters(body.redsys_params.Ds_MerchantParameters ?? '');
      expect((await postNotification(app, signedNotification(p, '0000'))).statusCode).toBe(200);

      const after = await fixture.returnOf(item.id);
      const preview = await me.post('/redsys/checkout-preview', { payment_ids: [item.id] });
      const stillOwed =
        preview.statusCode === 200 ? preview.json<{ amount: number }>().amount : null;
      // Today: { status: 'paid', feePaid: null, stillOwed: null }: the 3.50 € are owed by nobody.
      const facts = { status: after?.status, feePaid: after?.fee_paid_cents ?? null, stillOwed };
      expect(
        facts.feePaid === '350' || (facts.status === 'returned' && facts.stillOwed === 53.5),
        `the fee is neither collected nor owed any more: ${JSON.stringify(facts)}`,
      ).toBe(true);
    });
  },
);
