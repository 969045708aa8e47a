import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAuth } from '@/lib/auth-store';
import { mockApi } from '@/testing/mock-api';
import { renderWithRouter } from '@/testing/render-app';
import {
  Header,
  refreshUnreadNotifications,
  setUnreadNotifications,
  unreadRefreshMs,
} from './header';

const signIn = (id = 'u1') =>
  setAuth({ accessToken: 't', user: { id, code: 'C', name: 'Ana', email: 'a@x.test' } });

function renderHeader(isSignedIn = true) {
  return renderWithRouter(
    <Header
      isSignedIn={isSignedIn}
      backTo={undefined}
      isMenuOpen={false}
      menuId="menu"
      menuButtonRef={{ current: null }}
      onOpenMenu={() => {}}
    />,
  );
}

/** The count the fake server answers; every call is recorded. */
let unread = 0;
let calls: ReturnType<typeof mockApi>;
const countCalls = () => calls.filter((c) => c.path === '/notifications/unread-count').length;
const bell = () =>
  within(screen.getByRole('banner')).getByRole('link', { name: /^Notificaciones/ });

beforeEach(() => {
  unread = 3;
  calls = mockApi({ '/notifications/unread-count': () => ({ json: { unread } }) });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the header bell (unread notifications)', () => {
  it('is not there, and asks nothing, for a visitor', async () => {
    await renderHeader(false);
    expect(screen.queryByRole('link', { name: /Notificaciones/ })).toBeNull();
    expect(calls).toHaveLength(0);
  });

  it('says how many are unread, in its name and a badge', async () => {
    signIn();
    await renderHeader();
    await waitFor(() =>
      expect(bell().getAttribute('aria-label')).toBe('Notificaciones, 3 sin leer'),
    );
    expect(bell().getAttribute('href')).toBe('/my-notifications');
    expect(bell().textContent).toBe('3');
  });

  it('has no badge when nothing is unread, and caps a long count', async () => {
    signIn();
    unread = 0;
    await renderHeader();
    await waitFor(() => expect(countCalls()).toBe(1));
    expect(bell().getAttribute('aria-label')).toBe('Notificaciones');
    expect(bell().textContent).toBe('');

    act(() => setUnreadNotifications(120));
    expect(bell().getAttribute('aria-label')).toBe('Notificaciones, 120 sin leer');
    expect(bell().textContent).toBe('99+');
  });

  it('asks again on window focus and at an interval, not when focus comes twice at once', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    signIn();
    await renderHeader();
    await waitFor(() =>
      expect(bell().getAttribute('aria-label')).toBe('Notificaciones, 3 sin leer'),
    );
    expect(countCalls()).toBe(1);

    unread = 5;
    vi.advanceTimersByTime(5_000);
    act(() => window.dispatchEvent(new Event('focus')));
    act(() => window.dispatchEvent(new Event('focus')));
    await waitFor(() =>
      expect(bell().getAttribute('aria-label')).toBe('Notificaciones, 5 sin leer'),
    );
    expect(countCalls()).toBe(2);

    unread = 1;
    act(() => vi.advanceTimersByTime(unreadRefreshMs));
    await waitFor(() =>
      expect(bell().getAttribute('aria-label')).toBe('Notificaciones, 1 sin leer'),
    );
    expect(countCalls()).toBe(3);
  });

  it('keeps a newer count over an older answer that arrives late', async () => {
    signIn();
    let answer: (value: { json: { unread: number } }) => void = () => {};
    calls = mockApi({
      '/notifications/unread-count': () => new Promise((resolve) => (answer = resolve)),
    });
    await renderHeader();
    await waitFor(() => expect(countCalls()).toBe(1));
    act(() => setUnreadNotifications(2));
    await act(async () => answer({ json: { unread: 7 } }));
    expect(bell().getAttribute('aria-label')).toBe('Notificaciones, 2 sin leer');
  });

  it("never shows one customer's count to the next", async () => {
    signIn('u1');
    await renderHeader();
    await waitFor(() =>
      expect(bell().getAttribute('aria-label')).toBe('Notificaciones, 3 sin leer'),
    );
    unread = 0;
    let release: () => void = () => {};
    calls = mockApi({
      '/notifications/unread-count': () =>
        new Promise((resolve) => (release = () => resolve({ json: { unread } }))),
    });
    act(() => signIn('u2'));
    // Until the server answers for the new customer, no count at all.
    expect(bell().getAttribute('aria-label')).toBe('Notificaciones');
    await waitFor(() => expect(countCalls()).toBe(1));
    await act(async () => release());
    expect(bell().getAttribute('aria-label')).toBe('Notificaciones');
  });

  it('asks nothing when signed out', async () => {
    await refreshUnreadNotifications();
    expect(calls).toHaveLength(0);
  });
});
