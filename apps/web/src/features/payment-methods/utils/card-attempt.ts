import type { ApiResponse } from '@/lib/api-client';

export type CardAttemptStatus = ApiResponse<'paymentStatus'>;

/**
 * How long the list asks about a card tokenisation after the gateway sent the browser back: about
 * every second at first, slower later, for a minute; then it says "still verifying" and offers to
 * check again. Only the gateway's signed notification settles the attempt (PRODUCT.md "Cards").
 */
export const cardAttemptPolicy = {
  firstDelayMs: 1000,
  backoff: 1.25,
  maxDelayMs: 4000,
  timeoutMs: 60_000,
} as const;

/** The pause after check number `check` (0-based). */
export function cardAttemptDelay(check: number, policy = cardAttemptPolicy): number {
  return Math.min(policy.maxDelayMs, Math.round(policy.firstDelayMs * policy.backoff ** check));
}

export type CardAttemptPhase = 'verifying' | 'saved' | 'failed' | 'timedOut' | 'unknown';

/**
 * What the banner says: saved only when the attempt is settled and a card was kept; a settled
 * attempt that kept nothing failed; a pending one is verifying until the time is up.
 */
export function cardAttemptPhase(input: {
  status: CardAttemptStatus | undefined;
  isNotFound: boolean;
  isTimedOut: boolean;
}): CardAttemptPhase {
  if (input.isNotFound) return 'unknown';
  const status = input.status;
  if (status?.status === 'paid') return status.card_saved ? 'saved' : 'failed';
  if (status?.status === 'failed') return 'failed';
  return input.isTimedOut ? 'timedOut' : 'verifying';
}
