import { describe, expect, it } from 'vitest';
import {
  formatLongDate,
  groupByDay,
  type LongDateParts,
  type LongDateWords,
  parseNotificationDay,
} from './day-groups';

const locales = Object.fromEntries(
  Object.entries(
    import.meta.glob<Record<string, unknown>>('../../../locales/*/notifications.json', {
      eager: true,
      import: 'default',
    }),
  ).map(([path, texts]) => [/locales\/(\w+)\//.exec(path)?.[1] ?? '', texts]),
);

const at = (date: string) => ({ id: date, date });

describe('groupByDay (spec §2 "grouped by Today, Yesterday, otherwise long date")', () => {
  // 10:00 local time on 1 March 2025: yesterday crosses the end of February.
  const now = new Date(2025, 2, 1, 10, 0);

  it('groups in the order received, naming today and yesterday', () => {
    const groups = groupByDay(
      [at('2025-03-01'), at('2025-03-01'), at('2025-02-28'), at('2025-02-14'), at('2024-12-31')],
      now,
    );
    expect(groups.map((g) => [g.key, g.when, g.items.length])).toEqual([
      ['2025-03-01', 'today', 2],
      ['2025-02-28', 'yesterday', 1],
      ['2025-02-14', 'earlier', 1],
      ['2024-12-31', 'earlier', 1],
    ]);
    expect(groups[2]?.day).toEqual({ year: 2025, month: 2, day: 14 });
  });

  it('puts an unreadable date in a group of its own rather than failing', () => {
    const groups = groupByDay([at('2025-02-30'), at('garbage')], now);
    expect(groups.map((g) => [g.when, g.day])).toEqual([
      ['unknown', null],
      ['unknown', null],
    ]);
  });

  it('parses only real days', () => {
    expect(parseNotificationDay('2024-02-29')).toEqual({ year: 2024, month: 2, day: 29 });
    expect(parseNotificationDay('2025-02-29')).toBeNull();
    expect(parseNotificationDay('20250101')).toBeNull();
  });
});

describe('formatLongDate', () => {
  const day = { year: 2025, month: 11, day: 3 };
  const words = (language: string): LongDateWords => {
    const { groups } = locales[language] as { groups: Record<string, string> };
    return {
      months: groups.months ?? '',
      weekdays: groups.weekdays ?? '',
      format: (parts) =>
        (groups.longDate ?? '').replace(
          /\{\{(\w+)\}\}/g,
          (_, key: keyof LongDateParts) => parts[key],
        ),
    };
  };

  it('writes the long date in the chosen language, capitalised as a heading', () => {
    expect(formatLongDate(day, words('es'))).toBe('Lunes, 3 de noviembre de 2025');
    expect(formatLongDate(day, words('ca'))).toBe('Dilluns, 3 de novembre de 2025');
    expect(formatLongDate({ ...day, month: 4 }, words('ca'))).toBe("Dijous, 3 d'abril de 2025");
    expect(formatLongDate(day, words('en'))).toBe('Monday, November 3, 2025');
    expect(formatLongDate(day, words('eu'))).toBe('2025(e)ko azaroaren 3(a), astelehena');
  });

  it('has twelve months and seven weekdays in every language', () => {
    for (const language of Object.keys(locales)) {
      expect(words(language).months.split(','), language).toHaveLength(12);
      expect(words(language).weekdays.split(','), language).toHaveLength(7);
    }
  });

  it('agrees with Intl where the runtime knows the language', () => {
    for (const language of ['es', 'en']) {
      for (let month = 1; month <= 12; month += 1) {
        const date = { year: 2026, month, day: 10 + month };
        const intl = new Intl.DateTimeFormat(language, {
          weekday: 'long',
          day: 'numeric',
          month: 'long',
          year: 'numeric',
          timeZone: 'UTC',
        }).format(new Date(Date.UTC(2026, month - 1, 10 + month)));
        expect(formatLongDate(date, words(language)).toLowerCase()).toBe(intl.toLowerCase());
      }
    }
  });
});
