/**
 * Calendar days as the API and the screens use them (spec §3, §9): the API speaks `yyyymmdd`, the
 * screens show `dd/mm/yyyy` (`dd-mm-yyyy` on the invoice detail) in every language, and date inputs
 * speak `yyyy-mm-dd`. A day has no time zone: "today" is the browser's local calendar day.
 */

export type CalendarDay = { year: number; month: number; day: number };

/** An API date range (both ends included). */
export type ApiDateRange = { datefrom: string; dateto: string };

const pad = (value: number, length = 2): string => String(value).padStart(length, '0');

const daysInMonth = (year: number, month: number): number =>
  new Date(Date.UTC(year, month, 0)).getUTCDate();

function toDay(year: number, month: number, day: number): CalendarDay | null {
  if (year < 1900 || year > 9999 || month < 1 || month > 12 || day < 1) return null;
  if (day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

/** `yyyymmdd` (spec §3) as a calendar day; `null` when it is not a real day (20250230) or not text. */
export function parseApiDate(value: unknown): CalendarDay | null {
  if (typeof value !== 'string' || !/^\d{8}$/.test(value)) return null;
  return toDay(Number(value.slice(0, 4)), Number(value.slice(4, 6)), Number(value.slice(6, 8)));
}

/** A calendar day as `yyyymmdd`. */
export function formatApiDate({ year, month, day }: CalendarDay): string {
  return `${pad(year, 4)}${pad(month)}${pad(day)}`;
}

/** The browser's local calendar day of a moment. */
export function dayOf(date: Date): CalendarDay {
  return { year: date.getFullYear(), month: date.getMonth() + 1, day: date.getDate() };
}

const madridClock = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Madrid',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/**
 * A moment on the organisation's clock (Europe/Madrid, PRODUCT.md): the calendar day the server
 * dates things with (a notification's `date`, a message's day) and the time, `HH:MM` on 24 hours.
 */
export function madridMomentOf(date: Date): CalendarDay & { time: string } {
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    madridClock.formatToParts(date).find((p) => p.type === type)?.value ?? '';
  return {
    year: Number(part('year')),
    month: Number(part('month')),
    day: Number(part('day')),
    time: `${part('hour')}:${part('minute')}`,
  };
}

/**
 * A moment (an ISO instant) as spec §9 writes it in every language, on Madrid's clock:
 * `dd/mm/yyyy HH:MM h`, 24 hours; empty for what is not a moment. Intl's own styles wrote
 * "12/1/26, 11:30 PM" in English (12 January, read in Spain) and put the year first in Basque.
 */
export function formatMoment(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const { year, month, day, time } = madridMomentOf(date);
  return `${pad(day)}/${pad(month)}/${pad(year, 4)} ${time} h`;
}

/**
 * The calendar day of a moment (an ISO instant) on Madrid's clock, `dd/mm/yyyy` (spec §9): the
 * day the server dates things with (a mandate's reference and PDF), whatever the browser's zone;
 * `null` for what is not a moment.
 */
export function formatMomentDay(iso: string | null | undefined): string | null {
  const date = iso ? new Date(iso) : null;
  if (!date || Number.isNaN(date.getTime())) return null;
  const { year, month, day } = madridMomentOf(date);
  return `${pad(day)}/${pad(month)}/${pad(year, 4)}`;
}

/** The calendar day before `day`. */
export function dayBefore({ year, month, day }: CalendarDay): CalendarDay {
  const date = new Date(Date.UTC(year, month - 1, day - 1));
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** Today as `yyyymmdd`, the form status rules compare due dates with. */
export function todayApiDate(now: Date = new Date()): string {
  return formatApiDate(dayOf(now));
}

function formatWith(value: unknown, separator: string): string | null {
  const day = parseApiDate(value);
  return day ? [pad(day.day), pad(day.month), pad(day.year, 4)].join(separator) : null;
}

/** Spec §9: `dd/mm/yyyy` (lists, home); `null` for an invalid date. */
export function formatDate(value: unknown): string | null {
  return formatWith(value, '/');
}

/** Spec §9: `dd-mm-yyyy` on the invoice detail; `null` for an invalid date. */
export function formatDetailDate(value: unknown): string | null {
  return formatWith(value, '-');
}

/** `yyyymmdd` -> the `yyyy-mm-dd` of `<input type="date">`; empty for an invalid date. */
export function apiDateToInput(value: string): string {
  const day = parseApiDate(value);
  return day ? `${pad(day.year, 4)}-${pad(day.month)}-${pad(day.day)}` : '';
}

/** The `yyyy-mm-dd` of a date input -> `yyyymmdd`; `null` when empty or not a real day. */
export function inputToApiDate(value: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return null;
  const day = toDay(Number(match[1]), Number(match[2]), Number(match[3]));
  return day ? formatApiDate(day) : null;
}

/** The same day `years` later (earlier when negative); 29 February falls back to the 28th. */
export function addYears({ year, month, day }: CalendarDay, years: number): CalendarDay {
  const target = year + years;
  return { year: target, month, day: Math.min(day, daysInMonth(target, month)) };
}

/** Spec §9 "Date range default: 5 years ago to today" (invoice list). */
export function defaultInvoiceRange(now: Date = new Date()): ApiDateRange {
  const today = dayOf(now);
  return { datefrom: formatApiDate(addYears(today, -5)), dateto: formatApiDate(today) };
}

/**
 * Payments list: from five years ago like the invoices (spec §9), but up to a year ahead, because
 * instalments fall due after their invoice and a list ending today would hide what is owed next.
 */
export function defaultPaymentsRange(now: Date = new Date()): ApiDateRange {
  const today = dayOf(now);
  return {
    datefrom: formatApiDate(addYears(today, -5)),
    dateto: formatApiDate(addYears(today, 1)),
  };
}

/** Spec §7 "/invoices/summary": the first and last day of the previous calendar month. */
export function previousMonthRange(now: Date = new Date()): ApiDateRange {
  const { year, month } = dayOf(now);
  const prevYear = month === 1 ? year - 1 : year;
  const prevMonth = month === 1 ? 12 : month - 1;
  return {
    datefrom: formatApiDate({ year: prevYear, month: prevMonth, day: 1 }),
    dateto: formatApiDate({
      year: prevYear,
      month: prevMonth,
      day: daysInMonth(prevYear, prevMonth),
    }),
  };
}

/**
 * Spec §7 and §9 "Last-item search: two calendar years": home looks for the last invoice and the
 * last payment from 1 January of the previous year to 31 December of the current year.
 */
export function lastItemsRange(now: Date = new Date()): ApiDateRange {
  const { year } = dayOf(now);
  return {
    datefrom: formatApiDate({ year: year - 1, month: 1, day: 1 }),
    dateto: formatApiDate({ year, month: 12, day: 31 }),
  };
}

/** The latest of some items by a `yyyymmdd` field; items with an invalid date never win. */
export function latestBy<T>(items: readonly T[], dateOf: (item: T) => unknown): T | undefined {
  let latest: T | undefined;
  let latestDate = '';
  for (const item of items) {
    const date = dateOf(item);
    if (!parseApiDate(date)) continue;
    if ((date as string) > latestDate) {
      latest = item;
      latestDate = date as string;
    }
  }
  return latest;
}

/** Why a date range typed in two date inputs cannot be searched. */
export type DateRangeError = 'invalidDate' | 'invalidRange';

export type DateRangeCheck =
  | { ok: true; range: ApiDateRange }
  | { ok: false; errors: { from?: DateRangeError; to?: DateRangeError } };

/**
 * Two date inputs (`yyyy-mm-dd`) as an API range: both must be real days and the start must not be
 * after the end (the server answers 422 `invalid_range` otherwise).
 */
export function checkInputRange(from: string, to: string): DateRangeCheck {
  const datefrom = inputToApiDate(from);
  const dateto = inputToApiDate(to);
  if (!datefrom || !dateto) {
    return {
      ok: false,
      errors: {
        ...(datefrom ? {} : { from: 'invalidDate' as const }),
        ...(dateto ? {} : { to: 'invalidDate' as const }),
      },
    };
  }
  if (datefrom > dateto) return { ok: false, errors: { to: 'invalidRange' } };
  return { ok: true, range: { datefrom, dateto } };
}
