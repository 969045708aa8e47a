import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from './engines.ts';
import { openProviderFixture, type ProviderFixture } from './provider-fixture.ts';
import type { signedIn } from './session.ts';

/*
 * The state of an invoice whose every instalment the provider cancelled, one by one
 * (`POST /admin/instalments/status`), without cancelling the invoice: nobody owes it and nobody
 * paid it. Before session 37 it read "Pagada" (nothing owed was taken for paid) in the list, in
 * the detail and under the "paid" filter. It is cancelled, as an invoice the provider cancelled
 * whole is; one of whose instalments was paid and the others cancelled stays paid.
 */
describe.each(engines())('an invoice whose instalments were all cancelled on $name', (engine) => {
  let app: FastifyInstance;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let fixture: ProviderFixture;
  const allCancelled = 'REV-ALL-CXL';
  const paidThenCancelled = 'REV-PAID-CXL';

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
    const invoice = (id: string, firstStatus: 'pending' | 'paid') => ({
      id,
      customer_code: me.user.code,
      invoice_date: '2013-04-15',
      base_cents: 10000,
      vat_cents: 0,
      total_cents: 10000,
      lines: [{ line_no: 1, concept: 'Curso', quantity: 1, unit_price_cents: 10000, vat_rate: 0 }],
      instalments: [
        {
          seq: 1,
          due_date: '2013-04-20',
          amount_cents: 4000,
          method: 'Tarjeta',
          status: firstStatus,
          ...(firstStatus === 'paid' ? { paid_date: '2013-04-20' } : {}),
        },
        { seq: 2, due_date: '2099-02-20', amount_cents: 6000, method: 'Tarjeta' },
      ],
    });
    const put = await admin('PUT', '/invoices', {
      invoices: [invoice(allCancelled, 'pending'), invoice(paidThenCancelled, 'paid')],
    });
    expect(put.statusCode, put.body).toBe(200);
    const cancel = await admin('POST', '/instalments/status', {
      changes: [
        { invoice_id: allCancelled, seq: 1, status: 'cancelled' },
        { invoice_id: allCancelled, seq: 2, status: 'cancelled' },
        { invoice_id: paidThenCancelled, seq: 2, status: 'cancelled' },
      ],
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
  });
  afterAll(async () => fixture.close());

  type Item = { invoice_id: string; state: string; status: number; amount: number };
  const list = async (filters: object = {}) =>
    (
      await me.post('/invoices', {
        datefrom: '20130401',
        dateto: '20130430',
        page: '1',
        ...filters,
      })
    ).json<{ invoices: Item[] }>().invoices;
  const detail = async (id: string) =>
    (await me.post('/invoice', { invoice_id: id })).json<{
      invoice: { state: string; status: number; pending: number; payments: { status: string }[] };
    }>().invoice;

  it('is cancelled in the list and the detail, and not among the paid ones', async () => {
    const shown = await detail(allCancelled);
    expect(shown.payments.map((p) => p.status)).toEqual(['cancelled', 'cancelled']);
    expect(shown.pending).toBe(0);
    const listed = (await list()).find((i) => i.invoice_id === allCancelled);
    expect({
      list: [listed?.state, listed?.status],
      detail: [shown.state, shown.status],
      paidFilter: (await list({ paid: true })).map((i) => i.invoice_id),
      bothFilters: (await list({ paid: true, pending: true })).map((i) => i.invoice_id),
    }).toEqual({
      list: ['cancelled', 2],
      detail: ['cancelled', 2],
      paidFilter: [paidThenCancelled],
      bothFilters: [paidThenCancelled],
    });
  });

  it('stays paid where one instalment was paid and the rest cancelled', async () => {
    const listed = (await list()).find((i) => i.invoice_id === paidThenCancelled);
    const shown = await detail(paidThenCancelled);
    expect({ list: listed?.state, detail: shown.state }).toEqual({ list: 'paid', detail: 'paid' });
  });
});
