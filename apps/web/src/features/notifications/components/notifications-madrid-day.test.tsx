import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAuth } from '@/lib/auth-store';
import { mockApi, renderWithQuery } from '@/testing/mock-api';
import type { NotificationItem } from '../api/get-notifications';
import { NotificationsScreen } from './notifications-screen';

/**
 * The server dates a notification on the Madrid clock (`date` and `time`, apps/api notifications
 * repository: `created_at AT TIME ZONE 'Europe/Madrid'`). "Hoy" and "Ayer" must be decided on that
 * same clock: a customer in the Canary Islands (one hour behind Madrid), or one travelling, must not
 * see tonight's notification under tomorrow's date and yesterday's under "Hoy".
 */
const note = (id: string, date: string, time: string): NotificationItem => ({
  id,
  source: 'organisation',
  title: `Aviso ${id}`,
  message: `Texto del aviso ${id}`,
  date,
  time,
  isRead: false,
  type: 'info',
  link: null,
});

describe('notifications grouped by day, browser outside Madrid', () => {
  const savedTz = process.env.TZ;

  beforeEach(() => {
    setAuth({
      user: { id: 'u1', code: 'C1', name: 'Ana', email: 'ana@example.com' },
      accessToken: 'token',
    });
  });

  afterEach(() => {
    vi.useRealTimers();
    if (savedTz === undefined) delete process.env.TZ;
    else process.env.TZ = savedTz;
  });

  it('labels "Hoy" and "Ayer" on the Madrid day the dates are written in', async () => {
    // 1 December 2026, 23:15 in Las Palmas = 2 December, 00:15 in Madrid.
    process.env.TZ = 'Atlantic/Canary';
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-01T23:15:00Z'));
    mockApi({
      '/notifications': () => ({
        json: {
          notifications: [
            // Ten minutes ago: 00:05 Madrid on the 2nd (23:05 on the 1st in Las Palmas).
            note('N2', '2026-12-02', '00:05'),
            // Two hours and a quarter ago: 22:00 Madrid on the 1st.
            note('N1', '2026-12-01', '22:00'),
          ],
          has_more: false,
          unread: 2,
        },
      }),
      '/notifications/unread-count': () => ({ json: { unread: 2 } }),
    });
    await renderWithQuery(<NotificationsScreen />, { path: '/my-notifications' });

    await screen.findByText('Aviso N2');
    // The day groups: each a section named by its heading (Hoy, Ayer or the long date).
    const days = [...document.querySelectorAll<HTMLElement>('section[aria-labelledby]')];
    const groups = days.map((section) => [
      within(section).getByRole('heading', { level: 2 }).textContent,
      within(section)
        .getAllByRole('article')
        .map((card) => /Aviso (N\d)/.exec(card.textContent ?? '')?.[1]),
    ]);
    expect(groups).toEqual([
      ['Hoy', ['N2']],
      ['Ayer', ['N1']],
    ]);
  });
});
