import type { FastifyInstance } from 'fastify';
import { decodeMerchantParameters } from '@portal/redsys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { todayIso } from '../src/lib/dates.ts';
import { engines } from './engines.ts';
import { statementCsv as statementOf } from './statement-csv.ts';
import { openProviderFixture, type ProviderFixture } from './provider-fixture.ts';
import { postNotification, signedNotification } from './redsys-notification.ts';
import type { signedIn } from './session.ts';

/*
 * Money documents (session 37 review of documents / returned-debits, fixed since): the statement ignores the bank fee of
 * a returned direct debit that the tenant charges the customer.
 *
 * What was wrong: where the tenant charges return fees (`charge_return_fee`), a returned debit owes
 * the instalment plus the bank's fee: the balance, the summary, the invoice's `to_pay`, the payment
 * confirmation and Redsys's charge all count it, and the receipt lists it (session 36). The
 * statement (documents/repository.ts `statement`, documents/service.ts `statement`) charges only
 * invoice totals and credits only `instalments.amount_cents` of paid instalments: the fee is
 * charged on no line, and when the customer pays 34,25 € by card (receipt: 34,25 €) the statement
 * credits 30,25 €.
 *
 * Why it matters: the statement is the document an accountant reconciles against. Its closing
 * balance says 4 € less is owed than the portal's own balance asks the customer to pay, and a
 * payment appears on it for less than the receipt and the bank's card statement show.
 *
 * Right behaviour: a charged fee is a charge of the statement on the return's date (owed from
 * then, as the balance says), and the payment that collected it is credited with what it
 * collected for the instalment, fee included (`payment_attempt_items.fee_cents`, the receipt's
 * lines): the movements agree with the balance and with the receipt.
 */

describe.each(engines())('a charged return fee on the statement on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let fixture: ProviderFixture;

  beforeAll(async () => {
    fixture = await openProviderFixture(engine, { PUBLIC_URL: 'http://localhost:3000' });
    ({ db, app, me } = fixture);
    await db.withOwner((sql) =>
      sql.query(`UPDATE tenants SET charge_return_fee = true WHERE id = 'demo'`),
    );
  });
  afterAll(async () => fixture.close());

  const admin = (method: 'PUT' | 'POST', path: string, payload: object) =>
    app.inject({
      method,
      url: `/demo/api/1.0/admin${path}`,
      headers: { authorization: `Bearer ${fixture.apiKey}` },
      payload,
    });

  const statementCsv = (datefrom: string, dateto: string) => statementOf(app, me, datefrom, dateto);

  /** An invoice of 30,25 € collected by direct debit on 2012-06-20, returned on 2012-06-25 with a 4 € fee. */
  const returnedWithFee = async (id: string) => {
    const put = await admin('PUT', '/invoices', {
      invoices: [
        {
          id,
          customer_code: me.user.code,
          // A month of its own, long before the demo data: the statement's movements are this invoice.
          invoice_date: '2012-06-15',
          base_cents: 2500,
          vat_cents: 525,
          total_cents: 3025,
          lines: [
            { line_no: 1, concept: 'Cuota', quantity: 1, unit_price_cents: 2500, vat_rate: 21 },
          ],
          instalments: [
            {
              seq: 1,
              due_date: '2012-06-20',
              amount_cents: 3025,
              method: 'Domiciliación',
              status: 'paid',
              paid_date: '2012-06-20',
            },
          ],
        },
      ],
    });
    expect(put.statusCode, put.body).toBe(200);
    const returned = await admin('POST', '/instalments/returns', {
      returns: [
        { invoice_id: id, seq: 1, return_date: '2012-06-25', reason_code: 'AM04', fee_cents: 400 },
      ],
    });
    expect(returned.statusCode, returned.body).toBe(200);
    const item = await fixture.instalmentOf(id);
    if (!item) throw new Error('no instalment');
    // Control: what the portal says is owed of it, and what paying it charges: 34,25 €.
    const preview = (await me.post('/redsys/checkout-preview', { payment_ids: [item.id] })).json<{
      amount: number;
    }>();
    expect(preview.amount).toBe(34.25);
    return item;
  };

  it('owes on the statement what the portal asks to pay: the instalment and its fee', async () => {
    await returnedWithFee('REVD-STMT-FEE-1');
    const june = await statementCsv('20120601', '20120630');
    // Today: 3025: the 4 € fee the balance and the payment confirmation count is owed nowhere.
    expect(june.closing - june.opening).toBe(3425);
  });

  it('credits the card payment with what the receipt says it paid', async () => {
    const id = 'REVD-STMT-FEE-2';
    const item = await returnedWithFee(id);
    const res = await me.post('/redsys/init-payment', { amount: 34.25, payment_ids: [item.id] });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ payment_id: string; redsys_params: Record<string, string> }>();
    const p = decodeMerchantParameters(body.redsys_params.Ds_MerchantParameters ?? '');
    expect((await postNotification(app, signedNotification(p, '0000'))).statusCode).toBe(200);
    // Control: the receipt of the payment says 34,25 € for this invoice.
    const receipt = (await me.get('/documents/receipts'))
      .json<{ receipts: { payment_id: string; amount: number; invoices: string[] }[] }>()
      .receipts.find((r) => r.payment_id === body.payment_id);
    expect(receipt).toMatchObject({ amount: 34.25, invoices: [id] });

    const today = todayIso().replace(/-/g, '');
    const statement = await statementCsv(today, today);
    const credited = statement.movements
      .filter(([reference]) => reference === id)
      .reduce((sum, [, , credit]) => sum + credit, 0);
    // Today: 3025: the statement credits the instalment and drops the 4 € fee the card paid.
    expect(credited).toBe(3425);
  });
});
