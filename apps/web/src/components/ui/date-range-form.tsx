import { useState } from 'react';
import {
  type ApiDateRange,
  apiDateToInput,
  checkInputRange,
  type DateRangeError,
} from '@/lib/dates';
import { Button } from './button';
import { DateRangeFields, type DateRangeValue } from './date-range-fields';
import { SearchIcon } from './icons';

type DateRangeFormProps = {
  /** The range searched now; mount the form again (a `key`) to start from another one. */
  range: ApiDateRange;
  onSearch: (range: ApiDateRange) => void;
  texts: { legend: string; from: string; to: string; search: string } & Record<
    DateRangeError,
    string
  >;
};

/**
 * A date range searched on submit (spec §2: "date range ... search submit"): the dates are
 * checked here first, so a half-typed date never reaches the server.
 */
export function DateRangeForm({ range, onSearch, texts }: DateRangeFormProps) {
  const [value, setValue] = useState<DateRangeValue>(() => ({
    from: apiDateToInput(range.datefrom),
    to: apiDateToInput(range.dateto),
  }));
  const [errors, setErrors] = useState<{ from?: DateRangeError; to?: DateRangeError }>({});

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const check = checkInputRange(value.from, value.to);
        if (!check.ok) {
          setErrors(check.errors);
          return;
        }
        setErrors({});
        onSearch(check.range);
      }}
    >
      <DateRangeFields
        value={value}
        onChange={setValue}
        labels={{ legend: texts.legend, from: texts.from, to: texts.to }}
        errors={{
          from: errors.from && texts[errors.from],
          to: errors.to && texts[errors.to],
        }}
      />
      <Button type="submit" className="mt-3 w-full">
        <SearchIcon className="size-5" />
        {texts.search}
      </Button>
    </form>
  );
}
