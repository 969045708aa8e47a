import { ErrorCode } from '@portal/contract';
import { AppError } from './app-error.ts';

export type Admission = {
  /**
   * Runs `task` when a slot is free; waits in line if the line is short; else throws a 503. With a
   * `key` (a tenant), also refused when that key already holds its share (`maxPerKey`).
   */
  run<T>(task: () => Promise<T>, key?: string): Promise<T>;
  readonly inFlight: number;
  readonly queued: number;
};

const busy = (): AppError =>
  new AppError(503, ErrorCode.unavailable, 'Too much at once, retry shortly', {
    'retry-after': '1',
  });

/**
 * Admission control: at most `maxInFlight` tasks run at once, at most `maxQueued` wait (first
 * come, first served), and the next one is refused at once with `refuse()` (a 503 with
 * Retry-After). Used for password hashing (a burst of sign-ins queued every argon2 verification on
 * libuv's thread pool and answers grew without bound: 1,000 concurrent attempts answered after 20 s
 * and more, resilience/load.resilience.ts) and for the heavy work of every kind (workers/pool.ts).
 * Hand-written rather than p-limit: the refusal of a full line is the point, and it is these
 * twenty lines.
 *
 * `maxPerKey`: the tasks of one key, running and waiting together, never more than that: one
 * tenant that fills the line gets the 503s, and the others still find room in it.
 */
export function createAdmission({
  maxInFlight,
  maxQueued,
  maxPerKey = Infinity,
  refuse = busy,
}: {
  maxInFlight: number;
  maxQueued: number;
  maxPerKey?: number;
  refuse?: () => Error;
}): Admission {
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  const held = new Map<string, number>();
  const hold = (key: string | undefined, by: 1 | -1) => {
    if (key === undefined) return;
    const count = (held.get(key) ?? 0) + by;
    if (count > 0) held.set(key, count);
    else held.delete(key);
  };
  const release = () => {
    const next = waiting.shift();
    // The slot passes to the next in line, or is freed.
    if (next) next();
    else inFlight -= 1;
  };
  return {
    get inFlight() {
      return inFlight;
    },
    get queued() {
      return waiting.length;
    },
    async run<T>(task: () => Promise<T>, key?: string): Promise<T> {
      if (key !== undefined && (held.get(key) ?? 0) >= maxPerKey) throw refuse();
      if (inFlight < maxInFlight) {
        inFlight += 1;
        hold(key, 1);
      } else if (waiting.length < maxQueued) {
        hold(key, 1);
        await new Promise<void>((go) => waiting.push(go));
      } else throw refuse();
      try {
        return await task();
      } finally {
        hold(key, -1);
        release();
      }
    },
  };
}
