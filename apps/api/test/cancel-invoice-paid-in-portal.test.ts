import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIso } from '../src/lib/dates.ts';
import { engines } from './engines.ts';
import { openProviderFixture, type ProviderFixture } from './provider-fixture.ts';
import { statementCsv } from './statement-csv.ts';

/*
 * The provider CANCELS an
 * invoice (`PUT /admin/invoices`, `cancelled: true`) whose instalment the customer already paid by
 * card in the portal.
 *
 * The back office's own route refuses exactly this for the instalment (`POST
 * /admin/instalments/status` → `cancelled` is `instalment_locked` on an instalment paid in the
 * portal: "the money was taken ... a refund goes through the portal's refunds", docs/ingestion.md,
 * SECURITY.md session 36), and a batch cannot move such an invoice to another customer. But the
 * batch's checks (`ingestion/batch-checks.ts checkAgainstStored`) never look at the invoice's
 * `cancelled` flag (before session 39): the cancellation was taken (200), nothing is refunded, nothing is listed for the
 * operator, and the statement (documents/repository.ts `statement`: `NOT i.cancelled` on both sides)
 * drops the charge AND the customer's 50 € payment, while the receipt still says it paid the invoice.
 * The customer's money is kept with no trace on their account.
 */

describe.each(engines())(
  'an invoice paid by card in the portal, then cancelled, on $name',
  (engine) => {
    let fixture: ProviderFixture;
    beforeAll(async () => {
      fixture = await openProviderFixture(engine, { NOTIFICATION_URL: 'http://127.0.0.1:9' });
    });
    afterAll(async () => fixture.close());

    it('does not keep the card payment of an invoice the provider cancels afterwards', async () => {
      const { app, me, db } = fixture;
      const today = todayIso();
      const day = today.replace(/-/g, '');
      const id = 'REV4F-CXL-PAID';
      const options = { invoiceDate: today, dueDate: today, method: 'Tarjeta' };
      expect((await fixture.putInvoice(id, 5000, options)).statusCode).toBe(200);
      const item = await fixture.instalmentOf(id);
      if (!item) throw new Error('no instalment');
      // The customer pays the 50 € by card in the portal.
      const started = await me.post('/redsys/init-payment', { amount: 50, payment_ids: [item.id] });
      expect(started.statusCode, started.body).toBe(200);
      await fixture.payStarted(started);
      const attemptId = started.json<{ payment_id: string }>().payment_id;
      expect((await fixture.instalmentOf(id))?.status).toBe('paid');
      // Control: the statement of the day charges the invoice and credits the card payment.
      const before = await statementCsv(app, me, day, day);
      expect(before.movements.filter(([ref]) => ref === id)).toEqual([
        [id, 5000, 0],
        [id, 0, 5000],
      ]);

      // The provider's ERP then cancels the invoice.
      const batch = await fixture.putInvoice(id, 5000, { ...options, cancelled: true });

      const after = await statementCsv(app, me, day, day);
      const [facts] = await db.withOwner((sql) =>
        sql.query<{ cancelled: boolean; refund_cents: number }>(
          `SELECT i.cancelled,
                (SELECT coalesce(sum(r.amount_cents), 0)::int8 FROM payment_refunds r
                  WHERE r.tenant_id = i.tenant_id AND r.attempt_id::text = $2) AS refund_cents
           FROM invoices i WHERE i.tenant_id = 'demo' AND i.id = $1`,
          [id, attemptId],
        ),
      );
      const seen = {
        batch: batch.statusCode,
        invoiceCancelled: facts?.cancelled,
        refundCents: Number(facts?.refund_cents),
        // What the statement still credits of the 50 € the customer paid.
        statementCredit: after.movements
          .filter(([ref]) => ref === id)
          .reduce((sum, [, , credit]) => sum + credit, 0),
      };
      // The cancellation is refused as the status route refuses it: the invoice stays, charged and
      // paid (session 39: { batch: 200, invoiceCancelled: true, refundCents: 0, statementCredit: 0 }).
      expect(seen).toEqual({
        batch: 422,
        invoiceCancelled: false,
        refundCents: 0,
        statementCredit: 5000,
      });
      expect(batch.json()).toMatchObject({
        errors: { 'invoices.0.cancelled': ['instalment_locked'] },
      });
    });
  },
);
