/**
 * Money as the screens show it (spec §9 "Amounts 2 decimals with €; currency EUR"; spec §2 Home:
 * "in Spanish format"): always es-ES, whatever the interface language, so an amount reads the same
 * on the screen, in the PDF and on the bank statement. The API sends numbers with two decimals;
 * sums are done in integer cents so that 0.1 + 0.2 never shows as 0,30000000000000004.
 */

const euros = new Intl.NumberFormat('es-ES', {
  style: 'currency',
  currency: 'EUR',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** What the screens show instead of an amount they do not have (spec §8 "Home stats: dashes"). */
export const missingAmount = '--';

/**
 * An amount in integer cents, rounded half away from zero; the tiny nudge undoes binary fractions
 * such as 1.005 * 100 = 100.49999999999999.
 */
export function toCents(amount: number): number {
  const cents = Math.round(Math.abs(amount) * 100 + 1e-6);
  return amount < 0 ? -cents : cents;
}

/** Integer cents back to an amount with at most two decimals. */
export function fromCents(cents: number): number {
  return cents / 100 || 0;
}

/** `1234.5` -> `1234,50 €`, `12345.6` -> `12.345,60 €` (es-ES); dashes when it is not a number. */
export function formatAmount(amount: unknown): string {
  if (typeof amount !== 'number' || !Number.isFinite(amount)) return missingAmount;
  return euros.format(fromCents(toCents(amount)));
}

/** The exact sum of some amounts. */
export function sumAmounts(amounts: Iterable<number>): number {
  let cents = 0;
  for (const amount of amounts) cents += toCents(amount);
  return fromCents(cents);
}

/** An amount as a URL parameter: `45` -> `45.00` (the spec's payment screen reads it so). */
export function formatAmountParam(amount: number): string {
  return fromCents(toCents(amount)).toFixed(2);
}

const numbers = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 2 });

/** A quantity or a VAT rate beside amounts, in the same es-ES format: `1,5`, `21`. */
export function formatNumber(value: unknown): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return missingAmount;
  return numbers.format(value);
}
