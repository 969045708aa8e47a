import { afterEach, describe, expect, it } from 'vitest';
import {
  addYears,
  checkInputRange,
  apiDateToInput,
  defaultInvoiceRange,
  defaultPaymentsRange,
  formatDate,
  formatDetailDate,
  inputToApiDate,
  lastItemsRange,
  latestBy,
  parseApiDate,
  previousMonthRange,
  todayApiDate,
  formatMoment,
  formatMomentDay,
} from './dates';

describe('parseApiDate (spec §3: API dates are yyyymmdd strings)', () => {
  it('reads a real calendar day', () => {
    expect(parseApiDate('20250307')).toEqual({ year: 2025, month: 3, day: 7 });
    expect(parseApiDate('20240229')).toEqual({ year: 2024, month: 2, day: 29 });
  });

  it.each([
    ['20250230'],
    ['20230229'],
    ['20251301'],
    ['20250100'],
    ['2025-03-07'],
    ['2025037'],
    [''],
    [' 20250307'],
    [null],
    [undefined],
    [20250307],
  ])('is null for %j', (value) => {
    expect(parseApiDate(value)).toBeNull();
  });
});

describe('formatDate and formatDetailDate (spec §9: dd/mm/yyyy, dd-mm-yyyy on detail)', () => {
  it('formats with slashes and with dashes', () => {
    expect(formatDate('20250307')).toBe('07/03/2025');
    expect(formatDetailDate('20250307')).toBe('07-03-2025');
  });

  it('gives null for an invalid date, so the screen can say so', () => {
    expect(formatDate('20250230')).toBeNull();
    expect(formatDetailDate(undefined)).toBeNull();
  });
});

describe('date inputs (spec §5: "Date filters are date inputs")', () => {
  it('converts between yyyymmdd and yyyy-mm-dd', () => {
    expect(apiDateToInput('20250307')).toBe('2025-03-07');
    expect(apiDateToInput('bad')).toBe('');
    expect(inputToApiDate('2025-03-07')).toBe('20250307');
    expect(inputToApiDate('')).toBeNull();
    expect(inputToApiDate('2025-02-30')).toBeNull();
  });
});

describe('ranges (spec §7, §9)', () => {
  const now = new Date(2025, 2, 15, 10, 30); // 15 March 2025, local time

  it('today is the local calendar day', () => {
    expect(todayApiDate(now)).toBe('20250315');
    expect(todayApiDate(new Date(2025, 0, 1, 0, 5))).toBe('20250101');
  });

  it('the invoice list defaults to five years ago to today (§9)', () => {
    expect(defaultInvoiceRange(now)).toEqual({ datefrom: '20200315', dateto: '20250315' });
    // 29 February five years back does not exist: the 28th.
    expect(defaultInvoiceRange(new Date(2024, 1, 29))).toEqual({
      datefrom: '20190228',
      dateto: '20240229',
    });
    expect(addYears({ year: 2024, month: 2, day: 29 }, 1)).toEqual({
      year: 2025,
      month: 2,
      day: 28,
    });
  });

  it('the payments list reaches a year ahead, so instalments not yet due show', () => {
    expect(defaultPaymentsRange(now)).toEqual({ datefrom: '20200315', dateto: '20260315' });
  });

  it('the summary covers the previous calendar month (§7 "/invoices/summary")', () => {
    expect(previousMonthRange(now)).toEqual({ datefrom: '20250201', dateto: '20250228' });
    expect(previousMonthRange(new Date(2024, 2, 1))).toEqual({
      datefrom: '20240201',
      dateto: '20240229',
    });
    expect(previousMonthRange(new Date(2025, 0, 31))).toEqual({
      datefrom: '20241201',
      dateto: '20241231',
    });
  });

  it('the last-item search covers two calendar years (§7, §9)', () => {
    expect(lastItemsRange(now)).toEqual({ datefrom: '20240101', dateto: '20251231' });
  });
});

describe('latestBy (spec §7: home picks the latest invoice_date or due_date)', () => {
  it('picks the latest valid date, ignoring invalid ones', () => {
    const items = [
      { id: 'a', date: '20250101' },
      { id: 'b', date: '20991340' },
      { id: 'c', date: '20250301' },
      { id: 'd', date: '20250201' },
    ];
    expect(latestBy(items, (i) => i.date)?.id).toBe('c');
    expect(latestBy([{ date: 'x' }], (i) => i.date)).toBeUndefined();
    expect(latestBy([], () => '20250101')).toBeUndefined();
  });
});

describe('checkInputRange (spec §5 date inputs; the API refuses a reversed range)', () => {
  it('accepts a range whose start is not after its end', () => {
    expect(checkInputRange('2025-01-01', '2025-01-01')).toEqual({
      ok: true,
      range: { datefrom: '20250101', dateto: '20250101' },
    });
  });

  it('names the field with a missing or impossible date', () => {
    expect(checkInputRange('', '2025-01-01')).toEqual({
      ok: false,
      errors: { from: 'invalidDate' },
    });
    expect(checkInputRange('2025-01-01', '2025-02-30')).toEqual({
      ok: false,
      errors: { to: 'invalidDate' },
    });
  });

  it('refuses a reversed range on the end date', () => {
    expect(checkInputRange('2025-02-01', '2025-01-01')).toEqual({
      ok: false,
      errors: { to: 'invalidRange' },
    });
  });
});

describe('formatMoment', () => {
  it("writes a moment as spec §9 does, on Madrid's clock: dd/mm/yyyy HH:MM h", () => {
    expect(formatMoment('2026-11-26T06:05:00.000Z')).toBe('26/11/2026 07:05 h');
    // Summer time, past midnight in Madrid: the next day.
    expect(formatMoment('2026-07-01T22:30:00.000Z')).toBe('02/07/2026 00:30 h');
  });

  it('gives nothing for what is not a moment', () => {
    expect(formatMoment('nope')).toBe('');
  });
});

describe('formatMomentDay', () => {
  const savedTz = process.env.TZ;
  afterEach(() => {
    if (savedTz === undefined) delete process.env.TZ;
    else process.env.TZ = savedTz;
  });

  it("writes the day of a moment on Madrid's clock, dd/mm/yyyy, whatever the browser's", () => {
    process.env.TZ = 'Atlantic/Canary';
    // 23:30 on 31 December in Las Palmas (and in UTC) is 00:30 on New Year's Day in Madrid.
    expect(formatMomentDay('2026-12-31T23:30:00.000Z')).toBe('01/01/2027');
    process.env.TZ = 'America/New_York';
    expect(formatMomentDay('2026-07-01T22:30:00.000Z')).toBe('02/07/2026');
    expect(formatMomentDay('2026-11-26T10:15:00.000Z')).toBe('26/11/2026');
  });

  it('gives nothing for what is not a moment', () => {
    expect(formatMomentDay('nope')).toBeNull();
    expect(formatMomentDay('')).toBeNull();
    expect(formatMomentDay(null)).toBeNull();
    expect(formatMomentDay(undefined)).toBeNull();
  });
});
