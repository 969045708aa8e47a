import { describe, expect, it } from 'vitest';
import { invoiceStatusLabel, isPayableInvoice } from './invoice-status';

describe('invoice status labels (the server decides, the web app names)', () => {
  it('names each state of the server, and an unknown one as unknown', () => {
    expect(invoiceStatusLabel('paid')).toBe('paid');
    expect(invoiceStatusLabel('pending')).toBe('pending');
    expect(invoiceStatusLabel('partially_paid')).toBe('partiallyPaid');
    expect(invoiceStatusLabel('overdue')).toBe('overdue');
    expect(invoiceStatusLabel('cancelled')).toBe('cancelled');
    expect(invoiceStatusLabel('credit_note')).toBe('creditNote');
    expect(invoiceStatusLabel('toString')).toBe('unknown');
    expect(invoiceStatusLabel('refunded')).toBe('unknown');
  });

  it('offers to pay only what still owes something', () => {
    expect(isPayableInvoice({ state: 'overdue', amount: 20 })).toBe(true);
    expect(isPayableInvoice({ state: 'partially_paid', amount: 5 })).toBe(true);
    expect(isPayableInvoice({ state: 'pending', amount: 0 })).toBe(false);
    expect(isPayableInvoice({ state: 'paid', amount: 0 })).toBe(false);
    expect(isPayableInvoice({ state: 'cancelled', amount: 12 })).toBe(false);
    expect(isPayableInvoice({ state: 'credit_note', amount: 0 })).toBe(false);
  });
});
