import type { TFieldError } from '@portal/contract/errors';
import { ZContactRequest } from '@portal/contract/account';
import type { ApiError } from '@/lib/api-client';

/**
 * The contact form of spec §2 and its rules of spec §5: the contract's schema (`ZContactRequest`),
 * the one the server checks with (decision 019), and the limits its character count shows.
 */
export type ContactValues = {
  name: string;
  company: string;
  subject: string;
  message: string;
  acceptPrivacy: boolean;
};
export type ContactField = keyof ContactValues;
export type TextFieldName = Exclude<ContactField, 'acceptPrivacy'>;

export const contactFields = [
  'name',
  'company',
  'subject',
  'message',
  'acceptPrivacy',
] as const satisfies readonly ContactField[];

export const emptyContact: ContactValues = {
  name: '',
  company: '',
  subject: '',
  message: '',
  acceptPrivacy: false,
};

/** The most characters each text may have, counted after trimming as the server does. */
export const maxLengths: Record<TextFieldName, number> = {
  name: 120,
  company: 120,
  subject: 200,
  message: 5000,
};

/** A field's error: the contract's codes, and `invalid` for any other the server may answer. */
export type ContactFieldError =
  | Extract<TFieldError, 'required' | 'too_long' | 'privacy_required' | 'invalid_characters'>
  | 'invalid';
export type ContactErrors = Partial<Record<ContactField, ContactFieldError>>;

/** Spec §5: required after trimming ("Este campo es obligatorio"), within the contract's length. */
export function checkText(field: TextFieldName, value: string): ContactFieldError | undefined {
  const result = ZContactRequest.shape[field].safeParse(value);
  return result.success ? undefined : toFieldError(result.error.issues[0]?.message);
}

const toFieldError = (code: string | undefined): ContactFieldError =>
  code && knownCodes.has(code) ? (code as ContactFieldError) : 'invalid';

/**
 * Spec §5 "Contact": the contract's own schema (`ZContactRequest`, the one the server checks
 * with), its first code per field.
 */
export function validateContact(values: ContactValues): ContactErrors {
  const result = ZContactRequest.safeParse(values);
  const errors: ContactErrors = {};
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && isContactField(field) && !errors[field]) {
      errors[field] = toFieldError(issue.message);
    }
  }
  return errors;
}

const isContactField = (value: string): value is ContactField =>
  (contactFields as readonly string[]).includes(value);

export function hasErrors(errors: ContactErrors): boolean {
  return Object.values(errors).some(Boolean);
}

/** The first field with an error, in the order of the form: it takes the focus. */
export function firstInvalid(errors: ContactErrors): ContactField | undefined {
  return contactFields.find((field) => errors[field]);
}

const knownCodes = new Set<string>([
  'required',
  'too_long',
  'privacy_required',
  'invalid_characters',
]);

/** A 422's `errors` (`{field: [codes]}`) as errors of the form's fields. */
export function errorsFromServer(errors: Record<string, string[]> | undefined): ContactErrors {
  const found: ContactErrors = {};
  for (const field of contactFields) {
    const code = errors?.[field]?.[0];
    if (code) found[field] = knownCodes.has(code) ? (code as ContactFieldError) : 'invalid';
  }
  return found;
}

/** Why a message was not sent (spec §8 style: the client translates, never shows server prose). */
export type ContactFailure =
  | { key: 'invalid' }
  | { key: 'rateLimited'; minutes: number | undefined }
  | { key: 'network' }
  | { key: 'generic' };

type ErrorLike = Pick<ApiError, 'status' | 'retryAfterSeconds'>;

export function contactFailureOf(error: unknown): ContactFailure {
  const api =
    error && typeof error === 'object' && 'status' in error ? (error as ErrorLike) : undefined;
  if (api?.status === 422) return { key: 'invalid' };
  if (api?.status === 429) {
    const seconds = api.retryAfterSeconds;
    return {
      key: 'rateLimited',
      minutes:
        seconds === undefined || !Number.isFinite(seconds)
          ? undefined
          : Math.max(1, Math.ceil(seconds / 60)),
    };
  }
  if (api?.status === 0) return { key: 'network' };
  return { key: 'generic' };
}
