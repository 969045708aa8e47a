import { describe, expect, it } from 'vitest';
import { type CardAttemptStatus, cardAttemptDelay, cardAttemptPhase } from './card-attempt';

const attempt = (patch: Partial<CardAttemptStatus>): CardAttemptStatus => ({
  payment_id: 'a1',
  order_id: '4821Xk9PqA2b',
  status: 'pending',
  amount: 0,
  invoices: [],
  card_saved: false,
  created_at: '2026-11-21T15:30:00.000Z',
  settled_at: null,
  failure: null,
  date: '2025-05-12',
  time: '17:31',
  refund: null,
  ...patch,
});

describe('a card being saved (the gateway sent the browser back)', () => {
  it('is saved only when the attempt is settled and a card was kept', () => {
    const phase = (status: CardAttemptStatus | undefined, isTimedOut = false) =>
      cardAttemptPhase({ status, isNotFound: false, isTimedOut });
    expect(phase(undefined)).toBe('verifying');
    expect(phase(attempt({}))).toBe('verifying');
    expect(phase(attempt({}), true)).toBe('timedOut');
    expect(phase(attempt({ status: 'paid', card_saved: true }))).toBe('saved');
    expect(phase(attempt({ status: 'paid', card_saved: false }))).toBe('failed');
    expect(phase(attempt({ status: 'failed' }))).toBe('failed');
    expect(cardAttemptPhase({ status: undefined, isNotFound: true, isTimedOut: false })).toBe(
      'unknown',
    );
  });

  it('asks about every second at first, then less often', () => {
    expect([0, 1, 2, 5, 10].map((n) => cardAttemptDelay(n))).toEqual([
      1000, 1250, 1563, 3052, 4000,
    ]);
  });
});
