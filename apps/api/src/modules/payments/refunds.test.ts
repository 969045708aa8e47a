import type { QueryOperation } from '@portal/redsys';
import { describe, expect, it } from 'vitest';
import { refundStateOf } from './refunds.ts';

/** A refund of 25.41 EUR on order 4242REF recorded at 10:00 Madrid time (09:00 UTC in winter). */
const refund = {
  order_number: '4242REF',
  amount_cents: 2541,
  created_at: new Date('2026-11-30T09:00:00Z'),
};
const op = (over: Partial<QueryOperation>): QueryOperation => ({
  order: '4242REF',
  transactionType: '3',
  state: 'F',
  response: '0900',
  amountCents: 2541,
  currency: '978',
  authorisationCode: '654321',
  merchantCode: '999008881',
  terminal: '001',
  date: '2026-11-30',
  hour: '10:02:13',
  ...over,
});
const ok = (...operations: QueryOperation[]) => ({ kind: 'ok' as const, operations });

describe('what a query answer says of a refund of unknown outcome', () => {
  it('made: an authorised refund of its amount, from when it was recorded on', () => {
    expect(refundStateOf(ok(op({})), refund)).toEqual({ made: true, authorisationCode: '654321' });
    // Redsys' clock a few minutes behind ours.
    expect(refundStateOf(ok(op({ hour: '09:57:00' })), refund)).toMatchObject({ made: true });
  });

  it('not provable: the same amount refunded (by hand) before it was recorded, another amount, one not final', () => {
    expect(refundStateOf(ok(op({ date: '2026-11-29' })), refund)).toBeNull();
    expect(refundStateOf(ok(op({ hour: '09:40:00' })), refund)).toBeNull();
    expect(refundStateOf(ok(op({ amountCents: 2540 })), refund)).toBeNull();
    expect(refundStateOf(ok(op({ state: 'P', response: undefined })), refund)).toBeNull();
    expect(refundStateOf(ok(op({ date: '' })), refund)).toBeNull();
    expect(refundStateOf({ kind: 'failed' }, refund)).toBeNull();
    expect(refundStateOf({ kind: 'error', code: 'XML0023' }, refund)).toBeNull();
  });

  it('never made: no refund of the order at all, or only refused ones', () => {
    expect(refundStateOf({ kind: 'not_found' }, refund)).toEqual({ made: false });
    expect(refundStateOf(ok(), refund)).toEqual({ made: false });
    expect(refundStateOf(ok(op({ response: '0950' })), refund)).toEqual({ made: false });
    expect(refundStateOf(ok(op({ order: '4242OTHER' })), refund)).toEqual({ made: false });
  });
});
