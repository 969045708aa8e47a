import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import {
  type PaymentStatusAnswer,
  pollDelay,
  pollingPolicy,
  sleep,
  verifyPayment,
} from './payment-verification';

const answer = (status: PaymentStatusAnswer['status']): PaymentStatusAnswer => ({
  payment_id: '6f1c1d2e-0000-4000-8000-000000000001',
  order_id: '1234abcdEFGH',
  status,
  amount: 47.2,
  invoices: ['F2025-00012'],
  card_saved: false,
  created_at: '2025-05-12T15:30:00.000Z',
  settled_at: status === 'pending' ? null : '2025-05-12T15:31:00.000Z',
  failure: null,
  date: '2025-05-12',
  time: '17:31',
  refund: null,
});

/** A clock that only moves when the poller waits: the whole minute runs in no time. */
function fakeClock() {
  let time = 0;
  const waits: number[] = [];
  return {
    now: () => time,
    wait: async (ms: number) => {
      waits.push(ms);
      time += ms;
    },
    waits,
  };
}

/** Answers (or errors) in order; the last one repeats. */
function server(...steps: (PaymentStatusAnswer | Error)[]) {
  let i = 0;
  return vi.fn(async () => {
    const step = steps[Math.min(i, steps.length - 1)];
    i += 1;
    if (step instanceof Error) throw step;
    return step as PaymentStatusAnswer;
  });
}

describe('verifying a payment with the server (PRODUCT.md "Payments")', () => {
  it('pending -> paid', async () => {
    const clock = fakeClock();
    const fetchStatus = server(answer('pending'), answer('pending'), answer('paid'));
    const result = await verifyPayment({
      fetchStatus,
      signal: new AbortController().signal,
      ...clock,
    });
    expect(result).toEqual({ phase: 'paid', payment: answer('paid') });
    expect(fetchStatus).toHaveBeenCalledTimes(3);
    // The first check is immediate; then about every second.
    expect(clock.waits).toEqual([1000, 1250]);
  });

  it('pending -> failed', async () => {
    const clock = fakeClock();
    const fetchStatus = server(answer('pending'), answer('failed'));
    const result = await verifyPayment({
      fetchStatus,
      signal: new AbortController().signal,
      ...clock,
    });
    expect(result).toEqual({ phase: 'failed', payment: answer('failed') });
    expect(fetchStatus).toHaveBeenCalledTimes(2);
  });

  it('pending -> superseded: a newer payment replaced it, no more checks', async () => {
    const clock = fakeClock();
    const fetchStatus = server(answer('pending'), answer('superseded'), answer('paid'));
    const result = await verifyPayment({
      fetchStatus,
      signal: new AbortController().signal,
      ...clock,
    });
    expect(result).toEqual({ phase: 'superseded', payment: answer('superseded') });
    expect(fetchStatus).toHaveBeenCalledTimes(2);
  });

  it('settled at once: no waiting', async () => {
    const clock = fakeClock();
    const result = await verifyPayment({
      fetchStatus: server(answer('paid')),
      signal: new AbortController().signal,
      ...clock,
    });
    expect(result.phase).toBe('paid');
    expect(clock.waits).toEqual([]);
  });

  it('still pending after about a minute: timed out, with slower checks over time', async () => {
    const clock = fakeClock();
    const fetchStatus = server(answer('pending'));
    const result = await verifyPayment({
      fetchStatus,
      signal: new AbortController().signal,
      ...clock,
    });
    expect(result).toEqual({ phase: 'timedOut' });
    const waited = clock.waits.reduce((a, b) => a + b, 0);
    expect(waited).toBeLessThanOrEqual(pollingPolicy.timeoutMs);
    expect(waited).toBeGreaterThan(pollingPolicy.timeoutMs - pollingPolicy.maxDelayMs);
    expect(clock.waits[0]).toBe(1000);
    expect(Math.max(...clock.waits)).toBe(pollingPolicy.maxDelayMs);
    expect(fetchStatus.mock.calls.length).toBeGreaterThan(15);
    expect(fetchStatus.mock.calls.length).toBeLessThan(30);
  });

  it('a failed check (no network, a 5xx) is asked again', async () => {
    const clock = fakeClock();
    const fetchStatus = server(
      new ApiError(0, 'network_error'),
      new ApiError(503, 'service_unavailable'),
      answer('paid'),
    );
    const result = await verifyPayment({
      fetchStatus,
      signal: new AbortController().signal,
      ...clock,
    });
    expect(result.phase).toBe('paid');
    expect(fetchStatus).toHaveBeenCalledTimes(3);
  });

  it("an unknown or another customer's payment (404) ends as unknown", async () => {
    const clock = fakeClock();
    const fetchStatus = server(new ApiError(404, 'not_found'));
    const result = await verifyPayment({
      fetchStatus,
      signal: new AbortController().signal,
      ...clock,
    });
    expect(result).toEqual({ phase: 'unknown' });
    expect(fetchStatus).toHaveBeenCalledTimes(1);
  });

  it('stops when aborted (the screen was left)', async () => {
    const controller = new AbortController();
    const fetchStatus = server(answer('pending'));
    const promise = verifyPayment({
      fetchStatus,
      signal: controller.signal,
      wait: sleep,
    });
    await vi.waitFor(() => expect(fetchStatus).toHaveBeenCalledTimes(1));
    controller.abort();
    await expect(promise).rejects.toThrow();
    expect(fetchStatus).toHaveBeenCalledTimes(1);
  });

  it('backs off from one second up to four', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 20].map((n) => pollDelay(n))).toEqual([
      1000, 1250, 1563, 1953, 2441, 3052, 3815, 4000, 4000,
    ]);
  });
});

describe('sleep', () => {
  it('waits, and is cut short by the signal', async () => {
    vi.useFakeTimers();
    try {
      const done = vi.fn();
      void sleep(1000, new AbortController().signal).then(done);
      await vi.advanceTimersByTimeAsync(999);
      expect(done).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      expect(done).toHaveBeenCalled();

      const controller = new AbortController();
      const cut = sleep(1000, controller.signal);
      controller.abort();
      await expect(cut).rejects.toBeDefined();
    } finally {
      vi.useRealTimers();
    }
  });
});
