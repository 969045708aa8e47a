import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from './engines.ts';
import { openProviderFixture, type ProviderFixture } from './provider-fixture.ts';
import type { signedIn } from './session.ts';

/*
 * Money facts (session 36's review): what is pending, said twice on home for the same instalments.
 *
 * Home opens with `GET /balance` (what the customer owes) and keeps the spec's summary card
 * (`POST /invoices/summary`, `total_pending`) below it. Where the tenant charges the bank's fee of a
 * returned direct debit, the balance counts it as owed ("what one Pagar pays, and what is owed, now
 * count the fee", returned-debits.test.ts) and so does the invoice's `to_pay`; the summary
 * (modules/invoices/repository.ts `summary`) sums `amount_cents` of the unpaid instalments only.
 * Over a range holding every invoice, both answer the same instalments, yet they disagree by the
 * fee: the card says 4 € less is pending than the hero above it says is owed.
 */
describe.each(engines())(
  'the summary and the balance with a charged return fee on $name',
  (engine) => {
    let app: FastifyInstance;
    let me: Awaited<ReturnType<typeof signedIn>>;
    let fixture: ProviderFixture;
    const everything = { datefrom: '19000101', dateto: '99991231' };

    beforeAll(async () => {
      fixture = await openProviderFixture(engine);
      ({ app, me } = fixture);
    });
    afterAll(async () => fixture.close());

    const admin = (method: 'PUT' | 'POST', path: string, payload: object) =>
      app.inject({
        method,
        url: `/demo/api/1.0/admin${path}`,
        headers: { authorization: `Bearer ${fixture.apiKey}` },
        payload,
      });
    const cents = (n: number) => Math.round(n * 100);
    const owed = async () => {
      const balance = (await me.get('/balance')).json<{ outstanding: number }>();
      const summary = (await me.post('/invoices/summary', everything)).json<{
        summary: { total_pending: number };
      }>().summary;
      return { balance: cents(balance.outstanding), summary: cents(summary.total_pending) };
    };

    it('answers the same pending total as the balance, fee included', async () => {
      const put = await admin('PUT', '/invoices', {
        invoices: [
          {
            id: 'REVF-RET-FEE',
            customer_code: me.user.code,
            invoice_date: '2015-05-01',
            base_cents: 3025,
            vat_cents: 0,
            total_cents: 3025,
            lines: [
              { line_no: 1, concept: 'Cuota', quantity: 1, unit_price_cents: 3025, vat_rate: 0 },
            ],
            instalments: [
              {
                seq: 1,
                due_date: '2015-05-05',
                amount_cents: 3025,
                method: 'Domiciliación',
                status: 'paid',
                paid_date: '2015-05-05',
              },
            ],
          },
        ],
      });
      expect(put.statusCode, put.body).toBe(200);
      const returned = await admin('POST', '/instalments/returns', {
        returns: [
          {
            invoice_id: 'REVF-RET-FEE',
            seq: 1,
            return_date: '2015-05-09',
            reason_code: 'AM04',
            fee_cents: 400,
          },
        ],
      });
      expect(returned.statusCode, returned.body).toBe(200);
      // Control: without the fee charged, both say the same.
      const before = await owed();
      expect(before.summary).toBe(before.balance);

      // The return as recorded while the tenant charges the fee (migration 043: recorded on the
      // return; turning charging on later adds no fee to a return already recorded).
      await fixture.db.withOwner((sql) =>
        sql.query(
          `UPDATE instalment_returns r SET fee_charged = true FROM instalments e
            WHERE e.tenant_id = r.tenant_id AND e.id = r.instalment_id
              AND r.tenant_id = 'demo' AND e.invoice_id = 'REVF-RET-FEE'`,
        ),
      );
      const after = await owed();
      // Control: the balance now counts the fee (what the invoice's Pagar charges).
      expect(after.balance - before.balance).toBe(400);
      // Before session 36: the summary is still the balance minus the 4 € fee.
      expect(after.summary).toBe(after.balance);
    });
  },
);
