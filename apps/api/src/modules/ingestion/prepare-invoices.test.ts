import { describe, expect, it } from 'vitest';
import { prepareInvoices } from './prepare-invoices.ts';

const invoice = (id: string, lines: number[], seqs: number[]) => ({
  id,
  customer_code: 'C-1',
  invoice_date: '2026-03-01',
  base_cents: 1000,
  vat_cents: 210,
  total_cents: 1210,
  lines: lines.map((line_no) => ({
    line_no,
    concept: 'Cuota',
    quantity: 1,
    unit_price_cents: 1000,
    vat_rate: 21,
  })),
  instalments: seqs.map((seq) => ({
    seq,
    due_date: '2026-03-05',
    amount_cents: 1210 / seqs.length,
  })),
});

describe('prepareInvoices (the heavy-work pool part of PUT /admin/invoices)', () => {
  it('answers malformed for what is not JSON, and for prototype keys as Fastify does', () => {
    expect(prepareInvoices('{"invoices": [').kind).toBe('malformed');
    expect(prepareInvoices('{"invoices": [], "__proto__": {"polluted": 1}}').kind).toBe(
      'malformed',
    );
    expect(prepareInvoices('{"invoices": [{"constructor": {"prototype": {}}}]}').kind).toBe(
      'malformed',
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("answers the contract's issues as the route's validator words them", () => {
    const bad = { invoices: [invoice('A', [0], [1])] };
    expect(prepareInvoices(JSON.stringify(bad))).toEqual({
      kind: 'invalid',
      issues: [
        expect.objectContaining({
          instancePath: '/invoices/0/lines/0/line_no',
          keyword: 'too_small',
        }),
      ],
    });
    expect(prepareInvoices(undefined)).toMatchObject({ kind: 'invalid' });
  });

  it("keeps the batch's own errors and lays its rows out for the statements", () => {
    const body = {
      invoices: [invoice('A', [1, 2], [1, 2]), invoice('B', [1, 1], [1]), invoice('A', [], [])],
    };
    // The route hands over the bytes as they came; a text works the same.
    const prepared = prepareInvoices(new TextEncoder().encode(JSON.stringify(body)));
    expect(prepareInvoices(JSON.stringify(body))).toEqual(prepared);
    if (prepared.kind !== 'valid') throw new Error(prepared.kind);
    const batch = prepared.data;
    expect(batch.errors).toEqual({
      'invoices.2.id': ['duplicate'],
      'invoices.1.lines.1.line_no': ['duplicate'],
      'invoices.2.instalments': ['total_mismatch'],
    });
    expect(batch.ids).toEqual(['A', 'B', 'A']);
    expect(batch.customerCodes).toEqual(['C-1', 'C-1', 'C-1']);
    expect([batch.lineStart, batch.lineNos]).toEqual([
      [0, 2, 4, 4],
      [1, 2, 1, 1],
    ]);
    expect([batch.instalmentStart, batch.seqs, batch.amounts]).toEqual([
      [0, 2, 3, 3],
      [1, 2, 1],
      [605, 605, 1210],
    ]);
    expect(JSON.parse(batch.instalmentsJson)[0]).toEqual({
      invoice_id: 'A',
      seq: 1,
      customer_code: 'C-1',
      due_date: '2026-03-05',
      amount_cents: 605,
      method: null,
      status: 'pending',
      paid_date: null,
    });
    expect(JSON.parse(batch.invoicesJson)[1]).toEqual({
      id: 'B',
      customer_code: 'C-1',
      invoice_date: '2026-03-01',
      base_cents: 1000,
      vat_cents: 210,
      total_cents: 1210,
      cancelled: false,
    });
  });
});
