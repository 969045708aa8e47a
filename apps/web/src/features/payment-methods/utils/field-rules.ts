import type { TFieldError } from '@portal/contract/errors';
import { hasUnsafeText } from '@portal/contract/input-safety';

/**
 * The rules of the contract's `ZAddBankAccountRequest`, `ZAddCardRequest` and
 * `ZUpdatePaymentMethodRequest` (packages/contract/src/account.ts), written out with the same checks
 * and codes instead of running the zod schemas in the browser: zod would add about 80 KB (brotli)
 * to these screens (decision 005). bank-account-form.test.ts proves both answer the same codes.
 */
export type FieldErrorCode = Extract<
  TFieldError,
  'required' | 'too_long' | 'invalid_iban' | 'iban_not_sepa' | 'invalid_nif' | 'invalid_characters'
>;

export type FieldErrors<F extends string> = Partial<Record<F, FieldErrorCode>>;

export type MethodField = 'iban' | 'holder' | 'nif' | 'entity' | 'alias';

/** The longest value each field takes (the contract's limits). */
export const maxLengths: Record<MethodField, number> = {
  iban: 42,
  holder: 120,
  nif: 20,
  entity: 120,
  alias: 60,
};

/** A required text: trimmed, not empty, bounded (the contract's `text(max)`). */
export function requiredText(value: string, max: number): FieldErrorCode | undefined {
  const text = value.trim();
  if (!text) return 'required';
  if (text.length > max) return 'too_long';
  if (hasUnsafeText(text)) return 'invalid_characters';
  return undefined;
}

/** One line (the contract's `line(120)`): the debtor's name on the mandate. */
export function validateHolder(value: string): FieldErrorCode | undefined {
  return (
    requiredText(value, maxLengths.holder) ??
    (/[\r\n\u0085\u2028\u2029]/.test(value) ? 'invalid_characters' : undefined)
  );
}

/** Optional, trimmed, at most 60 characters. */
export function validateAlias(value: string): FieldErrorCode | undefined {
  if (value.trim().length > maxLengths.alias) return 'too_long';
  return hasUnsafeText(value) ? 'invalid_characters' : undefined;
}

export function collectErrors<F extends string>(
  checks: [F, FieldErrorCode | undefined][],
): FieldErrors<F> {
  const errors: FieldErrors<F> = {};
  for (const [field, code] of checks) if (code) errors[field] = code;
  return errors;
}

/**
 * The first code of each field of a 422 answer that these forms know, so the server's verdict
 * shows under the field like the form's own.
 */
export function serverFieldErrors<F extends string>(
  errors: Record<string, string[]> | undefined,
  fields: readonly F[],
): FieldErrors<F> {
  const known: readonly string[] = [
    'required',
    'too_long',
    'invalid_iban',
    'iban_not_sepa',
    'invalid_nif',
    'invalid_characters',
  ];
  const result: FieldErrors<F> = {};
  for (const field of fields) {
    const code = errors?.[field]?.find((c) => known.includes(c));
    if (code) result[field] = code as FieldErrorCode;
  }
  return result;
}

export function hasErrors(errors: Partial<Record<string, unknown>>): boolean {
  return Object.values(errors).some(Boolean);
}
