import { describe, expect, it } from 'vitest';
import { todayIso } from '../src/lib/dates.ts';
import { newMandateReference } from '../src/modules/mandates/service.ts';

/*
 * Session 37 review (SEPA mandates and bank accounts), fixed since: the date in a mandate reference is the UTC day, not
 * Spain's.
 *
 * What was wrong: `newMandateReference` (src/modules/mandates/service.ts) takes the day from
 * `now.toISOString()`, i.e. UTC. A mandate signed in Spain between 00:00 and 01:00 (winter) or
 * 02:00 (summer) gets the previous day in its reference: signed on 1 January 2027 at 00:30 in
 * Madrid, its reference says M-20261231-..., while its PDF says "01/01/2027, 00:30:00 CET" and the
 * portal's business day (lib/dates.ts `todayIso`, Europe/Madrid) is 2027-01-01.
 * Why it matters: the reference is what the provider sends to the bank with every debit and what
 * the debtor sees on the bank statement; its date is read as the date of signature. A debtor
 * disputing a debit, or an accountant matching mandates to sign-up dates, finds a mandate that
 * looks signed the day before (across a year end, in another year).
 * Should: the reference's date is the day in Europe/Madrid, as every other date of the portal
 * (`todayIso(now).replace(/-/g, '')`).
 */
describe('the date in a new mandate reference', () => {
  it.each([
    ['2026-12-31T23:30:00Z', '20270101'], // 00:30 CET on New Year's Day
    ['2027-07-14T22:15:00Z', '20270715'], // 00:15 CEST
  ])('is the day in Madrid for a signature at %s', (instant, day) => {
    const now = new Date(instant);
    expect(todayIso(now).replace(/-/g, '')).toBe(day);
    expect(newMandateReference(now)).toMatch(new RegExp(`^M-${day}-[0-9A-F]{12}$`));
  });
});
