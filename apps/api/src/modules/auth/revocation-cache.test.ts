import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCachedRevocations } from './revocation-cache.ts';
import type { Revocations } from './revocations.ts';

/** A source whose answers the test sets, counting what it is asked. */
function fakeSource() {
  const ended = new Set<string>();
  let asked = 0;
  let hold: Promise<void> | undefined;
  const source: Revocations = {
    async isRevoked(tenantId, sessionId) {
      asked += 1;
      const answer = ended.has(`${tenantId} ${sessionId}`);
      if (hold) await hold;
      return answer;
    },
    async revoked(tenantId, ids) {
      for (const id of ids) ended.add(`${tenantId} ${id}`);
    },
  };
  return {
    source,
    end: (tenantId: string, id: string) => ended.add(`${tenantId} ${id}`),
    asked: () => asked,
    /** The next checks read the source's answer now, and return it when `release` is called. */
    holdAnswers() {
      let release = () => {};
      hold = new Promise<void>((resolve) => (release = resolve));
      return () => {
        hold = undefined;
        release();
      };
    },
  };
}

/** A cache over a fake source whose listener is up. */
function listeningCache() {
  const f = fakeSource();
  const cache = createCachedRevocations(f.source, { ttlSeconds: 900 });
  cache.feed.up();
  return { f, cache };
}

describe('cached revocations', () => {
  it('asks the source once per session while it hears the announcements', async () => {
    const { f, cache } = listeningCache();
    expect(await cache.isRevoked('t', 's1')).toBe(false);
    expect(await cache.isRevoked('t', 's1')).toBe(false);
    expect(await cache.isRevoked('t', 's1')).toBe(false);
    expect(f.asked()).toBe(1);
    expect(await cache.isRevoked('t', 's2')).toBe(false);
    expect(await cache.isRevoked('u', 's1')).toBe(false);
    expect(f.asked()).toBe(3);
  });

  it('asks the source on every call while it does not hear them (never listened, or lost)', async () => {
    const f = fakeSource();
    const cache = createCachedRevocations(f.source, { ttlSeconds: 900 });
    await cache.isRevoked('t', 's');
    await cache.isRevoked('t', 's');
    expect(f.asked()).toBe(2);
    cache.feed.up();
    await cache.isRevoked('t', 's');
    await cache.isRevoked('t', 's');
    expect(f.asked()).toBe(3);
    // Lost: what it knew of open sessions is forgotten, and a session ended meanwhile (its
    // announcement missed) is read from the source.
    cache.feed.down();
    f.end('t', 's');
    expect(await cache.isRevoked('t', 's')).toBe(true);
    expect(f.asked()).toBe(4);
  });

  it('refuses at once a session announced as ended, though it was known open', async () => {
    const { cache } = listeningCache();
    expect(await cache.isRevoked('t', 's')).toBe(false);
    cache.feed.message('t s');
    expect(await cache.isRevoked('t', 's')).toBe(true);
    // Only that session of that tenant.
    expect(await cache.isRevoked('u', 's')).toBe(false);
    // A payload that is not `tenant session` changes nothing.
    cache.feed.message('garbage');
    cache.feed.message('');
    expect(await cache.isRevoked('t', 'x')).toBe(false);
  });

  it('refuses at once a session this instance ended, before any announcement', async () => {
    const { f, cache } = listeningCache();
    expect(await cache.isRevoked('t', 'a')).toBe(false);
    await cache.revoked('t', ['a', 'b']);
    expect(await cache.isRevoked('t', 'a')).toBe(true);
    expect(await cache.isRevoked('t', 'b')).toBe(true);
    expect(f.asked()).toBe(1);
  });

  it('keeps no answer from a check during which the listener was lost, or an announcement came', async () => {
    const { f, cache } = listeningCache();
    // The listener drops and comes back while the source is being asked: sessions ended in that
    // gap were never announced here, so the answer is not kept.
    let release = f.holdAnswers();
    let pending = cache.isRevoked('t', 's');
    cache.feed.down();
    cache.feed.up();
    release();
    expect(await pending).toBe(false);
    f.end('t', 's');
    expect(await cache.isRevoked('t', 's')).toBe(true);
    expect(f.asked()).toBe(2);

    // The session is ended (and announced) after the source was read but before it answered.
    release = f.holdAnswers();
    pending = cache.isRevoked('t', 'r');
    cache.feed.message('t r');
    release();
    expect(await pending).toBe(false);
    expect(await cache.isRevoked('t', 'r')).toBe(true);
  });

  it('remembers an ended session as long as its access tokens can live, then asks again', async () => {
    let clock = 0;
    const f = fakeSource();
    const cache = createCachedRevocations(f.source, { ttlSeconds: 60, now: () => clock });
    cache.feed.message('t s');
    clock += 119_000;
    expect(await cache.isRevoked('t', 's')).toBe(true);
    expect(f.asked()).toBe(0);
    // Two periods of (ttl + 60 s) later it is forgotten; the source still says ended.
    clock += 2 * 120_000;
    f.end('t', 's');
    expect(await cache.isRevoked('t', 's')).toBe(true);
    expect(f.asked()).toBe(1);
  });

  it('listens on the channel the repository announces on, and stops', async () => {
    const f = fakeSource();
    const cache = createCachedRevocations(f.source, { ttlSeconds: 900 });
    const calls: string[] = [];
    const stop = await cache.listen({
      async listen(channel, handlers) {
        calls.push(channel);
        handlers.up();
        return async () => handlers.down();
      },
    });
    expect(calls).toEqual(['portal_revocations']);
    expect(cache.listening).toBe(true);
    await cache.isRevoked('t', 's');
    await cache.isRevoked('t', 's');
    expect(f.asked()).toBe(1);
    await stop();
    expect(cache.listening).toBe(false);
    await cache.isRevoked('t', 's');
    expect(f.asked()).toBe(2);
    // A database that cannot listen: nothing to stop, every call asks.
    const stopNothing = await createCachedRevocations(f.source, { ttlSeconds: 900 }).listen({
      listen: async () => undefined,
    });
    await stopNothing();
  });
});

describe('announcing ended sessions', () => {
  it('ends sessions in one statement only, the one that announces them', () => {
    const src = new URL('../../', import.meta.url).pathname;
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter(
      (f) => f.endsWith('.ts') && !f.endsWith('.test.ts'),
    );
    const ending = files.flatMap((f) =>
      [
        ...readFileSync(join(src, f), 'utf8').matchAll(/refresh_tokens\s+SET\s+revoked_at\s*=/g),
      ].map(() => f),
    );
    expect(ending).toEqual(['modules/auth/repository.ts']);
    const repository = readFileSync(join(src, 'modules/auth/repository.ts'), 'utf8');
    expect(repository).toMatch(
      /UPDATE refresh_tokens SET revoked_at = now\(\)[^`]*pg_notify\('\$\{revocationChannel\}'/,
    );
  });
});
