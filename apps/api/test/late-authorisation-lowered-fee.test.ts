import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from './engines.ts';
import { testPaymentService } from './lost-notifications.ts';
import { openProviderFixture, type ProviderFixture } from './provider-fixture.ts';
import { postNotification, signedNotification } from './redsys-notification.ts';
import { statementCsv } from './statement-csv.ts';

/*
 * Money facts (review 3): a late authorisation of a returned debit whose bank fee the provider
 * lowered meanwhile.
 *
 * The tenant charges the bank's fee of a returned direct debit. The customer opens the card page
 * for the 30,25 € instalment plus its 4,00 € fee (34,25 €); the attempt is released; the provider
 * corrects the return's fee to 2,00 € (`POST /admin/instalments/returns`, same return date: a
 * correction, taken since the instalment is in no open payment); then Redsys's late authorisation
 * of 34,25 € arrives.
 *
 * `payInstalments` (payments/repository.ts) pays the instalment because the charge covers what it
 * owes now (30,25 + 2,00 <= 34,25) but counts as applied `e.amount_cents + i.fee_cents`, the fee
 * asked at the start: nothing is surplus, no refund, and `recordFeesPaid` records 4,00 € collected
 * for a fee of 2,00 €. A lowered instalment gives its difference back (receipt-lowered-instalment);
 * a lowered fee keeps it: the customer pays 2,00 € the provider no longer claims, and the statement
 * charges a 4,00 € fee the return no longer says.
 */
describe.each(engines())(
  'a late charge of a returned debit whose fee was lowered on $name',
  (engine) => {
    let fixture: ProviderFixture;

    beforeAll(async () => {
      fixture = await openProviderFixture(engine, { PUBLIC_URL: 'http://localhost:3000' });
      await fixture.chargeReturnFees();
    });
    afterAll(async () => fixture.close());

    it('refunds what the fee was lowered by, and charges only the fee owed', async () => {
      const { app, me, db } = fixture;
      const id = 'R3F-LOW-FEE';
      const put = await fixture.putInvoice(id, 3025, {
        invoiceDate: '2011-03-01',
        dueDate: '2011-03-05',
        method: 'Domiciliación',
        paidDate: '2011-03-05',
      });
      expect(put.statusCode, put.body).toBe(200);
      const ret = (fee: number) =>
        fixture.admin('POST', '/instalments/returns', {
          returns: [
            {
              invoice_id: id,
              seq: 1,
              return_date: '2011-03-09',
              reason_code: 'AM04',
              fee_cents: fee,
            },
          ],
        });
      expect((await ret(400)).statusCode).toBe(200);
      const item = await fixture.instalmentOf(id);
      if (!item) throw new Error('no instalment');

      const { paymentId, params: p } = await fixture.startPayment(item.id, 34.25);
      await testPaymentService(db).releaseAttempt('demo', paymentId);
      // The provider corrects the bank's fee: 2,00 €.
      const corrected = await ret(200);
      expect(corrected.statusCode, corrected.body).toBe(200);
      // Control: the portal now asks 32,25 € for it.
      const detail = (await me.post('/invoice', { invoice_id: id })).json<{
        invoice: { to_pay: number };
      }>().invoice;
      expect(detail.to_pay).toBe(32.25);

      // Redsys's late authorisation of the 34,25 € asked at the start.
      expect((await postNotification(app, signedNotification(p, '0000'))).statusCode).toBe(200);
      expect((await fixture.instalmentOf(id))?.status).toBe('paid');

      const refunds = await db.withOwner((sql) =>
        sql.query<{ amount_cents: string }>(
          `SELECT amount_cents FROM payment_refunds WHERE tenant_id = 'demo' AND attempt_id::text = $1`,
          [paymentId],
        ),
      );
      const statement = await statementCsv(app, me, '20110301', '20110331');
      expect({
        refunded: refunds.reduce((s, r) => s + Number(r.amount_cents), 0),
        statementFee: statement.movements.filter(([, charge]) => charge > 0 && charge !== 3025),
      }).toEqual({ refunded: 200, statementFee: [[id, 200, 0]] });
    });
  },
);
