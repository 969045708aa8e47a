import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '@/lib/i18n';
import { addMonths, Calendar, monthGrid } from './calendar';
import { DateRangeFields, displayDate, parseTypedDate } from './date-range-fields';

afterEach(async () => {
  await act(() => changeLanguage('es'));
});

describe('calendar arithmetic', () => {
  it('lays a month out from Monday, padding the days of other months', () => {
    // 1 November 2026 is a Sunday.
    const weeks = monthGrid('2026-11-21');
    expect(weeks[0]).toEqual([null, null, null, null, null, null, '2026-11-01']);
    expect(weeks.at(-1)).toEqual(['2026-11-30', null, null, null, null, null, null]);
    expect(weeks.flat().filter(Boolean)).toHaveLength(30);
  });

  it("moves by months to the same day, or the month's last", () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2024-03-31', -1)).toBe('2024-02-29');
    expect(addMonths('2026-12-15', 1)).toBe('2027-01-15');
  });
});

describe('Calendar (spec §2: month and weekday names in the chosen language)', () => {
  it('names the month and the weekdays in Spanish, then in English and Basque', async () => {
    render(<Calendar value="2026-11-21" onSelect={() => {}} today="2026-11-21" />);
    const grid = screen.getByRole('grid', { name: 'noviembre 2026' });
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['lu', 'ma', 'mi', 'ju', 'vi', 'sá', 'do']);
    expect(
      screen
        .getByRole('button', { name: 'sábado, 21 de noviembre de 2026' })
        .getAttribute('aria-pressed'),
    ).toBe('true');
    await act(() => changeLanguage('en'));
    expect(screen.getByRole('grid', { name: 'November 2026' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Saturday, 21 November 2026' })).toBeTruthy();
    await act(() => changeLanguage('eu'));
    expect(screen.getByRole('grid', { name: 'azaroa 2026' })).toBeTruthy();
    // Screen readers announce the full name of a column through its `abbr`.
    expect(screen.getByRole('columnheader', { name: 'al' }).getAttribute('abbr')).toBe(
      'astelehena',
    );
  });

  it('moves with the keyboard by day, week and month, and picks with Enter', async () => {
    const onSelect = vi.fn();
    render(<Calendar value="2026-11-21" onSelect={onSelect} today="2026-11-21" />);
    screen.getByRole('button', { name: /, 21 de noviembre/ }).focus();
    await userEvent.keyboard('{ArrowRight}');
    expect(document.activeElement?.getAttribute('data-date')).toBe('2026-11-22');
    await userEvent.keyboard('{ArrowDown}{PageDown}');
    expect(document.activeElement?.getAttribute('data-date')).toBe('2026-12-29');
    expect(screen.getByRole('grid', { name: 'diciembre 2026' })).toBeTruthy();
    await userEvent.keyboard('{Home}');
    expect(document.activeElement?.getAttribute('data-date')).toBe('2026-12-28');
    await userEvent.keyboard('{Enter}');
    expect(onSelect).toHaveBeenCalledWith('2026-12-28');
  });

  it("has the new month's day focused before the next frame: a key pressed at once reaches it", async () => {
    const onSelect = vi.fn();
    render(<Calendar value="2026-03-16" onSelect={onSelect} today="2026-11-21" />);
    screen.getByRole('button', { name: /, 16 de marzo/ }).focus();
    // A month change removes the focused day's button. The next key must not find the focus on
    // the page: only the microtasks that follow the keydown run here, no frame and no timer.
    // (The native event: the library's fireEvent runs the effects itself, as a frame would.)
    document.activeElement?.dispatchEvent(
      new KeyboardEvent('keydown', { key: 'PageDown', bubbles: true, cancelable: true }),
    );
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(document.activeElement?.getAttribute('data-date')).toBe('2026-04-16');
  });

  it('does not offer days outside the allowed range', async () => {
    render(
      <Calendar
        value=""
        min="2026-11-10"
        max="2026-11-20"
        onSelect={() => {}}
        today="2026-11-25"
      />,
    );
    // Today is past the range: the calendar starts on its last day.
    expect(screen.getByRole('button', { name: /, 20 de noviembre/ }).tabIndex).toBe(0);
    expect(
      (screen.getByRole('button', { name: /, 9 de noviembre/ }) as HTMLButtonElement).disabled,
    ).toBe(true);
    expect(
      (screen.getByRole('button', { name: 'Mes siguiente' }) as HTMLButtonElement).disabled,
    ).toBe(true);
  });
});

describe('DateRangeFields with the calendar', () => {
  it('opens the calendar from its button, sets the date, and gives the focus back', async () => {
    const onChange = vi.fn();
    render(
      <DateRangeFields
        value={{ from: '2026-11-02', to: '2026-11-21' }}
        onChange={onChange}
        labels={{ legend: 'Fechas', from: 'Desde', to: 'Hasta' }}
      />,
    );
    const open = screen.getByRole('button', { name: 'Abrir el calendario: Desde' });
    await userEvent.click(open);
    const dialog = await screen.findByRole('dialog', { name: 'Desde' });
    // The calendar's code comes on first use; then the chosen day has the focus.
    await waitFor(() =>
      expect(document.activeElement?.getAttribute('data-date')).toBe('2026-11-02'),
    );
    await userEvent.click(within(dialog).getByRole('button', { name: /, 5 de noviembre/ }));
    expect(onChange).toHaveBeenCalledWith({ from: '2026-11-05', to: '2026-11-21' });
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(open));

    await userEvent.click(open);
    await waitFor(() =>
      expect(document.activeElement?.getAttribute('data-date')).toBe('2026-11-02'),
    );
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(open));
  });
});

describe('month and year jump, and dates typed in the app format (review #6)', () => {
  it('jumps to another month and year from the lists', async () => {
    const onSelect = vi.fn();
    render(<Calendar value="2026-11-21" onSelect={onSelect} today="2026-11-21" />);
    const user = userEvent.setup();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Año' }), '2021');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Mes' }), 'marzo');
    expect(screen.getByRole('grid', { name: 'marzo 2021' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'lunes, 15 de marzo de 2021' }));
    expect(onSelect).toHaveBeenCalledWith('2021-03-15');
  });

  it('shows dd/mm/yyyy whatever the browser, and reads a date typed that way', async () => {
    const onChange = vi.fn();
    render(
      <DateRangeFields
        value={{ from: '2021-11-24', to: '2026-11-24' }}
        onChange={onChange}
        labels={{ legend: 'Fechas', from: 'Desde', to: 'Hasta' }}
      />,
    );
    const from = screen.getByRole('textbox', { name: 'Desde' }) as HTMLInputElement;
    expect(from.value).toBe('24/11/2021');
    expect(from.getAttribute('type')).not.toBe('date');
    expect(parseTypedDate('5/3/2024')).toBe('2024-03-05');
    expect(parseTypedDate('05-03-2024')).toBe('2024-03-05');
    expect(parseTypedDate('5/3/202')).toBe('5/3/202');
    expect(displayDate('2024-03-05')).toBe('05/03/2024');
    expect(displayDate('5/3/20')).toBe('5/3/20');
  });
});
