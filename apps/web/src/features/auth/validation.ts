import type { TFieldError } from '@portal/contract/errors';
import { passwordProblems, type TPasswordContext } from '@portal/contract/password-rules';

/**
 * The form rules of spec §5, written out here rather than imported from the contract's zod schemas
 * (zod stays out of the browser bundle, decision 005); the codes are the contract's.
 */
export type FieldErrorCode = Extract<
  TFieldError,
  | 'required'
  | 'invalid_email'
  | 'too_short'
  | 'mismatch'
  | 'password_common'
  | 'password_contains_email'
  | 'password_contains_name'
>;

export type FieldErrors<F extends string> = Partial<Record<F, FieldErrorCode>>;

/** The contract's simple e-mail pattern (`emailPattern` in packages/contract/src/common.ts). */
export const emailPattern = /^[^\s@,;<>()[\]\\"]+@[^\s@,;<>()[\]\\"]+\.[^\s@,;<>()[\]\\"]+$/;

/** Spec §5 "Reset": the contract's `passwordMinLength`. */
export { passwordMinLength } from '@portal/contract/password-rules';

/** Required first, then the pattern (spec §5 "Recovery: e-mail required, then pattern"). */
export function validateEmail(value: string): FieldErrorCode | undefined {
  const email = value.trim();
  if (!email) return 'required';
  if (email.length > 254 || !emailPattern.test(email)) return 'invalid_email';
  return undefined;
}

function collect<F extends string>(checks: [F, FieldErrorCode | undefined][]): FieldErrors<F> {
  const errors: FieldErrors<F> = {};
  for (const [field, code] of checks) if (code) errors[field] = code;
  return errors;
}

/** Spec §5 "Login": e-mail required and well formed; password required. */
export function validateLogin(values: { email: string; password: string }) {
  return collect<'email' | 'password'>([
    ['email', validateEmail(values.email)],
    ['password', values.password ? undefined : 'required'],
  ]);
}

/** Spec §5 "Recovery". */
export function validateRecovery(values: { email: string }) {
  return collect<'email'>([['email', validateEmail(values.email)]]);
}

/**
 * Spec §5 "Reset": both required; the contract's password rules (at least 8 characters, neither
 * the e-mail nor the organisation's name inside); the confirmation matches. Whether it is one of
 * the common passwords only the server knows (its list is too large for the browser).
 */
export function validateReset(
  values: { password: string; confirmation: string },
  context: TPasswordContext = {},
) {
  const password = !values.password ? 'required' : passwordProblems(values.password, context)[0];
  const confirmation = !values.confirmation
    ? 'required'
    : values.confirmation !== values.password
      ? 'mismatch'
      : undefined;
  return collect<'password' | 'confirmation'>([
    ['password', password],
    ['confirmation', confirmation],
  ]);
}

/** Changing it from the profile: the current password, then the reset's rules. */
export function validateChange(
  values: { current: string; password: string; confirmation: string },
  context: TPasswordContext = {},
) {
  return {
    ...collect<'current'>([['current', values.current ? undefined : 'required']]),
    ...validateReset(values, context),
  };
}

export function hasErrors(errors: Partial<Record<string, unknown>>): boolean {
  return Object.values(errors).some(Boolean);
}
