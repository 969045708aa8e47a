import { type KeyboardEvent, useId, useLayoutEffect, useRef, useState } from 'react';
import { apiDateToInput, todayApiDate } from '@/lib/dates';
import { useTranslation } from '@/lib/use-translation';
import { cn } from '@/utils/cn';
import { ChevronLeftIcon, ChevronRightIcon } from './icons';

/** `yyyy-mm-dd` of a UTC date. */
const isoOf = (date: Date): string => date.toISOString().slice(0, 10);
/** Today as `yyyy-mm-dd`: the customer's calendar day (lib/dates.ts), never the UTC one. */
const localToday = (): string => apiDateToInput(todayApiDate());
const dateOf = (iso: string): Date => new Date(`${iso}T00:00:00Z`);
const isIso = (value: string | undefined): value is string =>
  Boolean(value && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(dateOf(value).getTime()));

export function addDays(iso: string, days: number): string {
  const date = dateOf(iso);
  date.setUTCDate(date.getUTCDate() + days);
  return isoOf(date);
}

/** The same day `months` later, or the month's last day when it has no such day. */
export function addMonths(iso: string, months: number): string {
  const date = dateOf(iso);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, last));
  return isoOf(date);
}

/** Monday 0 … Sunday 6 (the week starts on Monday in the four languages' countries). */
const weekdayOf = (iso: string): number => (dateOf(iso).getUTCDay() + 6) % 7;

/** The weeks of the month of `iso`, Monday first; `null` pads the days of other months. */
export function monthGrid(iso: string): (string | null)[][] {
  const first = `${iso.slice(0, 8)}01`;
  const days = new Date(Date.UTC(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)), 0)).getUTCDate();
  const cells: (string | null)[] = Array.from({ length: weekdayOf(first) }, () => null);
  for (let d = 0; d < days; d++) cells.push(addDays(first, d));
  while (cells.length % 7) cells.push(null);
  return Array.from({ length: cells.length / 7 }, (_, w) => cells.slice(w * 7, w * 7 + 7));
}

