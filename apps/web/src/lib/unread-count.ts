import { useEffect, useSyncExternalStore } from 'react';
import { getAuth, subscribeAuth } from './auth-store';

// A served unread count of the signed-in customer, in a tiny store outside React, not react-query:
// the shell (header, side menu) is on every screen, /login included, where there is neither a
// query client nor a session (and the login bundle stays small). The header's bell and the menu's
// "Mis consultas" badge are two of these.

export type UnreadCount = {
  /** Gives the count a screen just got from the server (its list carries it too). */
  set: (count: number) => void;
  /** Asks the server again: after something was read or deleted. Nothing when signed out. */
  refresh: (signal?: AbortSignal) => Promise<void>;
  /**
   * The count (0 until known), asked on mounting, on coming back to the window, every `pollMs`
   * when given, and when `askAgain` turns truthy (the menu opening); only while `active`.
   */
  useCount: (options: { active: boolean; pollMs?: number; askAgain?: unknown }) => number;
};

const ownerOf = (): string => getAuth().user?.id ?? '';

export function createUnreadCount(ask: (signal?: AbortSignal) => Promise<number>): UnreadCount {
  /** Whose count it is: a count is never shown to the next customer signing in on this browser. */
  let unread: { owner: string; count: number } | null = null;
  /** Ticket of the latest change: an answer that arrives after a newer one is dropped. */
  let latestChange = 0;
  let lastAskedAt = 0;
  const listeners = new Set<() => void>();

  function store(count: number): void {
    unread = { owner: ownerOf(), count };
    for (const listener of listeners) listener();
  }

  function set(count: number): void {
    latestChange += 1;
    store(count);
  }

  async function refresh(signal?: AbortSignal): Promise<void> {
    if (!getAuth().accessToken) return;
    const ticket = ++latestChange;
    lastAskedAt = Date.now();
    try {
      const count = await ask(signal);
      if (ticket === latestChange) store(count);
    } catch {
      // The last count stays; the next focus or interval asks again.
    }
  }

  function askIfOlder(minAgeMs: number, signal?: AbortSignal): void {
    const age = Date.now() - lastAskedAt;
    if (document.visibilityState === 'hidden' || (age >= 0 && age < minAgeMs)) return;
    void refresh(signal);
  }

  function subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  function useCount({
    active,
    pollMs,
    askAgain,
  }: {
    active: boolean;
    pollMs?: number;
    askAgain?: unknown;
  }): number {
    const state = useSyncExternalStore(
      subscribe,
      () => unread,
      () => null,
    );
    const owner = useSyncExternalStore(subscribeAuth, ownerOf, () => '');

    useEffect(() => {
      if (!active) return;
      const controller = new AbortController();
      // Focus and visibility often change together on coming back: one request for both.
      const onReturn = () => askIfOlder(2_000, controller.signal);
      // Two places showing the same count, mounted together, ask once.
      askIfOlder(pollMs === undefined ? 2_000 : 0, controller.signal);
      const timer =
        pollMs === undefined
          ? 0
          : window.setInterval(() => askIfOlder(pollMs / 2, controller.signal), pollMs);
      window.addEventListener('focus', onReturn);
      document.addEventListener('visibilitychange', onReturn);
      return () => {
        controller.abort();
        window.clearInterval(timer);
        window.removeEventListener('focus', onReturn);
        document.removeEventListener('visibilitychange', onReturn);
      };
    }, [owner, active, pollMs]);

    // Not aborted when it changes again: an answer on its way is still the latest count.
    useEffect(() => {
      if (active && askAgain) askIfOlder(2_000);
    }, [active, askAgain]);

    return state && state.owner === owner ? state.count : 0;
  }

  return { set, refresh, useCount };
}
