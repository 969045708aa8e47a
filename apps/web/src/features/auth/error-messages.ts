import type { TErrorCode } from '@portal/contract/errors';
import type { ApiError } from '@/lib/api-client';

/**
 * Spec §8: which text each failure of the sign-in, recovery, reset and external sign-in calls
 * shows. Texts are keys of the `auth` namespace's `errors`; the server's prose is never shown.
 */
export type AuthErrorKey =
  | 'invalidCredentials'
  | 'authError'
  | 'incompleteResponse'
  | 'tooManyAttempts'
  | 'tooManyAttemptsLater'
  | 'invalidEmail'
  | 'emailNotFound'
  | 'sendError'
  | 'invalidToken'
  | 'weakPassword'
  | 'passwordCommon'
  | 'passwordContainsEmail'
  | 'passwordContainsName'
  | 'wrongPassword'
  | 'changeError'
  | 'invalidData'
  | 'tokenExpired'
  | 'userNotFound'
  | 'resetError'
  | 'signInFailed'
  | 'noAccount'
  | 'externalNeedsSecondFactor'
  | 'linkOff'
  | 'passkeyRefused'
  | 'passkeyUnsupported'
  | 'passkeyCancelled';

/** A text to show: its key and, for the wait message, the minutes. */
export type AuthMessage = { key: AuthErrorKey; count?: number };

/** Spec §5: a sign-in answer without the user or the access token. */
export class IncompleteAuthResponseError extends Error {
  constructor() {
    super('Incomplete authentication response');
    this.name = 'IncompleteAuthResponseError';
  }
}

type ErrorLike = Pick<ApiError, 'status' | 'code' | 'errors' | 'retryAfterSeconds'>;

function asApiError(error: unknown): ErrorLike | undefined {
  if (error && typeof error === 'object' && 'status' in error && 'code' in error) {
    return error as ErrorLike;
  }
  return undefined;
}

/** 429: wait so many minutes (from Retry-After, rounded up, at least 1), or "a few minutes". */
export function tooManyAttempts(error: ErrorLike): AuthMessage {
  const seconds = error.retryAfterSeconds;
  if (seconds === undefined || !Number.isFinite(seconds)) return { key: 'tooManyAttemptsLater' };
  return { key: 'tooManyAttempts', count: Math.max(1, Math.ceil(seconds / 60)) };
}

/** Spec §8 "Login": invalid credentials; authentication error; incomplete response. */
export function loginErrorMessage(error: unknown): AuthMessage {
  if (error instanceof IncompleteAuthResponseError) return { key: 'incompleteResponse' };
  const api = asApiError(error);
  if (api?.status === 401) return { key: 'invalidCredentials' };
  if (api?.status === 429) return tooManyAttempts(api);
  return { key: 'authError' };
}

/** Spec §8 "Recovery": 422 invalid e-mail; 404 not found; 429 wait; else a send error. */
export function recoveryErrorMessage(error: unknown): AuthMessage {
  const api = asApiError(error);
  if (api?.status === 422) return { key: 'invalidEmail' };
  if (api?.status === 404) return { key: 'emailNotFound' };
  if (api?.status === 429) return tooManyAttempts(api);
  return { key: 'sendError' };
}

/** A passkey sign-in that failed: refused by the server, cancelled, or not possible here. */
export function passkeyErrorMessage(error: unknown): AuthMessage {
  const api = asApiError(error);
  if (api?.status === 401) return { key: 'passkeyRefused' };
  if (api?.status === 429) return tooManyAttempts(api);
  if (api) return { key: 'authError' };
  const name = error instanceof Error ? error.name : '';
  if (name === 'NotSupportedError' || name === 'TypeError') return { key: 'passkeyUnsupported' };
  return { key: 'passkeyCancelled' };
}

/** "Send me a link": as the recovery, and the portal that does not offer it (403). */
export function signInLinkRequestErrorMessage(error: unknown): AuthMessage {
  const api = asApiError(error);
  if (api?.status === 403) return { key: 'linkOff' };
  return recoveryErrorMessage(error);
}

/** The server's refusal of a new password (its first code), worded; weak password otherwise. */
const passwordRefusals: Partial<Record<string, AuthErrorKey>> = {
  password_common: 'passwordCommon',
  password_contains_email: 'passwordContainsEmail',
  password_contains_name: 'passwordContainsName',
};

/** A failure that is about the new password: the screen marks and focuses its field. */
export function isPasswordRefusal(message: AuthMessage): boolean {
  return message.key === 'weakPassword' || Object.values(passwordRefusals).includes(message.key);
}

/**
 * Spec §8 "Reset": 422 with `errors.token` invalid token, with `errors.password` the password's
 * own reason (common, contains the e-mail or the organisation's name; weak password otherwise),
 * other 422 invalid data; 400 expired (request a new link); 404 user not found; else generic.
 */
export function resetErrorMessage(error: unknown): AuthMessage {
  const api = asApiError(error);
  if (api?.status === 422) {
    if (api.errors?.token?.length) return { key: 'invalidToken' };
    const refused = api.errors?.password?.[0];
    if (refused) return { key: passwordRefusals[refused] ?? 'weakPassword' };
    return { key: 'invalidData' };
  }
  if (api?.status === 400) return { key: 'tokenExpired' };
  if (api?.status === 404) return { key: 'userNotFound' };
  if (api?.status === 429) return tooManyAttempts(api);
  return { key: 'resetError' };
}

/**
 * Changing the password from the profile: 422 with `errors.current_password` the current password
 * is wrong; with `errors.password` the new one's own reason; 429 wait; else a generic failure.
 */
export function changeErrorMessage(error: unknown): AuthMessage {
  const api = asApiError(error);
  if (api?.status === 422) {
    if (api.errors?.current_password?.length) return { key: 'wrongPassword' };
    const refused = api.errors?.password?.[0];
    if (refused) return { key: passwordRefusals[refused] ?? 'weakPassword' };
    return { key: 'invalidData' };
  }
  if (api?.status === 429) return tooManyAttempts(api);
  return { key: 'changeError' };
}

/** A reset link that can no longer work: the screen offers to request a new one. */
export function needsNewResetLink(message: AuthMessage): boolean {
  return message.key === 'invalidToken' || message.key === 'tokenExpired';
}

/** External sign-in: no customer account for this person, or the sign-in failed. */
export function externalSignInErrorMessage(error: unknown): AuthMessage {
  const code = asApiError(error)?.code ?? (typeof error === 'string' ? error : undefined);
  if (code === 'no_account') return { key: 'noAccount' };
  if (code === 'external_needs_second_factor') return { key: 'externalNeedsSecondFactor' };
  return { key: 'signInFailed' };
}

/** Typed against the contract's codes; a literal, so the contract's zod stays out of the bundle. */
const reauthenticationRequired: TErrorCode = 'reauthentication_required';

/**
 * A change that adds a way into the account (a passkey, the second factor, the sign-in e-mail),
 * refused because a customer without a password signed in too long ago to prove it is them (403
 * `reauthentication_required`): they sign in again, then make it.
 */
export function needsSignInAgain(error: unknown): boolean {
  return asApiError(error)?.code === reauthenticationRequired;
}

/** Such a change refused because the current password given as proof is wrong (or missing). */
export function isWrongCurrentPassword(error: unknown): boolean {
  const api = asApiError(error);
  return api?.status === 422 && Boolean(api.errors?.current_password?.length);
}
