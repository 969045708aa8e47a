/** The retry schedule of webhook deliveries (a pure function: unit-tested in retry.test.ts). */
export type RetrySchedule = { baseSeconds: number; maxSeconds: number };

/** Jitter takes up to this share off a delay, so that receivers coming back are not stampeded. */
const jitterShare = 0.2;

/**
 * Seconds to wait after failed attempt number `attempt` (1 for the first): `base * 2^(attempt-1)`,
 * capped at `max`, then shortened by a random 0-20% (never lengthened, so the cap holds).
 */
export function retryDelaySeconds(
  attempt: number,
  schedule: RetrySchedule,
  random: () => number = Math.random,
): number {
  const exponent = Math.max(0, Math.min(attempt - 1, 62));
  const delay = Math.min(schedule.maxSeconds, schedule.baseSeconds * 2 ** exponent);
  return delay * (1 - jitterShare * random());
}
