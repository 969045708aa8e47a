import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import { ErrorCode } from '@portal/contract';
import { createAdmission, type Admission } from '../../lib/admission.ts';
import { AppError } from '../../lib/app-error.ts';

/** argon2id with OWASP's minimum (19 MiB, 2 passes, 1 lane): @node-rs/argon2's defaults. */
const argonParams = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string): Promise<string> => hash(password, argonParams);

/** A hash of a random password, verified when the e-mail is unknown so both take the same time. */
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(
  stored: string | null | undefined,
  password: string,
): Promise<boolean> {
  if (!stored) {
    dummyHash ??= hashPassword(`unknown-${Math.random()}`);
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** True when a stored hash was made with other parameters than today's: rehash on login. */
export function needsRehash(stored: string): boolean {
  const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(stored);
  if (!match) return true;
  return (
    Number(match[1]) !== argonParams.memoryCost ||
    Number(match[2]) !== argonParams.timeCost ||
    Number(match[3]) !== argonParams.parallelism
  );
}

/** The 503 of a full line: the client retries in a second (the web app shows "try again"). */
const tooBusy = (): AppError =>
  new AppError(503, ErrorCode.unavailable, 'Too many sign-ins at once, retry shortly', {
    'retry-after': '1',
  });

/**
 * The process-wide gate of password work (a verification or a hash, ~20-50 ms of one core and
 * 19 MiB each): one at a time per core but one, so that a core stays free for the event loop
 * (every other request) and a thread of libuv's pool (4 unless UV_THREADPOOL_SIZE says otherwise)
 * for files, compression and DNS; sixteen waiting per slot, beyond which sign-ins get a 503 with
 * Retry-After. One tenant's work holds at most half of the places (slots and line): a burst of
 * sign-ins at one tenant, a credential-stuffing run say, leaves the others room.
 */
const threadPool = Number(process.env.UV_THREADPOOL_SIZE) || 4;
export const passwordSlots = Math.max(1, Math.min(availableParallelism() - 1, threadPool - 1));
export const passwordAdmission: Admission = createAdmission({
  maxInFlight: passwordSlots,
  maxQueued: 16 * passwordSlots,
  maxPerKey: Math.ceil((17 * passwordSlots) / 2),
  refuse: tooBusy,
});

export { createAdmission, type Admission };
