/** The business day in Spain: what "today" and "overdue" mean for a customer of a Spanish tenant. */
const businessTimeZone = 'Europe/Madrid';

/**
 * Made once: creating an `Intl.DateTimeFormat` costs about as much as the rest of an `/invoices`
 * request (it was the hottest function of the read path beside a batch, bench/isolation.ts).
 */
const madridDay = new Intl.DateTimeFormat('en-CA', { timeZone: businessTimeZone });
const madridMinute = new Intl.DateTimeFormat('en-CA', {
  timeZone: businessTimeZone,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** The last minute `todayIso` formatted, and its answer. */
let todayCache = { minute: Number.NaN, day: '' };

/**
 * Today in Madrid as `YYYY-MM-DD`. Madrid's day starts on a whole minute of UTC (its offsets are
 * whole hours), so the answer is formatted once per minute asked: formatting took ~2.6 µs, and
 * every read of invoices or payments asks.
 */
export function todayIso(now: Date = new Date()): string {
  const minute = Math.floor(now.getTime() / 60_000);
  if (minute !== todayCache.minute) todayCache = { minute, day: madridDay.format(now) };
  return todayCache.day;
}

/**
 * A moment as the customer reads it, in Madrid: `YYYY-MM-DD` and `HH:MM` (24 h), the shape the
 * notifications carry (spec §3), so every screen shows the same clock whatever the browser's.
 */
export function madridDateTime(at: Date): { date: string; time: string } {
  const parts = madridMinute.formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((p) => p.type === type)?.value ?? '';
  return {
    date: `${part('year')}-${part('month')}-${part('day')}`,
    time: `${part('hour')}:${part('minute')}`,
  };
}

/** `yyyymmdd` (API) to `YYYY-MM-DD` (SQL date literal). The contract has validated it. */
export const apiToIso = (d: string): string => `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}`;

/** `YYYY-MM-DD` to `yyyymmdd`. */
export const isoToApi = (d: string): string => d.replace(/-/g, '');

/** Integer cents to the API's amount: a number with two decimals. */
export const centsToAmount = (cents: number): number => Math.round(cents) / 100;
