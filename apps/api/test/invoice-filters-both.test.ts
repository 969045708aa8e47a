import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from './engines.ts';
import { openProviderFixture, type ProviderFixture } from './provider-fixture.ts';

/*
 * Money facts (session 36's review): the invoice list's "paid" and "pending" filters together.
 *
 * `POST /invoices` takes `paid: true` (only paid invoices) and `pending: true` (only invoices with
 * something owed); a cancelled invoice is neither, and each filter alone leaves it out. With both
 * ticked the service (modules/invoices/service.ts `list`) drops the filtering altogether ("Both
 * filters or neither: everything"), so the cancelled invoice comes back: ticking "pending" next to
 * "paid" adds an invoice that is neither. Both together should answer paid ∪ pending.
 */
describe.each(engines())('paid and pending filters together on $name', (engine) => {
  let fixture: ProviderFixture;
  const range = { datefrom: '20140301', dateto: '20140331', page: '1' };

  beforeAll(async () => {
    fixture = await openProviderFixture(engine);
    // A month of their own, long before the demo data: one invoice owed, one cancelled.
    for (const [id, cancelled] of [
      ['REVF-FILT-OWED', false],
      ['REVF-FILT-CANC', true],
    ] as const) {
      const put = await fixture.putInvoice(id, 2500, {
        cancelled,
        invoiceDate: '2014-03-10',
        dueDate: '2099-03-10',
      });
      expect(put.statusCode, put.body).toBe(200);
    }
  });
  afterAll(async () => fixture.close());

  const ids = async (filters: object) =>
    (await fixture.me.post('/invoices', { ...range, ...filters }))
      .json<{ invoices: { invoice_id: string }[] }>()
      .invoices.map((i) => i.invoice_id)
      .sort();

  it('answers the invoices that are paid or pending, not the cancelled one', async () => {
    const paid = await ids({ paid: true });
    const pending = await ids({ pending: true });
    // Control: neither filter alone answers the cancelled invoice.
    expect(pending).toEqual(['REVF-FILT-OWED']);
    expect(paid).toEqual([]);
    // Before session 36: ['REVF-FILT-CANC', 'REVF-FILT-OWED'].
    expect(await ids({ paid: true, pending: true })).toEqual([...paid, ...pending].sort());
  });
});
