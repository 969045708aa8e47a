import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIso } from '../src/lib/dates.ts';
import { engines } from './engines.ts';
import { openProviderFixture, type ProviderFixture } from './provider-fixture.ts';
import { postNotification, signedNotification } from './redsys-notification.ts';

/*
 * The date of a payment, said by "Mis pagos", the statement and the receipt.
 *
 * Since session 39 an authorisation is dated by the day the gateway says it charged (`Ds_Date`,
 * payments/paid-date.ts `chargedOn`): a charge whose notification came days late is dated the
 * day the customer paid, in "Mis pagos" (`paid_date`) and on the statement (sorted by `paid_date`).
 * The receipt (documents/repository.ts `listReceipts` / `findReceipt`) dated it by `settled_at`,
 * the moment the portal learned of it: the receipt of the same payment named another day (and
 * another month, for a payment of the 31st found on the 1st). Now by `charged_at` (migration 041).
 */
describe.each(engines())('the date of a payment found late, on the receipt, on $name', (engine) => {
  let fixture: ProviderFixture;

  beforeAll(async () => {
    fixture = await openProviderFixture(engine, { PUBLIC_URL: 'http://localhost:3000' });
  });
  afterAll(async () => fixture.close());

  it('dates the receipt the day "Mis pagos" and the statement say it was paid', async () => {
    const { app, me, db } = fixture;
    const id = 'R3F-RECEIPT-DATE';
    expect((await fixture.putInvoice(id, 5000, { dueDate: '2026-01-05' })).statusCode).toBe(200);
    const item = await fixture.instalmentOf(id);
    if (!item) throw new Error('no instalment');
    const { paymentId, params: p } = await fixture.startPayment(item.id, 50);
    // The customer paid three days ago; the gateway's notification comes only today.
    const charged = new Date(Date.now() - 3 * 24 * 60 * 60 * 1000);
    await db.withOwner((sql) =>
      sql.query(
        `UPDATE payment_attempts SET created_at = $2::timestamptz - interval '5 minutes' WHERE id::text = $1`,
        [paymentId, charged.toISOString()],
      ),
    );
    const iso = todayIso(charged);
    const dsDate = `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
    const notified = await postNotification(
      app,
      signedNotification(p, '0000', { Ds_Date: encodeURIComponent(dsDate) }),
    );
    expect(notified.statusCode, notified.body).toBe(200);

    const paidDate = (
      await me.post('/payments', { datefrom: '20000101', dateto: '20991231', page: '1' })
    )
      .json<{ payments: { payment_id: string; paid_date?: string }[] }>()
      .payments.find((x) => x.payment_id === item.id)?.paid_date;
    // Control: "Mis pagos" dates it by the gateway's day.
    expect(paidDate).toBe(iso.replace(/-/g, ''));
    const receipt = (await me.get('/documents/receipts'))
      .json<{ receipts: { payment_id: string; date: string }[] }>()
      .receipts.find((r) => r.payment_id === paymentId);
    expect(receipt?.date, 'the receipt names the day the payment was made').toBe(paidDate);
  });
});
