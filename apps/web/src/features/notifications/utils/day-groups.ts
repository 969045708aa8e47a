import {
  type CalendarDay,
  dayBefore,
  formatApiDate,
  inputToApiDate,
  madridMomentOf,
  parseApiDate,
} from '@/lib/dates';

/** Spec §2 "Notifications": grouped by Today, Yesterday, otherwise the long date. */
export type DayGroup<T> = {
  /** The notifications' `YYYY-MM-DD` (spec §3). */
  key: string;
  when: 'today' | 'yesterday' | 'earlier' | 'unknown';
  day: CalendarDay | null;
  items: T[];
};

/** `YYYY-MM-DD` (spec §3, a notification's date) as a calendar day; `null` when not a real day. */
export function parseNotificationDay(value: string): CalendarDay | null {
  const apiDate = inputToApiDate(value);
  return apiDate ? parseApiDate(apiDate) : null;
}

/**
 * The notifications by day, in the order they come (newest first). "Today" is Madrid's calendar
 * day, the clock the server dates notifications with (spec §3): the browser's, elsewhere than
 * Madrid (the Canaries an hour behind), put last night's under "Hoy" and this morning's under a
 * date still to come (session 39).
 */
export function groupByDay<T extends { date: string }>(
  items: readonly T[],
  now: Date = new Date(),
): DayGroup<T>[] {
  const madridToday = madridMomentOf(now);
  const today = formatApiDate(madridToday);
  const yesterday = formatApiDate(dayBefore(madridToday));
  const groups = new Map<string, DayGroup<T>>();
  for (const item of items) {
    let group = groups.get(item.date);
    if (!group) {
      const day = parseNotificationDay(item.date);
      const apiDate = day ? formatApiDate(day) : null;
      group = {
        key: item.date,
        when: !apiDate
          ? 'unknown'
          : apiDate === today
            ? 'today'
            : apiDate === yesterday
              ? 'yesterday'
              : 'earlier',
        day,
        items: [],
      };
      groups.set(item.date, group);
    }
    group.items.push(item);
  }
  return [...groups.values()];
}

export type LongDateParts = Record<'weekday' | 'day' | 'month' | 'year', string>;

/**
 * The words of a long date in one language, from its translation file (not `Intl`: browsers
 * without Basque data would write Basque dates in another language).
 */
export type LongDateWords = {
  /** Twelve names, January first, comma-separated. */
  months: string;
  /** Seven names, Sunday first, comma-separated. */
  weekdays: string;
  /** Puts the parts in the language's order (its `longDate` text). */
  format: (parts: LongDateParts) => string;
};

/** A day written out ("Lunes, 3 de noviembre de 2025"), as a heading: capitalised. */
export function formatLongDate({ year, month, day }: CalendarDay, words: LongDateWords): string {
  const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  const text = words.format({
    weekday: words.weekdays.split(',')[weekday] ?? '',
    day: String(day),
    month: words.months.split(',')[month - 1] ?? '',
    year: String(year),
  });
  return text.charAt(0).toUpperCase() + text.slice(1);
}
