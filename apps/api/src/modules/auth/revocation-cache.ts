import type { ChannelHandlers, Database } from '../../db/database.ts';
import { revocationChannel } from './repository.ts';
import type { Revocations } from './revocations.ts';

/**
 * A set that forgets, in two generations: an entry lives between one and two `periodMillis`, or
 * less once a generation holds `maxSize` entries.
 */
class Generations {
  private current = new Set<string>();
  private previous = new Set<string>();
  private turnedAt: number;

  constructor(
    private readonly periodMillis: number,
    private readonly now: () => number,
    private readonly maxSize = Infinity,
  ) {
    this.turnedAt = now();
  }

  private turn(): void {
    const now = this.now();
    if (now - this.turnedAt < this.periodMillis && this.current.size < this.maxSize) return;
    this.previous = now - this.turnedAt < 2 * this.periodMillis ? this.current : new Set();
    this.current = new Set();
    this.turnedAt = now;
  }

  has(key: string): boolean {
    this.turn();
    return this.current.has(key) || this.previous.has(key);
  }

  add(key: string): void {
    this.turn();
    this.current.add(key);
  }

  delete(key: string): void {
    this.current.delete(key);
    this.previous.delete(key);
  }

  clear(): void {
    this.current.clear();
    this.previous.clear();
  }
}

export type CachedRevocations = Revocations & {
  /** What the database's revocation channel tells this instance. */
  readonly feed: ChannelHandlers;
  /**
   * Starts listening to the database's announcements (the server does, once ready); answers how
   * to stop. Until then, and where the database cannot listen, every call asks the source.
   */
  listen(db: Pick<Database, 'listen'>): Promise<() => Promise<void>>;
  /** Whether the announcements are heard now (the `portal_revocation_listener_up` metric). */
  readonly listening: boolean;
};

/**
 * `Revocations` that ask the source (the database, or Redis) once per session instead of on every
 * bearer call, and still refuse an ended session's tokens at once on every instance:
 *
 * - every statement that ends a session announces it on the database's channel when its
 *   transaction commits (auth/repository.ts `endFamilies`), and every instance listens;
 * - an ended session, announced or checked, is remembered as ended for as long as its access
 *   tokens can live (`ttlSeconds` and a minute of clock skew), and that is asked first;
 * - "not ended" is remembered only while the listener is up, and only from a check that began
 *   while it was up and that no loss of the listener interrupted: every session ended after the
 *   check read the source is then announced to this instance. When the listener goes down, every
 *   "not ended" is forgotten and each call asks the source again until it is back.
 *
 * Without a listener (behind a pooler in transaction mode) it never goes up, and every call asks
 * the source, as before.
 */
export function createCachedRevocations(
  source: Revocations,
  options: { ttlSeconds: number; now?: () => number },
): CachedRevocations {
  const now = options.now ?? Date.now;
  // Never forgotten early: an ended session stays ended here while any token of it can be valid.
  const ended = new Generations((options.ttlSeconds + 60) * 1000, now);
  // Forgetting one only costs a check: bounds memory, and how long an answer is kept unasked.
  const open = new Generations(10 * 60 * 1000, now, 100_000);
  const end = (k: string) => {
    ended.add(k);
    open.delete(k);
  };
  let listening = false;
  /** Changes at every `up` and `down`: a check that saw it change learned nothing to keep. */
  let epoch = 0;
  const key = (tenantId: string, sessionId: string) => `${tenantId} ${sessionId}`;
  const feed: ChannelHandlers = {
    message(payload) {
      const [tenantId, sessionId] = payload.split(' ');
      if (tenantId && sessionId) end(key(tenantId, sessionId));
    },
    up() {
      listening = true;
      epoch += 1;
    },
    down() {
      listening = false;
      epoch += 1;
      open.clear();
    },
  };
  return {
    async isRevoked(tenantId, sessionId) {
      const k = key(tenantId, sessionId);
      if (ended.has(k)) return true;
      if (listening && open.has(k)) return false;
      const asked = { listening, epoch };
      const revoked = await source.isRevoked(tenantId, sessionId);
      if (revoked) {
        end(k);
        return true;
      }
      if (asked.listening && listening && epoch === asked.epoch && !ended.has(k)) open.add(k);
      return false;
    },
    async revoked(tenantId, sessionIds) {
      for (const id of sessionIds) end(key(tenantId, id));
      await source.revoked(tenantId, sessionIds);
    },
    feed,
    get listening() {
      return listening;
    },
    async listen(db) {
      return (await db.listen(revocationChannel, feed)) ?? (async () => {});
    },
  };
}
