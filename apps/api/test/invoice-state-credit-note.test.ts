import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from './engines.ts';
import { openProviderFixture, type ProviderFixture } from './provider-fixture.ts';
import type { signedIn } from './session.ts';

/*
 * A credit note (an invoice whose total is below zero: the provider owes it to the customer and
 * settles it itself, so it has no instalments, docs/ingestion.md) read "Pagada" before session
 * 37, in the list, the detail and under the "paid" filter, as if the customer had paid it. It
 * is `credit_note` ("Abono"), and the paid and pending filters leave it out.
 */
describe.each(engines())('a credit note on $name', (engine) => {
  let app: FastifyInstance;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let fixture: ProviderFixture;
  const credit = 'REV-CREDIT-1';
  const paid = 'REV-CREDIT-PAID';

  beforeAll(async () => {
    fixture = await openProviderFixture(engine);
    ({ app, me } = fixture);
    const line = (cents: number) => ({
      line_no: 1,
      concept: 'Cuota',
      quantity: 1,
      unit_price_cents: cents,
      vat_rate: 0,
    });
    const put = await app.inject({
      method: 'PUT',
      url: '/demo/api/1.0/admin/invoices',
      headers: { authorization: `Bearer ${fixture.apiKey}` },
      payload: {
        invoices: [
          {
            id: credit,
            customer_code: me.user.code,
            invoice_date: '2013-05-15',
            base_cents: -2500,
            vat_cents: 0,
            total_cents: -2500,
            lines: [line(-2500)],
            instalments: [],
          },
          {
            id: paid,
            customer_code: me.user.code,
            invoice_date: '2013-05-10',
            base_cents: 2500,
            vat_cents: 0,
            total_cents: 2500,
            lines: [line(2500)],
            instalments: [
              {
                seq: 1,
                due_date: '2013-05-10',
                amount_cents: 2500,
                method: 'Tarjeta',
                status: 'paid',
                paid_date: '2013-05-10',
              },
            ],
          },
        ],
      },
    });
    expect(put.statusCode, put.body).toBe(200);
  });
  afterAll(async () => fixture.close());

  const list = async (filters: object = {}) =>
    (
      await me.post('/invoices', {
        datefrom: '20130501',
        dateto: '20130531',
        page: '1',
        ...filters,
      })
    ).json<{ invoices: { invoice_id: string; state: string; total: number }[] }>().invoices;

  it('is a credit note in the list and the detail, and neither paid nor pending', async () => {
    const detail = (await me.post('/invoice', { invoice_id: credit })).json<{
      invoice: { state: string; total: number };
    }>().invoice;
    const listed = (await list()).find((i) => i.invoice_id === credit);
    expect({
      list: [listed?.state, listed?.total],
      detail: [detail.state, detail.total],
      paidFilter: (await list({ paid: true })).map((i) => i.invoice_id),
      pendingFilter: (await list({ pending: true })).map((i) => i.invoice_id),
      bothFilters: (await list({ paid: true, pending: true })).map((i) => i.invoice_id),
    }).toEqual({
      list: ['credit_note', -25],
      detail: ['credit_note', -25],
      paidFilter: [paid],
      pendingFilter: [],
      bothFilters: [paid],
    });
  });
});