/** The years the year list offers: the allowed range, else ten years back to two ahead. */
function yearsAround(current: number, min?: string, max?: string, today?: string): number[] {
  const now = Number((today ?? localToday()).slice(0, 4));
  const first = Math.min(current, isIso(min) ? Number(min.slice(0, 4)) : now - 10);
  const last = Math.max(current, isIso(max) ? Number(max.slice(0, 4)) : now + 2);
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

const clamp = (iso: string, min?: string, max?: string): string =>
  isIso(min) && iso < min ? min : isIso(max) && iso > max ? max : iso;

type CalendarProps = {
  /** `yyyy-mm-dd`, or '' for none. */
  value: string;
  min?: string | undefined;
  max?: string | undefined;
  onSelect: (iso: string) => void;
  /** Today, `yyyy-mm-dd` (tests pin it). */
  today?: string;
  /** Focus the chosen (or today's) day once shown: the calendar opens in a dialog. */
  autoFocus?: boolean;
};

/**
 * A month calendar whose month and weekday names follow the chosen language (spec §2: "a calendar
 * component with month and weekday names"); the names come from the translation files, since the
 * browser may lack a language's date names (Chromium has no Basque ones). A grid of day buttons:
 * arrows move by day and week, Page Up/Down by month, Home/End to the week's ends, Enter picks.
 */
export function Calendar({
  value,
  min,
  max,
  onSelect,
  today = localToday(),
  autoFocus = false,
}: CalendarProps) {
  const { t } = useTranslation();
  const months = t('calendar.months').split(',');
  const monthsOf = t('calendar.monthsOf').split(',');
  const weekdays = t('calendar.weekdays').split(',');
  const weekdaysShort = t('calendar.weekdaysShort').split(',');
  const [focused, setFocused] = useState(() => clamp(isIso(value) ? value : today, min, max));
  const titleId = useId();
  const gridRef = useRef<HTMLTableElement>(null);
  const moved = useRef(autoFocus);

  // A layout effect: it runs in the commit, not after the next frame (Preact's passive effects
  // wait for one). A month's change removes the focused day's button; until the new one takes the
  // focus, a key pressed goes to the page and is lost (CI caught Enter lost after Page Down).
  useLayoutEffect(() => {
    // The focus follows the keyboard's moves; on the first render only when asked to.
    if (!moved.current) return;
    // After the whole commit's layout effects: a dialog around the calendar first notes where the
    // focus was (to give it back on close), then the day takes it.
    queueMicrotask(() => {
      gridRef.current?.querySelector<HTMLButtonElement>(`[data-date="${focused}"]`)?.focus();
    });
  }, [focused]);

  const move = (to: string) => {
    moved.current = true;
    setFocused(clamp(to, min, max));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTableElement>) => {
    const steps: Record<string, () => string> = {
      ArrowLeft: () => addDays(focused, -1),
      ArrowRight: () => addDays(focused, 1),
      ArrowUp: () => addDays(focused, -7),
      ArrowDown: () => addDays(focused, 7),
      PageUp: () => addMonths(focused, -1),
      PageDown: () => addMonths(focused, 1),
      Home: () => addDays(focused, -weekdayOf(focused)),
      End: () => addDays(focused, 6 - weekdayOf(focused)),
    };
    const step = steps[event.key];
    if (!step) return;
    event.preventDefault();
    move(step());
  };

  const year = focused.slice(0, 4);
  const month = Number(focused.slice(5, 7)) - 1;
  const disabled = (iso: string) => (isIso(min) && iso < min) || (isIso(max) && iso > max);
  const firstOfMonth = `${focused.slice(0, 8)}01`;
  const lastOfMonth = addDays(addMonths(firstOfMonth, 1), -1);
  /** The same day in another month and year (the month's last day when it has no such day). */
  const jump = (toYear: number, toMonth: number) => {
    const months = (toYear - Number(year)) * 12 + (toMonth - month);
    setFocused(clamp(addMonths(focused, months), min, max));
  };
  const selectClasses =
    'min-h-11 rounded-lg border border-gray-300 bg-white px-2 text-sm font-semibold capitalize text-gray-900 focus-visible:outline-2 focus-visible:outline-primary-ink dark:border-gray-600 dark:bg-gray-800 dark:text-gray-100 dark:[color-scheme:dark]';
  const navButton =
    'inline-flex size-11 shrink-0 items-center justify-center rounded-lg text-gray-700 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-primary-ink disabled:opacity-40 dark:text-gray-200 dark:hover:bg-gray-700';

  return (
    <div>
      <div className="mb-2 flex items-center justify-between gap-2">
        <button
          type="button"
          className={navButton}
          aria-label={t('calendar.previousMonth')}
          disabled={isIso(min) && addDays(firstOfMonth, -1) < min}
          onClick={() => move(addMonths(focused, -1))}
        >
          <ChevronLeftIcon className="size-5" />
        </button>
        {/* Month and year jump (review #6: the default "from", five years back, was ~60 clicks). */}
        <div className="flex min-w-0 items-center gap-1">
          <p id={titleId} className="sr-only" aria-live="polite">
            {months[month]} {year}
          </p>
          <select
            aria-label={t('calendar.month')}
            value={month}
            onChange={(event) => jump(Number(year), Number(event.target.value))}
            className={selectClasses}
          >
            {months.map((name, index) => (
              <option key={name} value={index}>
                {name}
              </option>
            ))}
          </select>
          <select
            aria-label={t('calendar.year')}
            value={Number(year)}
            onChange={(event) => jump(Number(event.target.value), month)}
            className={selectClasses}
          >
            {yearsAround(Number(year), min, max, today).map((y) => (
              <option key={y} value={y}>
                {y}
              </option>
            ))}
          </select>
        </div>
        <button
          type="button"
          className={navButton}
          aria-label={t('calendar.nextMonth')}
          disabled={isIso(max) && addDays(lastOfMonth, 1) > max}
          onClick={() => move(addMonths(focused, 1))}
        >
          <ChevronRightIcon className="size-5" />
        </button>
      </div>
      <table
        ref={gridRef}
        role="grid"
        aria-labelledby={titleId}
        onKeyDown={onKeyDown}
        className="w-full table-fixed border-collapse text-center text-sm"
      >
        <thead>
          <tr>
            {weekdaysShort.map((short, i) => (
              <th
                key={short}
                scope="col"
                abbr={weekdays[i]}
                className="pb-1 text-xs font-medium text-gray-600 capitalize dark:text-gray-300"
              >
                {short}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {monthGrid(focused).map((week, w) => (
            <tr key={w}>
              {week.map((iso, d) =>
                iso ? (
                  <td key={iso} className="p-0.5">
                    <button
                      type="button"
                      data-date={iso}
                      // A dialog that opens with the calendar already loaded focuses this day
                      // (use-modal); one that waits for its code gets it from `autoFocus`.
                      data-autofocus={iso === focused ? true : undefined}
                      tabIndex={iso === focused ? 0 : -1}
                      disabled={disabled(iso)}
                      aria-pressed={iso === value}
                      aria-current={iso === today ? 'date' : undefined}
                      aria-label={t('calendar.day', {
                        weekday: weekdays[d],
                        day: Number(iso.slice(8)),
                        monthOf: monthsOf[month],
                        year,
                      })}
                      onClick={() => onSelect(iso)}
                      className={cn(
                        'flex size-9 w-full items-center justify-center rounded-lg focus-visible:outline-2 focus-visible:outline-primary-ink disabled:text-gray-400 disabled:line-through dark:disabled:text-gray-500',
                        iso === value
                          ? 'bg-primary-fill font-semibold text-on-primary'
                          : 'hover:bg-gray-100 dark:hover:bg-gray-700',
                        iso === today && iso !== value && 'font-semibold underline',
                      )}
                    >
                      {Number(iso.slice(8))}
                    </button>
                  </td>
                ) : (
                  <td key={`${w}-${d}`} />
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
