import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from './engines.ts';
import { openProviderFixture, type ProviderFixture } from './provider-fixture.ts';
import type { signedIn } from './session.ts';

/*
 * Money facts (session 36's review): the state of an invoice of which nothing was paid.
 *
 * The contract (packages/contract/src/invoices.ts `ZInvoiceState`) says `partially_paid` is "when
 * something was paid and the rest is not late"; `pending` "when nothing was paid and nothing is
 * late". The provider may cancel one instalment of an invoice without cancelling the invoice
 * (`POST /admin/instalments/status`): nothing of it is paid, the other instalment is still owed,
 * whole. `invoiceState` (modules/invoices/service.ts) decides `partially_paid` from
 * `owed_cents < total_cents`, so the cancelled instalment reads as money received: the list and
 * the detail call an invoice of which not one cent was paid "Pagada parcialmente".
 */
describe.each(engines())(
  'an invoice with a cancelled instalment and nothing paid on $name',
  (engine) => {
    let app: FastifyInstance;
    let me: Awaited<ReturnType<typeof signedIn>>;
    let fixture: ProviderFixture;
    const id = 'REVF-CANC-NOPAY';

    beforeAll(async () => {
      fixture = await openProviderFixture(engine);
      ({ app, me } = fixture);
      const admin = (method: 'PUT' | 'POST', path: string, payload: object) =>
        app.inject({
          method,
          url: `/demo/api/1.0/admin${path}`,
          headers: { authorization: `Bearer ${fixture.apiKey}` },
          payload,
        });
      const put = await admin('PUT', '/invoices', {
        invoices: [
          {
            id,
            customer_code: me.user.code,
            invoice_date: '2013-03-15',
            base_cents: 10000,
            vat_cents: 0,
            total_cents: 10000,
            lines: [
              { line_no: 1, concept: 'Curso', quantity: 1, unit_price_cents: 10000, vat_rate: 0 },
            ],
            // Both fall due far ahead: nothing is late.
            instalments: [
              { seq: 1, due_date: '2099-01-20', amount_cents: 4000, method: 'Tarjeta' },
              { seq: 2, due_date: '2099-02-20', amount_cents: 6000, method: 'Tarjeta' },
            ],
          },
        ],
      });
      expect(put.statusCode, put.body).toBe(200);
      const cancel = await admin('POST', '/instalments/status', {
        changes: [{ invoice_id: id, seq: 1, status: 'cancelled' }],
      });
      expect(cancel.statusCode, cancel.body).toBe(200);
    });
    afterAll(async () => fixture.close());

    it('is pending, not partially paid, in the list and in the detail', async () => {
      const detail = (await me.post('/invoice', { invoice_id: id })).json<{
        invoice: { state: string; pending: number; payments: { status: string }[] };
      }>().invoice;
      // Control: nothing paid, the cancelled instalment is cancelled, 60 € owed and not late.
      expect(detail.payments.map((p) => p.status)).toEqual(['cancelled', 'pending']);
      expect(detail.pending).toBe(60);

      const list = (
        await me.post('/invoices', { datefrom: '20130301', dateto: '20130331', page: '1' })
      ).json<{ invoices: { invoice_id: string; state: string; amount: number }[] }>().invoices;
      const item = list.find((i) => i.invoice_id === id);
      expect(item?.amount).toBe(60);

      // Before session 36: 'partially_paid' in both (60 € owed of a 100 € total reads as 40 € received).
      expect({ list: item?.state, detail: detail.state }).toEqual({
        list: 'pending',
        detail: 'pending',
      });
    });
  },
);
