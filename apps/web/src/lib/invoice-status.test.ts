import { describe, expect, it } from 'vitest';
import {
  amountToPay,
  homeInvoiceStatus,
  invoiceCardStatus,
  isInvoicePayable,
} from './invoice-status';

const today = '20250315';

describe('homeInvoiceStatus (spec §4 "Invoice status on home": status 1 = paid, else pending)', () => {
  it('is paid for 1 and pending otherwise', () => {
    expect(homeInvoiceStatus(1)).toBe('paid');
    expect(homeInvoiceStatus(0)).toBe('pending');
    expect(homeInvoiceStatus(7)).toBe('pending');
  });

  it('says cancelled for the contract’s status 2 rather than asking for money', () => {
    expect(homeInvoiceStatus(2)).toBe('cancelled');
  });
});

describe('invoiceCardStatus (spec §4: list cards derive the status from the amount)', () => {
  it('amount 0 = paid', () => {
    expect(invoiceCardStatus({ status: 1, amount: 0, total: 47.19 })).toBe('paid');
    expect(invoiceCardStatus({ status: 0, amount: 0.001, total: 47.19 })).toBe('paid');
  });

  it('between zero and the total = partially paid', () => {
    expect(invoiceCardStatus({ status: 0, amount: 31.46, total: 47.19 })).toBe('partiallyPaid');
    expect(invoiceCardStatus({ status: 0, amount: 0.01, total: 47.19 })).toBe('partiallyPaid');
  });

  it('at or above the total = pending', () => {
    expect(invoiceCardStatus({ status: 0, amount: 47.19, total: 47.19 })).toBe('pending');
    expect(invoiceCardStatus({ status: 0, amount: 50, total: 47.19 })).toBe('pending');
    expect(invoiceCardStatus({ status: 0, amount: 0.1 + 0.2, total: 0.3 })).toBe('pending');
  });

  it('a cancelled invoice (status 2) is cancelled', () => {
    expect(invoiceCardStatus({ status: 2, amount: 0, total: 47.19 })).toBe('cancelled');
  });

  it('anything else is unknown', () => {
    expect(invoiceCardStatus({ status: 0, amount: -5, total: 47.19 })).toBe('unknown');
    expect(invoiceCardStatus({ status: 0, amount: Number.NaN, total: 47.19 })).toBe('unknown');
    expect(invoiceCardStatus({ status: 0, amount: 5, total: Number.NaN })).toBe('unknown');
  });
});

describe('payable invoice and amount to pay (spec §4 "Payable invoice")', () => {
  const paid = { amount: 15.73, dueDate: '20250105', paidDate: '20250106' };
  const overdue = { amount: 15.73, dueDate: '20250205', paidDate: null };
  const pending = { amount: 15.74, dueDate: '20250405', paidDate: null };

  it('with no payments: payable for its total', () => {
    const invoice = { status: 0, total: 47.2, payments: [] };
    expect(isInvoicePayable(invoice, today)).toBe(true);
    expect(amountToPay(invoice, today)).toBe(47.2);
  });

  it('with an unpaid payment: payable for the sum of the unpaid ones', () => {
    const invoice = { status: 0, total: 47.2, payments: [paid, overdue, pending] };
    expect(isInvoicePayable(invoice, today)).toBe(true);
    expect(amountToPay(invoice, today)).toBe(31.47);
  });

  it('with every payment paid: not payable', () => {
    const invoice = { status: 1, total: 15.73, payments: [paid] };
    expect(isInvoicePayable(invoice, today)).toBe(false);
    expect(amountToPay(invoice, today)).toBe(0);
  });

  it('an unpaid payment with an invalid due date still counts (it is pending)', () => {
    const invoice = { status: 0, total: 10, payments: [{ amount: 10, dueDate: 'x' }] };
    expect(amountToPay(invoice, today)).toBe(10);
  });

  it('a cancelled invoice or a paid one without payments owes nothing', () => {
    const cancelled = {
      status: 2,
      total: 47.2,
      payments: [{ amount: 47.2, dueDate: '20250105', cancelled: true }],
    };
    expect(isInvoicePayable(cancelled, today)).toBe(false);
    expect(amountToPay(cancelled, today)).toBe(0);
    expect(isInvoicePayable({ status: 2, total: 5, payments: [] }, today)).toBe(false);
    expect(isInvoicePayable({ status: 1, total: 5, payments: [] }, today)).toBe(false);
  });
});
