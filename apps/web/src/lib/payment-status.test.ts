import { describe, expect, it } from 'vitest';
import { isUnpaid } from './payment-status';

describe('payment status (as the server sends it)', () => {
  it('is unpaid when pending or overdue', () => {
    expect(isUnpaid('pending')).toBe(true);
    expect(isUnpaid('overdue')).toBe(true);
    expect(isUnpaid('paid')).toBe(false);
    expect(isUnpaid('cancelled')).toBe(false);
  });
});
