import { describe, expect, it } from 'vitest';
import { invoiceCheckinHref, paymentsCheckinHref } from '@/lib/payment-checkin';
import { checkinBackHref, parseAmountParam, parseCheckinQuery } from './checkin-query';

const parse = (query: string) => parseCheckinQuery(new URLSearchParams(query));

describe('the confirmation query (spec §2 /payment-checkin)', () => {
  it('reads one invoice, and ignores the amount of the address (the server computes it)', () => {
    expect(parse('invoiceId=F2025-00012&amount=47.20')).toEqual({
      ok: true,
      target: { kind: 'invoices', invoiceIds: ['F2025-00012'] },
    });
    expect(parse('invoiceId=F2025-00012&amount=1.00')).toEqual(parse('invoiceId=F2025-00012'));
  });

  it('reads a selection of instalments (comma-separated, trimmed, without repeats)', () => {
    expect(parse('payments=p1,%20p2,,p1&amount=30')).toEqual({
      ok: true,
      target: { kind: 'payments', paymentIds: ['p1', 'p2'] },
    });
    // With one invoice beside it, the back link can lead to that invoice.
    expect(parse('payments=p1&invoiceId=F1&amount=1')).toMatchObject({
      target: { kind: 'payments', paymentIds: ['p1'], invoiceId: 'F1' },
    });
  });

  it('reads several invoices as a multiple payment', () => {
    expect(parse('invoiceId=F1,F2&amount=10')).toMatchObject({
      target: { kind: 'invoices', invoiceIds: ['F1', 'F2'] },
    });
  });

  it('reads what the Pay buttons write', () => {
    const search = (href: string) => new URLSearchParams(href.slice(href.indexOf('?')));
    expect(parseCheckinQuery(search(invoiceCheckinHref('A B/1', 5)))).toMatchObject({
      target: { invoiceIds: ['A B/1'] },
    });
    expect(parseCheckinQuery(search(paymentsCheckinHref(['p1', 'p2'], 0.1 + 0.2)))).toMatchObject({
      target: { paymentIds: ['p1', 'p2'] },
    });
  });

  it('never makes up a missing invoice (no sample invoice)', () => {
    expect(parse('')).toEqual({ ok: false, errors: ['missingInvoice'] });
    expect(parse('amount=45.00')).toEqual({ ok: false, errors: ['missingInvoice'] });
    expect(parse('invoiceId=&payments=&amount=3')).toEqual({
      ok: false,
      errors: ['missingInvoice'],
    });
    expect(parse(`invoiceId=${'x'.repeat(65)}&amount=3`)).toEqual({
      ok: false,
      errors: ['missingInvoice'],
    });
  });

  it('accepts only positive amounts with at most two decimals (spec §5)', () => {
    expect(parseAmountParam('45.00')).toBe(45);
    expect(parseAmountParam('45,5')).toBe(45.5);
    expect(parseAmountParam(' 1234.56 ')).toBe(1234.56);
    for (const bad of [null, '', '0', '0.00', '-5', '1.234', 'abc', '1e3', 'NaN', '12,345.6']) {
      expect(parseAmountParam(bad), String(bad)).toBeNull();
    }
  });

  it('leads back to the invoice, or to the list the selection came from', () => {
    expect(checkinBackHref({ kind: 'invoices', invoiceIds: ['F 1'] })).toBe(
      '/invoice-detail/F%201',
    );
    expect(checkinBackHref({ kind: 'invoices', invoiceIds: ['F1', 'F2'] })).toBe('/invoices');
    expect(checkinBackHref({ kind: 'payments', paymentIds: ['p1'] })).toBe('/mis-pagos');
    expect(checkinBackHref({ kind: 'payments', paymentIds: ['p1'], invoiceId: 'F1' })).toBe(
      '/invoice-detail/F1',
    );
  });
});
