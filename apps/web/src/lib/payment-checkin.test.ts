import { describe, expect, it } from 'vitest';
import { invoiceCheckinHref, paymentsCheckinHref } from './payment-checkin';

describe('payment confirmation addresses (spec §2 route table)', () => {
  it('carries the invoice and the amount to pay', () => {
    expect(invoiceCheckinHref('F2025-00012', 47.2)).toBe(
      '/payment-checkin?invoiceId=F2025-00012&amount=47.20',
    );
    expect(invoiceCheckinHref('A B/1', 5)).toBe('/payment-checkin?invoiceId=A+B%2F1&amount=5.00');
  });

  it('carries several payments as a comma-separated list and their total', () => {
    expect(paymentsCheckinHref(['p1', 'p2'], 0.1 + 0.2)).toBe(
      '/payment-checkin?payments=p1,p2&amount=0.30',
    );
  });
});
