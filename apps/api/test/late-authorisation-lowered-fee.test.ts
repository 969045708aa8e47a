import { randomBytes } from 'node:crypto';
import { decodeMerchantParameters } from '@portal/redsys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../src/lib/secret-box.ts';
import { createPaymentService } from '../src/modules/payments/service.ts';
import { engines } from './engines.ts';
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
      await fixture.db.withOwner((sql) =>
        sql.query(`UPDATE tenants SET charge_return_fee = true WHERE id = 'demo'`),
      );
    });
    afterAll(async () => fixture.close());

    const admin = (path: string, payload: object) =>
      fixture.app.inject({
        method: 'POST',
        url: `/demo/api/1.0/admin${path}`,
        headers: { authorization: `Bearer ${fixture.apiKey}` },
        payload,
      });

    it('refunds what the fee was lowered by, and charges only the fee owed', async () => {
      const { app, me, db } = fixture;
      const id = 'R3F-LOW-FEE';
      const put = await app.inject({
        method: 'PUT',
        url: '/demo/api/1.0/admin/invoices',
        headers: { authorization: `Bearer ${fixture.apiKey}` },
        payload: {
          invoices: [
            {
              id,
              customer_code: me.user.code,
              invoice_date: '2011-03-01',
              base_cents: 3025,
              vat_cents: 0,
              total_cents: 3025,
              lines: [
                { line_no: 1, concept: 'Cuota', quantity: 1, unit_price_cents: 3025, vat_rate: 0 },
              ],
              instalments: [
                {
                  seq: 1,
                  due_date: '2011-03-05',
                  amount_cents: 3025,
                  method: 'Domiciliación',
                  status: 'paid',
                  paid_date: '2011-03-05',
                },
              ],
            },
          ],
        },
      });
      expect(put.statusCode, put.body).toBe(200);
      const ret = (fee: number) =>
        admin('/instalments/returns', {
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

      const res = await me.post('/redsys/init-payment', { amount: 34.25, payment_ids: [item.id] });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json<{ payment_id: string; redsys_params: Record<string, string> }>();
      const p = decodeMerchantParameters(body.redsys_params.Ds_MerchantParameters ?? '');
      const service = createPaymentService({
        db,
        secretBox: createSecretBox(randomBytes(32)),
        simulatorUrl: 'http://127.0.0.1:9',
        notificationBaseUrl: 'http://127.0.0.1:9',
        onPaid: async () => {},
        log: { warn: () => {}, error: () => {} },
      });
      await service.releaseAttempt('demo', body.payment_id);
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
          [body.payment_id],
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
