import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIso } from '../src/lib/dates.ts';
import { engines } from './engines.ts';
import { openProviderFixture, type ProviderFixture } from './provider-fixture.ts';
import { statementCsv } from './statement-csv.ts';

/*
 * A card payment made in the portal is dated by the gateway's charge (its receipt says so). The
 * status route takes the provider's own `paid` for such an instalment (200), and before session
 * 40 `setStatuses` then overwrote `paid_date` with the provider's date: the statement credited
 * the payment (and a returned debit's fee it paid) on that date, moving it out of the month it was
 * made in and into another one, possibly closed; the receipt and the statement disagreed.
 *
 * Right: a payment made in the portal keeps its own day; the provider's `paid` of it changes
 * nothing.
 */
describe.each(engines())(
  'a card payment the provider reports paid on another day, on $name',
  (engine) => {
    let fixture: ProviderFixture;

    beforeAll(async () => {
      fixture = await openProviderFixture(engine, { PUBLIC_URL: 'http://localhost:3000' });
    });
    afterAll(async () => fixture.close());

    const statement = (from: string, to: string) => statementCsv(fixture.app, fixture.me, from, to);
    const today = () => todayIso().replace(/-/g, '');

    it('keeps a card payment on its day when the provider reports it paid on another day', async () => {
      const id = 'CARD-PROVIDER-REDATED';
      const put = await fixture.putInvoice(id, 3025, {
        invoiceDate: '2026-01-10',
        dueDate: '2099-01-20',
        method: 'Domiciliación',
      });
      expect(put.statusCode, put.body).toBe(200);
      const item = await fixture.instalmentOf(id);
      const started = await fixture.me.post('/redsys/init-payment', {
        amount: 30.25,
        payment_ids: [item?.id],
      });
      expect(started.statusCode, started.body).toBe(200);
      await fixture.payStarted(started);
      expect((await fixture.instalmentOf(id))?.status).toBe('paid');

      const paidToday = await statement(today(), today());
      expect(paidToday.movements.filter(([ref]) => ref === id)).toEqual([[id, 0, 3025]]);
      const january = await statement('20260101', '20260131');

      // The provider's back office records the payment with a date of its own.
      const res = await fixture.admin('POST', '/instalments/status', {
        changes: [{ invoice_id: id, seq: 1, status: 'paid', paid_date: '2026-01-31' }],
      });
      expect(res.statusCode, res.body).toBe(200);

      // January was closed without this payment: it must not gain it.
      expect(await statement('20260101', '20260131')).toEqual(january);
      // The payment stays where its receipt puts it.
      expect(await statement(today(), today())).toEqual(paidToday);
    });
  },
);
