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
 * Admission control: at most `maxInFlight` tasks run at once, at most `maxQueued` wait, and the
 * next one is refused at once with `refuse()` (a 503 with Retry-After). Used for password hashing
 * (a burst of sign-ins queued every argon2 verification on libuv's thread pool and answers grew
 * without bound: 1,000 concurrent attempts answered after 20 s and more,
 * resilience/load.resilience.ts) and for the heavy work of every kind (workers/pool.ts).
 * Hand-written rather than p-limit: the refusal of a full line and the turns between tenants are
 * the point, and they are these forty lines.
 *
 * `maxPerKey`: the tasks of one key, running and waiting together, never more than that: one
 * tenant that fills the line gets the 503s, and the others still find room in it.
 *
 * The line takes turns between keys: a freed slot goes to the key that has waited longest for a
 * turn, and each key's own tasks start in their order. A tenant that queued eight PDFs does not
 * make the next tenant's one wait behind all eight, only behind the one already starting. Tasks
 * without a key take their turns as one more key.
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
  let queued = 0;
  /**
   * Each key's waiting tasks, the keys in turn order: a Map iterates in insertion order, so the
   * first key is the next to be served, and a key served goes to the back if it still waits.
   */
  const lines = new Map<string | undefined, (() => void)[]>();
  const held = new Map<string, number>();
  const hold = (key: string | undefined, by: 1 | -1) => {
    if (key === undefined) return;
    const count = (held.get(key) ?? 0) + by;
    if (count > 0) held.set(key, count);
    else held.delete(key);
  };
  const next = (): (() => void) | undefined => {
    for (const [key, line] of lines) {
      const go = line.shift();
      lines.delete(key);
      if (line.length > 0) lines.set(key, line);
      queued -= 1;
      return go;
    }
    return undefined;
  };
  const release = () => {
    const go = next();
    // The slot passes to the next key's first task, or is freed.
    if (go) go();
    else inFlight -= 1;
  };
  return {
    get inFlight() {
      return inFlight;
    },
    get queued() {
      return queued;
    },
    async run<T>(task: () => Promise<T>, key?: string): Promise<T> {
      if (key !== undefined && (held.get(key) ?? 0) >= maxPerKey) throw refuse();
      if (inFlight < maxInFlight) {
        inFlight += 1;
        hold(key, 1);
      } else if (queued < maxQueued) {
        hold(key, 1);
        queued += 1;
        await new Promise<void>((go) => {
          const line = lines.get(key);
          if (line) line.push(go);
          else lines.set(key, [go]);
        });
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
