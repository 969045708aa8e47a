import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from './engines.ts';
import { openProviderFixture, type ProviderFixture } from './provider-fixture.ts';

/*
 * A return dated BEFORE the payment that settled an instalment, reported after it.
 *
 * The debit of a 50 € instalment is returned (09/01), the organisation presents it again and the
 * bank collects it (the back office says `paid`, 20/01). Then the provider reports another return
 * of that instalment dated 08/01 (the bank's file of the first presentation, or the first return's
 * date corrected): returned-debits/service.ts `applyReturns` treats it as new because its key
 * (instalment, return date) was never stored, and `markInstalmentsReturned` reopens the
 * instalment: `returned`, owed again, the customer notified and e-mailed to pay 50 € they paid on
 * 20/01. A return dated before the instalment's payment cannot undo that payment (a debit is
 * returned after it was collected).
 * Now (session 39): a return older than the instalment's `paid_date` is recorded without
 * reopening the instalment: it stays paid and nothing is asked of the customer.
 */

describe.each(engines())(
  'a return older than the payment of its instalment, on $name',
  (engine) => {
    let fixture: ProviderFixture;
    beforeAll(async () => {
      fixture = await openProviderFixture(engine);
    });
    afterAll(async () => fixture.close());

    const admin = (path: string, payload: object) =>
      fixture.app.inject({
        method: 'POST',
        url: `/demo/api/1.0/admin${path}`,
        headers: { authorization: `Bearer ${fixture.apiKey}` },
        payload,
      });
    const returned = (date: string) =>
      admin('/instalments/returns', {
        returns: [
          { invoice_id: 'RVD-STALE', seq: 1, return_date: date, reason_code: 'AM04', fee_cents: 0 },
        ],
      });

    it('does not reopen an instalment a later presentation paid', async () => {
      const put = await fixture.putInvoice('RVD-STALE', 5000, { method: 'Domiciliación' });
      expect(put.statusCode, put.body).toBe(200);
      const first = await returned('2026-01-09');
      expect(first.statusCode, first.body).toBe(200);
      expect((await fixture.instalmentOf('RVD-STALE'))?.status).toBe('returned');

      // Presented again and collected on 20/01.
      const paid = await admin('/instalments/status', {
        changes: [{ invoice_id: 'RVD-STALE', seq: 1, status: 'paid', paid_date: '2026-01-20' }],
      });
      expect(paid.statusCode, paid.body).toBe(200);
      expect((await fixture.instalmentOf('RVD-STALE'))?.status).toBe('paid');

      const stale = await returned('2026-01-08');
      const item = await fixture.instalmentOf('RVD-STALE');
      const [told] = await fixture.db.withOwner((sql) =>
        sql.query<{ n: string }>(
          `SELECT count(*) AS n FROM notifications
          WHERE tenant_id = 'demo' AND type = 'debit_returned' AND params->>'payment_id' = $1`,
          [item?.id ?? ''],
        ),
      );
      // Today: { status: 'paid' -> 'returned', notices: 2 } (owed again, told twice).
      expect({
        accepted: stale.statusCode === 200 || stale.statusCode === 422,
        status: item?.status,
        notices: Number(told?.n ?? 0),
      }).toEqual({ accepted: true, status: 'paid', notices: 1 });
    });
  },
);
