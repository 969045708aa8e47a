import { describe, expect, it } from 'vitest';
import { emailPattern, isApiDate, ZPage, ZPositiveAmount, ZTenantId } from './common.ts';

describe('API dates (yyyymmdd, spec §3)', () => {
  it.each(['20250101', '20240229', '20251231'])('accepts %s', (d) =>
    expect(isApiDate(d)).toBe(true),
  );
  it.each([
    '20250230',
    '20230229',
    '20251301',
    '20250100',
    '2025011',
    '2025-01-01',
    '18991231',
    'abcdefgh',
  ])('refuses %s', (d) => expect(isApiDate(d)).toBe(false));
  it('agrees with the calendar on every day, month and year from 1895 to 2105', () => {
    // The calendar's own answer: a day exists when the month's last day is not before it.
    const real = (year: number, month: number, day: number) =>
      year >= 1900 &&
      month >= 1 &&
      month <= 12 &&
      day >= 1 &&
      day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
    const wrong: string[] = [];
    for (let year = 1895; year <= 2105; year++)
      for (let month = 0; month <= 13; month++)
        for (let day = 0; day <= 32; day++) {
          const value = `${year}${String(month).padStart(2, '0')}${String(day).padStart(2, '0')}`;
          if (isApiDate(value) !== real(year, month, day)) wrong.push(value);
        }
    expect(wrong).toEqual([]);
  });
  it.each(['2025010a', '/0250101', ':0250101', '202501011', '２０２５０１０１'])(
    'refuses %s (a character that is not an ASCII digit, or a ninth)',
    (d) => expect(isApiDate(d)).toBe(false),
  );
});

describe('pages and amounts', () => {
  it('takes the page as the string the spec sends, or a number', () => {
    expect(ZPage.parse('3')).toBe(3);
    expect(ZPage.parse(2)).toBe(2);
    expect(ZPage.safeParse('0').success).toBe(false);
    expect(ZPage.safeParse('-1').success).toBe(false);
    expect(ZPage.safeParse('1.5').success).toBe(false);
  });
  it('accepts positive amounts with at most two decimals', () => {
    expect(ZPositiveAmount.safeParse(45).success).toBe(true);
    expect(ZPositiveAmount.safeParse(45.5).success).toBe(true);
    expect(ZPositiveAmount.safeParse(0.1 + 0.2).success).toBe(true);
    expect(ZPositiveAmount.safeParse(45.123).success).toBe(false);
    expect(ZPositiveAmount.safeParse(0).success).toBe(false);
    expect(ZPositiveAmount.safeParse(-1).success).toBe(false);
    expect(ZPositiveAmount.safeParse(Number.NaN).success).toBe(false);
  });
});

describe('tenant ids', () => {
  it.each(['1', 'demo', 'club-norte'])('accepts %s', (t) =>
    expect(ZTenantId.safeParse(t).success).toBe(true),
  );
  it.each(['', 'Demo', '-a', 'a-', 'a.b', 'a/b', 'x'.repeat(64)])('refuses %j', (t) =>
    expect(ZTenantId.safeParse(t).success).toBe(false),
  );
});

describe('e-mail addresses (spec §5, a simple pattern)', () => {
  it.each(['ana@demo.test', 'ana.lopez+club@correo.es', "o'neil@x.io", 'dollar$`tick@fuera.test'])(
    'accepts %s',
    (email) => expect(emailPattern.test(email)).toBe(true),
  );
  // What a mail library reads as address syntax: before session 36 `a,b@evil.com` was accepted,
  // and nodemailer sent its mail to b@evil.com too.
  it.each([
    'a,b@evil.com',
    'victim<attacker@evil.com>',
    'a(b)@c.com',
    'a;b@c.com',
    'a"b@c.com',
    'a[b]@c.com',
    'a\\b@c.com',
    'a b@c.com',
  ])('refuses %s', (email) => expect(emailPattern.test(email)).toBe(false));
});
