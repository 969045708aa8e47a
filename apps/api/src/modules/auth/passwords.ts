import { hash, verify } from '@node-rs/argon2';

/** argon2id with OWASP's minimum (19 MiB, 2 passes, 1 lane): @node-rs/argon2's defaults. */
export const argonParams = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

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
