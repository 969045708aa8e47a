import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAuth } from '@/lib/auth-store';
import { changeLanguage } from '@/lib/i18n';
import { mockApi, renderWithQuery } from '@/testing/mock-api';
import { ThreadScreen } from './thread-screen';

/**
 * Spec §9: dates are day/month/year ("dd/mm/yyyy") and times 24 h in every language; the rest of
 * the portal (lib/dates.ts, the checkout, the devices list) writes them so in English and Basque
 * too. A conversation's messages must not read "12/1/26, 11:30 PM" (12 January to anyone in
 * Spain) for a message of 1 December at 23:30, nor "26/12/1" (26 December 2001?) in Basque.
 */
beforeEach(() => {
  setAuth({ accessToken: 't', user: { id: 'u1', code: 'C', name: 'Ana', email: 'a@x.test' } });
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await act(() => changeLanguage('es'));
});

describe('a conversation about an invoice, dates of its messages', () => {
  it.each(['en', 'eu'] as const)(
    'in %s, writes 1 December 2026, 23:30 Madrid as day, month, year and a 24 h time',
    async (language) => {
      mockApi({
        '/invoice-threads/th1': () => ({
          json: {
            thread: {
              id: 'th1',
              invoice_id: 'FV-1',
              status: 'closed',
              created_at: '2026-12-01T22:30:00.000Z',
              organisation_read_at: null,
            },
            messages: [
              {
                id: 'm1',
                author: 'customer',
                author_name: '',
                body: 'Why is it higher?',
                // 23:30 in Madrid on 1 December 2026.
                created_at: '2026-12-01T22:30:00.000Z',
              },
            ],
          },
        }),
        '/invoice-threads/list': () => ({ json: { threads: [], has_more: false, unread: 0 } }),
        '/invoice-threads/unread-count': () => ({ json: { unread: 0 } }),
      });
      await renderWithQuery(<ThreadScreen threadId="th1" />, { language });
      await screen.findByText('Why is it higher?');
      const when = document.querySelector('time')?.textContent ?? '';
      // Day before month (1/12, 01.12, 01-12…) with the year after them, and the 24-hour clock.
      expect(when).toMatch(/\b0?1[/.-]12[/.-](?:20)?26\b/);
      expect(when).toContain('23:30');
    },
  );
});
