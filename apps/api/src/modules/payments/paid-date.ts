import { todayIso } from '../../lib/dates.ts';

/**
 * The day a payment is dated by: the day the gateway says it charged (`Ds_Date`, Madrid's day:
 * `dd/mm/yyyy` in a notification, `yyyy-mm-dd` in the query service's answer) when it is a real
 * day between the attempt's own and today; otherwise today. A charge the reconciliation found
 * days later (a lost notification, a released payment re-checked) was dated the day it was
 * found, and statements put a payment of the 31st in the next month (session 39).
 */
export function chargedOn(dsDate: string | undefined, startedAt: Date, now: Date): string {
  return gatewayDay(dsDate, startedAt, now) ?? todayIso(now);
}

/**
 * The moment the gateway charged, `YYYY-MM-DD HH:MM` on Madrid's clock, when its day is the one
 * `chargedOn` takes and `Ds_Hour` (`HH:MM`, or `HH:MM:SS` in the query service's answer) is a
 * time; otherwise null (the payment is dated when it was settled). Receipts and the payment's
 * status page date the payment by it.
 */
export function chargedMoment(
  dsDate: string | undefined,
  dsHour: string | undefined,
  startedAt: Date,
  now: Date,
): string | null {
  const day = gatewayDay(dsDate, startedAt, now);
  const time = /^([01]\d|2[0-3]):([0-5]\d)(?::[0-5]\d)?$/.exec(dsHour ?? '');
  return day && time ? `${day} ${time[1]}:${time[2]}` : null;
}

/** `Ds_Date` as `YYYY-MM-DD` when it is a real day from the attempt's to today; else null. */
function gatewayDay(dsDate: string | undefined, startedAt: Date, now: Date): string | null {
  const [, day, month, year] = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(dsDate ?? '') ?? [];
  const iso = day ? `${year}-${month}-${day}` : (dsDate ?? '');
  if (!/^\d{4}-\d{2}-\d{2}$/.test(iso)) return null;
  const parsed = new Date(`${iso}T12:00:00Z`);
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== iso) return null;
  return iso >= todayIso(startedAt) && iso <= todayIso(now) ? iso : null;
}
