import { RedsysError } from './errors.ts';

/** Ds_Merchant_Amount: an amount in cents as an integer string ("1234" is 12,34 €). */
export function amountToRedsys(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents <= 0) {
    throw new RedsysError('INVALID_AMOUNT', 'The amount must be a positive whole number of cents');
  }
  return String(cents);
}
