import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from './engines.ts';
import { openProviderFixture, type ProviderFixture } from './provider-fixture.ts';

/*
 * docs/ingestion.md: "Codes of the shape: required, invalid_type, ... too_small, too_big". An
 * instalment `seq` of 0 or 1001, or a line number of 0, is a whole number out of its range: the
 * provider must be told `too_small` / `too_big`, as for every other out-of-range number (amounts,
 * quantity, vat_rate, fee_cents), not `invalid_type`, which says the value is not an integer.
 */
describe.each(engines())('out-of-range keys of the batches on $name', (engine) => {
  let f: ProviderFixture;
  beforeAll(async () => {
    f = await openProviderFixture(engine);
  });
  afterAll(async () => f.close());

  const call = (method: 'PUT' | 'POST', path: string, payload: object) =>
    f.app.inject({
      method,
      url: `/demo/api/1.0/admin${path}`,
      headers: { authorization: `Bearer ${f.apiKey}` },
      payload,
    });
  const invoice = (lineNo: number, seq: number) => ({
    id: 'RANGE-1',
    customer_code: f.me.user.code,
    invoice_date: '2026-01-01',
    base_cents: 100,
    vat_cents: 0,
    total_cents: 100,
    lines: [{ line_no: lineNo, concept: 'x', quantity: 1, unit_price_cents: 100, vat_rate: 0 }],
    instalments: [{ seq, due_date: '2026-01-05', amount_cents: 100 }],
  });

  it('answers too_small / too_big for a seq or line_no out of range in PUT /admin/invoices', async () => {
    const low = await call('PUT', '/invoices', { invoices: [invoice(0, 0)] });
    expect(low.statusCode).toBe(422);
    expect(low.json<{ errors: object }>().errors).toEqual({
      'invoices.0.lines.0.line_no': ['too_small'],
      'invoices.0.instalments.0.seq': ['too_small'],
    });
    const high = await call('PUT', '/invoices', { invoices: [invoice(100_001, 1001)] });
    expect(high.statusCode).toBe(422);
    expect(high.json<{ errors: object }>().errors).toEqual({
      'invoices.0.lines.0.line_no': ['too_big'],
      'invoices.0.instalments.0.seq': ['too_big'],
    });
  });

  it('answers too_small / too_big for a seq out of range in POST /admin/instalments/status', async () => {
    const res = await call('POST', '/instalments/status', {
      changes: [
        { invoice_id: 'RANGE-1', seq: 0, status: 'cancelled' },
        { invoice_id: 'RANGE-1', seq: 1001, status: 'cancelled' },
      ],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json<{ errors: object }>().errors).toEqual({
      'changes.0.seq': ['too_small'],
      'changes.1.seq': ['too_big'],
    });
  });
});
