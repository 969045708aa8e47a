/** The business day in Spain: what "today" and "overdue" mean for a customer of a Spanish tenant. */
export const businessTimeZone = 'Europe/Madrid';

/** Today in Madrid as `YYYY-MM-DD`. */
export function todayIso(now: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: businessTimeZone }).format(now);
}

/** `yyyymmdd` (API) to `YYYY-MM-DD` (SQL date literal). The contract has validated it. */
export const apiToIso = (d: string): string => `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}`;

/** `YYYY-MM-DD` to `yyyymmdd`. */
export const isoToApi = (d: string): string => d.replace(/-/g, '');

/** Integer cents to the API's amount: a number with two decimals. */
export const centsToAmount = (cents: number): number => Math.round(cents) / 100;
