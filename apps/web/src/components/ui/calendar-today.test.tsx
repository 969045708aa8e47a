import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Calendar } from './calendar';
import { DateRangeFields } from './date-range-fields';

/**
 * The date filters' calendar (invoices, payments, documents) marks "today" and opens on it when the
 * field is empty. Today is a calendar day of the customer (lib/dates.ts: the browser's local day;
 * the business's day is Madrid's): never the UTC day, which in Spain is still "yesterday" for the
 * first hour (two in summer) after midnight.
 */
describe('calendar today, just after midnight in Madrid', () => {
  const savedTz = process.env.TZ;

  afterEach(() => {
    vi.useRealTimers();
    if (savedTz === undefined) delete process.env.TZ;
    else process.env.TZ = savedTz;
  });

  const atMadridHalfPastMidnight = () => {
    // 2 December 2026, 00:30 in Madrid (CET) = 1 December, 23:30 UTC.
    process.env.TZ = 'Europe/Madrid';
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-01T23:30:00Z'));
  };

  it("marks the customer's day as today, not the UTC one", () => {
    atMadridHalfPastMidnight();
    const { container } = render(<Calendar value="" onSelect={() => {}} />);
    const today = container.querySelector('[aria-current="date"]');
    expect(today?.getAttribute('data-date')).toBe('2026-12-02');
  });

  it('opens an empty "Desde" field on today', async () => {
    atMadridHalfPastMidnight();
    render(
      <DateRangeFields
        value={{ from: '', to: '' }}
        onChange={() => {}}
        labels={{ legend: 'Fechas', from: 'Desde', to: 'Hasta' }}
      />,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Desde/ }));
    await waitFor(() => expect(document.activeElement?.getAttribute('data-date')).toBeTruthy());
    expect(document.activeElement?.getAttribute('data-date')).toBe('2026-12-02');
  });
});
