import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setAuth } from '@/lib/auth-store';
import { changeLanguage } from '@/lib/i18n';
import { mockApi, renderWithQuery } from '@/testing/mock-api';
import { DevicesScreen } from './devices-screen';

/**
 * Spec §9: dates dd/mm/yyyy, times 24 h, in every language (the app's lib/dates.ts writes them
 * so). "Your devices" words them with Intl's `dateStyle: 'medium'` instead: "1 dic 2026, 23:30",
 * and in Basque "2026(e)ko abe. 1(a) (23:30)", year first.
 */
afterEach(async () => {
  vi.unstubAllGlobals();
  await act(() => changeLanguage('es'));
});

describe('"Your devices", when a session was last used', () => {
  it.each(['es', 'eu'] as const)('in %s, is 01/12/2026 at 23:30 Madrid time', async (language) => {
    setAuth({ accessToken: 't', user: { id: 'u1', code: 'C', name: 'Ana', email: 'a@x.test' } });
    mockApi({
      '/sessions': () => ({
        json: {
          sessions: [
            {
              id: '00000000-0000-4000-8000-00000000000a',
              current: true,
              method: 'password',
              browser: 'Chrome 131',
              os: 'Windows 10',
              device_type: 'desktop',
              network: '83.45.120.*',
              // 23:30 in Madrid on 1 December 2026.
              created_at: '2026-12-01T22:30:00.000Z',
              last_used_at: '2026-12-01T22:30:00.000Z',
            },
          ],
        },
      }),
    });
    await renderWithQuery(<DevicesScreen />, { language });
    const row = await screen.findByRole('listitem');
    expect(row.textContent).toContain('01/12/2026');
    expect(row.textContent).toContain('23:30');
  });
});
