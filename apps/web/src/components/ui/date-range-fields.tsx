import { lazy, Suspense, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '@/utils/cn';
import { Dialog } from './dialog';
import { CalendarIcon } from './icons';
import { Spinner } from './spinner';

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

const input =
  'mt-1 block min-h-11 w-full rounded-xl border bg-white px-3 py-2 text-sm text-gray-900 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-primary-ink dark:bg-gray-900 dark:text-gray-100 dark:[color-scheme:dark]';

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
  const errorId = `${id}-error`;
  const [calendarOpen, setCalendarOpen] = useState(false);
  return (
    <div className="min-w-0 flex-1">
      <label htmlFor={id} className="text-sm font-medium text-gray-800 dark:text-gray-200">
        {label}
      </label>
      <div className="relative">
        <input
          id={id}
          type="date"
          value={value}
          min={min || undefined}
          max={max || undefined}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className={cn(
            input,
            // The browser's own picker speaks the browser's language: ours (the button) the app's.
            'pr-11 [&::-webkit-calendar-picker-indicator]:hidden',
            error ? 'border-red-600 dark:border-red-400' : 'border-gray-300 dark:border-gray-600',
          )}
        />
        <button
          type="button"
          aria-label={t('calendar.open', { label })}
          aria-haspopup="dialog"
          onClick={() => setCalendarOpen(true)}
          className="absolute inset-y-0 right-0 flex w-11 items-center justify-center rounded-r-xl text-gray-600 hover:text-gray-900 focus-visible:outline-2 focus-visible:outline-primary-ink dark:text-gray-300 dark:hover:text-gray-50"
        >
          <CalendarIcon className="size-5" />
        </button>
      </div>
      <Dialog open={calendarOpen} onClose={() => setCalendarOpen(false)} title={label}>
        <Suspense fallback={<Spinner label={t('app.loading')} />}>
          <Calendar
            value={value}
            min={min}
            max={max}
            autoFocus
            onSelect={(iso) => {
              onChange(iso);
              setCalendarOpen(false);
            }}
          />
        </Suspense>
      </Dialog>
      {error && (
        <p id={errorId} className="mt-1 text-xs font-medium text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
    </div>
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
      <div className="flex gap-3">
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
