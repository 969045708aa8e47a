import { describe, expect, it } from 'vitest';
import {
  derivePaymentStatus,
  instalmentDates,
  isOverdue,
  isPendingPayment,
  isUnpaid,
  statusOfPayment,
} from './payment-status';

const today = '20250315';

describe('derivePaymentStatus (spec §4 "Payment status (payments and home)")', () => {
  it('is paid when a paid date is present, whatever the due date', () => {
    expect(derivePaymentStatus({ paidDate: '20250110', dueDate: '20250105' }, today)).toBe('paid');
    expect(derivePaymentStatus({ paidDate: '20250320', dueDate: '20250401' }, today)).toBe('paid');
    expect(derivePaymentStatus({ paidDate: '20250110', dueDate: 'garbage' }, today)).toBe('paid');
  });

  it('is overdue when unpaid and due before today', () => {
    expect(derivePaymentStatus({ dueDate: '20250314' }, today)).toBe('overdue');
    expect(derivePaymentStatus({ dueDate: '20200101', paidDate: null }, today)).toBe('overdue');
  });

  it('is pending when unpaid and due today or later', () => {
    expect(derivePaymentStatus({ dueDate: '20250315' }, today)).toBe('pending');
    expect(derivePaymentStatus({ dueDate: '20250401', paidDate: '' }, today)).toBe('pending');
  });

  it('shows a missing or invalid due date as pending, never overdue', () => {
    expect(derivePaymentStatus({}, today)).toBe('pending');
    expect(derivePaymentStatus({ dueDate: '' }, today)).toBe('pending');
    expect(derivePaymentStatus({ dueDate: '20250230' }, today)).toBe('pending');
    expect(derivePaymentStatus({ dueDate: '1/1/2020' }, today)).toBe('pending');
    expect(derivePaymentStatus({ dueDate: null }, today)).toBe('pending');
  });

  it('keeps the books’ cancelled state of an unpaid instalment', () => {
    expect(derivePaymentStatus({ dueDate: '20200101', cancelled: true }, today)).toBe('cancelled');
  });
});

describe('the filters (spec §4: invalid counts as pending, not as overdue)', () => {
  it('the overdue filter never counts an invalid date', () => {
    expect(isOverdue({ dueDate: '20250314' }, today)).toBe(true);
    expect(isOverdue({ dueDate: '20251399' }, today)).toBe(false);
    expect(isOverdue({ dueDate: undefined }, today)).toBe(false);
    expect(isOverdue({ dueDate: '20250101', paidDate: '20250102' }, today)).toBe(false);
    expect(isOverdue({ dueDate: '20250101', cancelled: true }, today)).toBe(false);
  });

  it('the pending filter counts an invalid date as pending', () => {
    expect(isPendingPayment({ dueDate: 'x' }, today)).toBe(true);
    expect(isPendingPayment({ dueDate: '20250401' }, today)).toBe(true);
    expect(isPendingPayment({ dueDate: '20250101' }, today)).toBe(false);
    expect(isPendingPayment({ dueDate: 'x', paidDate: '20250101' }, today)).toBe(false);
  });

  it('unpaid means pending or overdue', () => {
    expect(isUnpaid('pending')).toBe(true);
    expect(isUnpaid('overdue')).toBe(true);
    expect(isUnpaid('paid')).toBe(false);
    expect(isUnpaid('cancelled')).toBe(false);
  });
});

describe('the API shapes read by the same rule', () => {
  it('reads a /payments item', () => {
    const item = { due_date: '20250301', status: 'overdue' };
    expect(statusOfPayment(item, today)).toBe('overdue');
    expect(statusOfPayment({ ...item, paid_date: '20250302', status: 'paid' }, today)).toBe('paid');
    expect(statusOfPayment({ ...item, status: 'cancelled' }, today)).toBe('cancelled');
    // The server's view never overrides the rule: invalid dates are pending.
    expect(statusOfPayment({ due_date: 'nope', status: 'overdue' }, today)).toBe('pending');
  });

  it('reads an /invoice instalment', () => {
    expect(
      derivePaymentStatus(
        instalmentDates({ paiddate: null, duedate: '20250301', state: 'returned' }),
        today,
      ),
    ).toBe('overdue');
    expect(
      derivePaymentStatus(
        instalmentDates({ paiddate: null, duedate: '20250301', state: 'cancelled' }),
        today,
      ),
    ).toBe('cancelled');
  });
});
