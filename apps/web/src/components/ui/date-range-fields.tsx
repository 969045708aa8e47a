import { lazy, Suspense, useId, useState } from 'react';
import { useTranslation } from '@/lib/use-translation';
import { cn } from '@/utils/cn';
import { Dialog } from './dialog';
import { CalendarIcon } from './icons';
import { Spinner } from './spinner';
import { TextField } from './text-field';

/** Fetched when first opened: the lists' first load (budgeted, issue 6) does not carry it. */
const Calendar = lazy(() => import('./calendar').then((m) => ({ default: m.Calendar })));

export type DateRangeValue = { from: string; to: string };

type DateRangeFieldsProps = {
  /** `yyyy-mm-dd`, as date inputs speak. */
  value: DateRangeValue;
  onChange: (value: DateRangeValue) => void;
  labels: { legend: string; from: string; to: string };
  errors?: { from?: string | undefined; to?: string | undefined };
  className?: string;
};

const pad = (value: string) => value.padStart(2, '0');

/** `yyyy-mm-dd` -> `dd/mm/yyyy` (spec §9, every language); anything else is shown as typed. */
export function displayDate(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : value;
}

/**
 * What was typed, `d/m/yyyy` with `/`, `-` or `.`, as `yyyy-mm-dd` when it is a whole date; else the
 * text itself, which the form's check (lib/dates.ts `checkInputRange`) reports as not a date.
 */
export function parseTypedDate(text: string): string {
  const match = /^\s*(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})\s*$/.exec(text);
  return match ? `${match[3]}-${pad(match[2] ?? '')}-${pad(match[1] ?? '')}` : text;
}

function DateField({
  label,
  value,
  onChange,
  error,
  min,
  max,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  min?: string | undefined;
  max?: string | undefined;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [calendarOpen, setCalendarOpen] = useState(false);
  const isoOrEmpty = (iso: string | undefined) =>
    iso && /^\d{4}-\d{2}-\d{2}$/.test(iso) ? iso : undefined;
  // A text field in the app's format, not the browser's date input: that one speaks the browser's
  // language (mm/dd/yyyy in an English browser) and cut the year in a narrow column (review #6).
  return (
    <TextField
      id={id}
      label={label}
      className="min-w-[9.5rem] flex-1"
      inputMode="numeric"
      autoComplete="off"
      placeholder={t('calendar.format')}
      value={displayDate(value)}
      onChange={(event) => onChange(parseTypedDate(event.target.value))}
      error={error}
      hint={t('calendar.format')}
      trailing={
        <>
          <button
            type="button"
            aria-label={t('calendar.open', { label })}
            aria-haspopup="dialog"
            onClick={() => setCalendarOpen(true)}
            className="flex size-11 items-center justify-center rounded-lg text-gray-600 hover:text-gray-900 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-primary-ink dark:text-gray-300 dark:hover:text-gray-50"
          >
            <CalendarIcon className="size-5" />
          </button>
          <Dialog open={calendarOpen} onClose={() => setCalendarOpen(false)} title={label}>
            <Suspense fallback={<Spinner label={t('app.loading')} />}>
              <Calendar
                value={isoOrEmpty(value) ?? ''}
                min={isoOrEmpty(min)}
                max={isoOrEmpty(max)}
                autoFocus
                onSelect={(iso) => {
                  onChange(iso);
                  setCalendarOpen(false);
                }}
              />
            </Suspense>
          </Dialog>
        </>
      }
    />
  );
}

/** Spec §5 "Date filters are date inputs": a labelled from/to pair in a fieldset. */
export function DateRangeFields({
  value,
  onChange,
  labels,
  errors,
  className,
}: DateRangeFieldsProps) {
  return (
    <fieldset className={cn('min-w-0', className)}>
      <legend className="mb-1 text-sm font-semibold text-gray-900 dark:text-gray-100">
        {labels.legend}
      </legend>
      {/* Side by side while both fit a whole date; one under the other in a narrow column. */}
      <div className="flex flex-wrap gap-x-3 gap-y-2">
        <DateField
          label={labels.from}
          value={value.from}
          max={value.to}
          error={errors?.from}
          onChange={(from) => onChange({ ...value, from })}
        />
        <DateField
          label={labels.to}
          value={value.to}
          min={value.from}
          error={errors?.to}
          onChange={(to) => onChange({ ...value, to })}
        />
      </div>
    </fieldset>
  );
}
