import type { TIngestInvoice } from '@portal/contract/admin-ingestion';
import { describe, expect, it } from 'vitest';
import { FieldValidationError } from '../../lib/app-error.ts';
import {
  checkAgainstStored,
  checkInvoice,
  createBatchErrors,
  repeatedIndexes,
  type ExistingInstalment,
} from './batch-checks.ts';

const invoice = (over: Partial<TIngestInvoice> = {}): TIngestInvoice => ({
  id: 'F-1',
  customer_code: 'C-1',
  invoice_date: '2026-01-01',
  base_cents: 1000,
  vat_cents: 210,
  total_cents: 1210,
  cancelled: false,
  lines: [
    {
      line_no: 1,
      person: '',
      concept: 'Cuota',
      quota: '',
      quantity: 1,
      unit_price_cents: 1000,
      vat_rate: 21,
    },
  ],
  instalments: [
    { seq: 1, due_date: '2026-01-05', amount_cents: 600 },
    { seq: 2, due_date: '2026-02-05', amount_cents: 610 },
  ],
  ...over,
});

/** The errors the checks found, as the 422 would carry them. */
function errorsOf(run: (errors: ReturnType<typeof createBatchErrors>) => void) {
  const errors = createBatchErrors();
  run(errors);
  try {
    errors.throwIfAny();
    return {};
  } catch (error) {
    if (error instanceof FieldValidationError) return error.errors;
    throw error;
  }
}

describe('batch checks', () => {
  it('finds the repeated keys after their first occurrence', () => {
    expect(repeatedIndexes(['a', 'b', 'a', 'c', 'b', 'a'])).toEqual([2, 4, 5]);
    expect(repeatedIndexes([])).toEqual([]);
  });

  it('accepts a consistent invoice', () => {
    expect(errorsOf((e) => checkInvoice(invoice(), 'invoices.0', e))).toEqual({});
  });

  it('wants total = base + vat, and instalments that add up to it', () => {
    expect(errorsOf((e) => checkInvoice(invoice({ total_cents: 1200 }), 'invoices.3', e))).toEqual({
      'invoices.3.total_cents': ['total_mismatch'],
      'invoices.3.instalments': ['total_mismatch'],
    });
    expect(errorsOf((e) => checkInvoice(invoice({ instalments: [] }), 'x', e))).toEqual({
      'x.instalments': ['total_mismatch'],
    });
  });

  it('wants no instalment on a credit note', () => {
    const credit = { base_cents: -1000, vat_cents: -210, total_cents: -1210 };
    expect(errorsOf((e) => checkInvoice(invoice({ ...credit, instalments: [] }), 'x', e))).toEqual(
      {},
    );
    expect(errorsOf((e) => checkInvoice(invoice(credit), 'x', e))).toEqual({
      'x.instalments': ['total_mismatch'],
    });
  });

  it('refuses a line number or an instalment sequence twice', () => {
    const line = invoice().lines[0];
    if (!line) throw new Error('no line');
    const twice = invoice({
      lines: [line, { ...line, concept: 'Otra' }],
      instalments: [
        { seq: 1, due_date: '2026-01-05', amount_cents: 600 },
        { seq: 1, due_date: '2026-02-05', amount_cents: 610 },
      ],
    });
    expect(errorsOf((e) => checkInvoice(twice, 'x', e))).toEqual({
      'x.lines.1.line_no': ['duplicate'],
      'x.instalments.1.seq': ['duplicate'],
    });
  });

  describe('against what is stored', () => {
    const stored = (
      over: Partial<ExistingInstalment>[],
      customerChanged = false,
    ): { customerChanged: boolean; instalments: ExistingInstalment[] } => ({
      customerChanged,
      instalments: over.map((o, i) => ({
        seq: i + 1,
        amount_cents: i === 0 ? 600 : 610,
        status: 'pending',
        in_attempt: false,
        paid_in_portal: false,
        ...o,
      })),
    });

    it('lets pending instalments change and go', () => {
      const resplit = invoice({
        instalments: [{ seq: 1, due_date: '2026-01-05', amount_cents: 1210 }],
      });
      expect(errorsOf((e) => checkAgainstStored(resplit, 'x', stored([{}, {}]), e))).toEqual({});
    });

    it('keeps the amount of a paid instalment or one being paid', () => {
      const resplit = invoice({
        instalments: [
          { seq: 1, due_date: '2026-01-05', amount_cents: 610 },
          { seq: 2, due_date: '2026-02-05', amount_cents: 600 },
        ],
      });
      expect(
        errorsOf((e) =>
          checkAgainstStored(resplit, 'x', stored([{ status: 'paid' }, { in_attempt: true }]), e),
        ),
      ).toEqual({
        'x.instalments.0.amount_cents': ['instalment_locked'],
        'x.instalments.1.amount_cents': ['instalment_locked'],
      });
      // Same amounts: a paid instalment may stay as it is.
      expect(
        errorsOf((e) => checkAgainstStored(invoice(), 'x', stored([{ status: 'paid' }, {}]), e)),
      ).toEqual({});
    });

    it('removes only pending instalments outside any payment', () => {
      const one = invoice({
        instalments: [{ seq: 1, due_date: '2026-01-05', amount_cents: 1210 }],
      });
      for (const second of [{ status: 'cancelled' as const }, { in_attempt: true }])
        expect(errorsOf((e) => checkAgainstStored(one, 'x', stored([{}, second]), e))).toEqual({
          'x.instalments': ['instalment_locked'],
        });
    });

    it('keeps an invoice with a paid instalment with its customer', () => {
      expect(
        errorsOf((e) =>
          checkAgainstStored(invoice(), 'x', stored([{ status: 'paid' }, {}], true), e),
        ),
      ).toEqual({ 'x.customer_code': ['instalment_locked'] });
      expect(
        errorsOf((e) => checkAgainstStored(invoice(), 'x', stored([{}, {}], true), e)),
      ).toEqual({});
    });

    it('cancels no invoice paid in the portal or being paid (session 39: the money was kept)', () => {
      const cancelled = { ...invoice(), cancelled: true };
      for (const first of [{ status: 'paid' as const, paid_in_portal: true }, { in_attempt: true }])
        expect(errorsOf((e) => checkAgainstStored(cancelled, 'x', stored([first, {}]), e))).toEqual(
          {
            'x.cancelled': ['instalment_locked'],
          },
        );
      // Paid by the provider's own means (a direct debit): the provider's to cancel.
      expect(
        errorsOf((e) => checkAgainstStored(cancelled, 'x', stored([{ status: 'paid' }, {}]), e)),
      ).toEqual({});
    });
  });
});
