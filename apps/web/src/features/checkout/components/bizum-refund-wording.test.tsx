import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import es from '@/locales/es/checkout.json';
import { mockApi, renderWithQuery } from '@/testing/mock-api';
import type { PaymentStatusAnswer } from '../utils/payment-verification';
import { ResultScreen } from './result-screen';
import { signInCustomer } from '@/testing/checkout';

/**
 * Review (web, money flows): a Bizum payment that arrived for instalments already paid is refunded
 * through Redsys to the Bizum account it came from (the server refunds every method alike). The
 * result screen must not tell the customer the money goes back "a la misma tarjeta": they paid
 * with their phone, there is no card, and they will look for the money in the wrong place.
 */

const id = '6f1c1d2e-0000-4000-8000-000000000001';
const bizumPaid = (refund: PaymentStatusAnswer['refund']): PaymentStatusAnswer => ({
  payment_id: id,
  order_id: '1234abcdEFGH',
  status: 'paid',
  amount: 47.2,
  invoices: ['F2025-00012'],
  card_saved: false,
  created_at: '2025-05-12T15:30:00.000Z',
  settled_at: '2025-05-12T15:31:00.000Z',
  failure: null,
  date: '2025-05-12',
  time: '17:31',
  refund,
  method: 'bizum',
});

beforeEach(signInCustomer);
afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

const cardWords = /tarjeta/i;

describe('review3: the refund of a Bizum payment', () => {
  it('a Bizum payment refunded whole is not said to go back to a card', async () => {
    mockApi({
      [`/redsys/payment/${id}/status`]: () => ({
        json: bizumPaid({ amount: 47.2, status: 'pending' }),
      }),
    });
    await renderWithQuery(<ResultScreen />, { path: `/payment/success?payment_id=${id}` });
    await screen.findByText(es.result.refunded.title, {}, { timeout: 5000 });
    const heading = screen.getByRole('heading', { level: 1 });
    const lead = heading.nextElementSibling?.textContent ?? '';
    expect(lead).toContain('47,20');
    expect(lead).not.toMatch(cardWords);
  });

  it('a Bizum payment with a partial surplus is not said to be refunded to a card', async () => {
    mockApi({
      [`/redsys/payment/${id}/status`]: () => ({
        json: bizumPaid({ amount: 12.5, status: 'refunded' }),
      }),
    });
    await renderWithQuery(<ResultScreen />, { path: `/payment/success?payment_id=${id}` });
    await screen.findByText(es.result.success.title, {}, { timeout: 5000 });
    const status = screen.getByRole('status');
    expect(status.textContent).toContain('12,50');
    expect(status.textContent).not.toMatch(cardWords);
  });
});
