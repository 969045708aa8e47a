import { todayIso } from '../../lib/dates.ts';

/**
 * The day a payment is dated by: the day the gateway says it charged (`Ds_Date`, Madrid's day:
 * `dd/mm/yyyy` in a notification, `yyyy-mm-dd` in the query service's answer) when it is a real
 * day between the attempt's own and today; otherwise today. A charge the reconciliation found
 * days later (a lost notification, a released payment re-checked) was dated the day it was
 * found, and statements put a payment of the 31st in the next month (session 39).
 */
export function chargedOn(dsDate: string | undefined, startedAt: Date, now: Date): string {
  const today = todayIso(now);
  const [, day, month, year] = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(dsDate ?? '') ?? [];
  const iso = day ? `${year}-${month}-${day}` : (dsDate ?? '');
  if (!/^\d{4}-\d{2}-\d{2}$/.test(iso)) return today;
  const parsed = new Date(`${iso}T12:00:00Z`);
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== iso) return today;
  return iso >= todayIso(startedAt) && iso <= today ? iso : today;
}
