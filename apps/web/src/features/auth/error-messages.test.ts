import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import {
  externalSignInErrorMessage,
  IncompleteAuthResponseError,
  loginErrorMessage,
  needsNewResetLink,
  recoveryErrorMessage,
  resetErrorMessage,
} from './error-messages';

const limited = (seconds?: number) => {
  const error = new ApiError(429, 'rate_limited');
  if (seconds !== undefined) error.retryAfterSeconds = seconds;
  return error;
};

describe('error catalogue (spec §8)', () => {
  it('login: invalid credentials, incomplete answer, wait, otherwise an authentication error', () => {
    expect(loginErrorMessage(new ApiError(401, 'invalid_credentials'))).toEqual({
      key: 'invalidCredentials',
    });
    expect(loginErrorMessage(new IncompleteAuthResponseError())).toEqual({
      key: 'incompleteResponse',
    });
    expect(loginErrorMessage(limited(61))).toEqual({ key: 'tooManyAttempts', count: 2 });
    expect(loginErrorMessage(new ApiError(0, 'network_error'))).toEqual({ key: 'authError' });
    expect(loginErrorMessage(new ApiError(500, 'internal_error'))).toEqual({ key: 'authError' });
    expect(loginErrorMessage(new Error('boom'))).toEqual({ key: 'authError' });
  });

  it('the wait message rounds Retry-After up to whole minutes, at least one', () => {
    expect(loginErrorMessage(limited(1))).toEqual({ key: 'tooManyAttempts', count: 1 });
    expect(loginErrorMessage(limited(60))).toEqual({ key: 'tooManyAttempts', count: 1 });
    expect(loginErrorMessage(limited(0))).toEqual({ key: 'tooManyAttempts', count: 1 });
    expect(loginErrorMessage(limited(900))).toEqual({ key: 'tooManyAttempts', count: 15 });
    expect(loginErrorMessage(limited())).toEqual({ key: 'tooManyAttemptsLater' });
  });

  it('recovery: 422 invalid e-mail, 404 not found, 429 wait, else a send error', () => {
    expect(recoveryErrorMessage(new ApiError(422, 'validation_failed'))).toEqual({
      key: 'invalidEmail',
    });
    expect(recoveryErrorMessage(new ApiError(404, 'not_found'))).toEqual({ key: 'emailNotFound' });
    expect(recoveryErrorMessage(limited(300))).toEqual({ key: 'tooManyAttempts', count: 5 });
    expect(recoveryErrorMessage(new ApiError(503, 'service_unavailable'))).toEqual({
      key: 'sendError',
    });
  });

  it('reset: token, weak password, other 422, expired, user not found, wait, generic', () => {
    const invalid = (errors: Record<string, string[]>) =>
      new ApiError(422, 'validation_failed', errors);
    expect(resetErrorMessage(invalid({ token: ['invalid_token'] }))).toEqual({
      key: 'invalidToken',
    });
    expect(resetErrorMessage(invalid({ password: ['weak_password'] }))).toEqual({
      key: 'weakPassword',
    });
    expect(resetErrorMessage(invalid({ password: ['too_short'] }))).toEqual({
      key: 'weakPassword',
    });
    expect(resetErrorMessage(invalid({ password: ['password_common'] }))).toEqual({
      key: 'passwordCommon',
    });
    expect(resetErrorMessage(invalid({ password: ['password_contains_email'] }))).toEqual({
      key: 'passwordContainsEmail',
    });
    expect(
      resetErrorMessage(invalid({ password: ['password_contains_name', 'password_common'] })),
    ).toEqual({ key: 'passwordContainsName' });
    expect(resetErrorMessage(invalid({ password_confirmation: ['mismatch'] }))).toEqual({
      key: 'invalidData',
    });
    expect(resetErrorMessage(new ApiError(422, 'validation_failed'))).toEqual({
      key: 'invalidData',
    });
    expect(resetErrorMessage(new ApiError(400, 'reset_token_expired'))).toEqual({
      key: 'tokenExpired',
    });
    expect(resetErrorMessage(new ApiError(404, 'user_not_found'))).toEqual({
      key: 'userNotFound',
    });
    expect(resetErrorMessage(limited(120))).toEqual({ key: 'tooManyAttempts', count: 2 });
    expect(resetErrorMessage(new ApiError(0, 'network_error'))).toEqual({ key: 'resetError' });
  });

  it('offers a new reset link only when the link itself is the problem', () => {
    expect(needsNewResetLink({ key: 'tokenExpired' })).toBe(true);
    expect(needsNewResetLink({ key: 'invalidToken' })).toBe(true);
    expect(needsNewResetLink({ key: 'weakPassword' })).toBe(false);
  });

  it('external sign-in: no account, otherwise a failed sign-in', () => {
    expect(externalSignInErrorMessage(new ApiError(404, 'no_account'))).toEqual({
      key: 'noAccount',
    });
    expect(externalSignInErrorMessage('no_account')).toEqual({ key: 'noAccount' });
    // The customer has two-step verification on: sign in with the password (or a link) and code.
    expect(externalSignInErrorMessage(new ApiError(403, 'external_needs_second_factor'))).toEqual({
      key: 'externalNeedsSecondFactor',
    });
    expect(externalSignInErrorMessage(new ApiError(400, 'sign_in_failed'))).toEqual({
      key: 'signInFailed',
    });
    expect(externalSignInErrorMessage('sign_in_failed')).toEqual({ key: 'signInFailed' });
    expect(externalSignInErrorMessage(undefined)).toEqual({ key: 'signInFailed' });
  });
});
