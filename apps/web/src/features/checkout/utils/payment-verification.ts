import { ApiError, type ApiResponse } from '@/lib/api-client';

export type PaymentStatusAnswer = ApiResponse<'paymentStatus'>;

/**
 * What the result screen knows about a payment (PRODUCT.md "Payments"): only the signed
 * notification settles it, so the screen says "verifying" and asks the server until the attempt
 * is paid, failed or superseded; after a while it stops and says the customer will be notified.
 */
export type Verification =
  | { phase: 'verifying' }
  | { phase: 'paid'; payment: PaymentStatusAnswer }
  | { phase: 'failed'; payment: PaymentStatusAnswer }
  /** Replaced by a newer payment of the same instalments (the customer came back and paid again). */
  | { phase: 'superseded'; payment: PaymentStatusAnswer }
  /** Still pending when the time ran out; "check again" starts over. */
  | { phase: 'timedOut' }
  /** The server does not know this payment for this customer (404), or refused to say. */
  | { phase: 'unknown' };

export type PollingPolicy = {
  /** Pause after the first (immediate) check. */
  firstDelayMs: number;
  /** Each pause is this much longer than the one before... */
  backoff: number;
  /** ...up to this. */
  maxDelayMs: number;
  /** No new check starts after this long. */
  timeoutMs: number;
};

/** About every second at first, slower later, a minute in all (about 20 checks). */
export const pollingPolicy: PollingPolicy = {
  firstDelayMs: 1000,
  backoff: 1.25,
  maxDelayMs: 4000,
  timeoutMs: 60_000,
};

/** The pause after check number `check` (0-based). */
export function pollDelay(check: number, policy: PollingPolicy = pollingPolicy): number {
  return Math.min(policy.maxDelayMs, Math.round(policy.firstDelayMs * policy.backoff ** check));
}

/** Resolves after `ms`, or rejects with the signal's reason when it is aborted first. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export type VerifyOptions = {
  fetchStatus: (signal: AbortSignal) => Promise<PaymentStatusAnswer>;
  signal: AbortSignal;
  policy?: PollingPolicy;
  now?: () => number;
  wait?: (ms: number, signal: AbortSignal) => Promise<void>;
};

/**
 * Asks for the payment's state until it is settled or the time is up. A failed check (no
 * network, a 5xx) is only a reason to ask again; a 404 or 403 ends it as `unknown`. Rejects only
 * when aborted.
 */
export async function verifyPayment({
  fetchStatus,
  signal,
  policy = pollingPolicy,
  now = Date.now,
  wait = sleep,
}: VerifyOptions): Promise<Exclude<Verification, { phase: 'verifying' }>> {
  const start = now();
  for (let check = 0; ; check += 1) {
    try {
      const payment = await fetchStatus(signal);
      if (payment.status === 'paid') return { phase: 'paid', payment };
      if (payment.status === 'failed') return { phase: 'failed', payment };
      if (payment.status === 'superseded') return { phase: 'superseded', payment };
    } catch (error) {
      signal.throwIfAborted();
      if (error instanceof ApiError && [401, 403, 404].includes(error.status)) {
        return { phase: 'unknown' };
      }
    }
    const delay = pollDelay(check, policy);
    if (now() - start + delay > policy.timeoutMs) return { phase: 'timedOut' };
    await wait(delay, signal);
  }
}
