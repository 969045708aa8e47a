import type { TSecondFactorChallenge, TSecondFactorStatus, TTotpSetup } from '@portal/contract';
import { apiRequest } from '@/lib/api-client';
import { storeSignIn } from '@/lib/auth';
import { IncompleteAuthResponseError } from '../error-messages';

export type SecondFactorChallenge = TSecondFactorChallenge;
export type TotpSetup = TTotpSetup;
export type SecondFactorStatus = TSecondFactorStatus;

/** What the verification screen gets from the sign-in that asked for a code. */
export type VerifyState = { challenge: string; kind: 'code' | 'enrol'; next: string };

const verifyKey = 'portal:verify-sign-in';

/**
 * Keeps the challenge for the verification screen in this tab only (session storage): the sign-in
 * screen is its own small page and reaches the app by loading it, which drops the history state.
 * It lasts 5 minutes on the server and is cleared once used.
 */
export function saveVerifyState(challenge: SecondFactorChallenge, next = ''): void {
  const state: VerifyState = {
    challenge: challenge.challenge,
    kind: challenge.second_factor,
    next,
  };
  try {
    sessionStorage.setItem(verifyKey, JSON.stringify(state));
  } catch {
    // No storage (a locked-down browser): the screen says to sign in again.
  }
}

export function readVerifyState(): VerifyState | null {
  try {
    const raw = sessionStorage.getItem(verifyKey);
    const value: unknown = raw ? JSON.parse(raw) : null;
    if (!value || typeof value !== 'object') return null;
    const { challenge, kind, next } = value as Record<string, unknown>;
    if (typeof challenge !== 'string' || (kind !== 'code' && kind !== 'enrol')) return null;
    return { challenge, kind, next: typeof next === 'string' ? next : '' };
  } catch {
    return null;
  }
}

export function clearVerifyState(): void {
  try {
    sessionStorage.removeItem(verifyKey);
  } catch {
    // Nothing kept.
  }
}

/**
 * `POST /login/second-factor`: the code after the password or link. Stores the session as a
 * sign-in does; answers where to go and, after an enrolment, the recovery codes (shown once).
 */
export async function completeSecondFactor(
  challenge: string,
  code: string,
): Promise<{ next: string; recoveryCodes: string[] }> {
  const answer = await apiRequest('secondFactorSignIn', { body: { challenge, code } });
  if (!storeSignIn(answer)) throw new IncompleteAuthResponseError();
  return { next: answer.next, recoveryCodes: answer.recovery_codes ?? [] };
}

/** `POST /login/second-factor/enrol`: the app's secret, during a sign-in that requires it. */
export const enrolDuringSignIn = (challenge: string): Promise<TotpSetup> =>
  apiRequest('secondFactorEnrol', { body: { challenge } });

export const getSecondFactorStatus = (): Promise<SecondFactorStatus> => apiRequest('secondFactor');
/** A new secret; the current password proves it is the owner (`''` for one who has none). */
export const setUpSecondFactor = (currentPassword: string): Promise<TotpSetup> =>
  apiRequest('secondFactorSetup', { body: { current_password: currentPassword } });
export const confirmSecondFactor = async (code: string): Promise<string[]> =>
  (await apiRequest('secondFactorConfirm', { body: { code } })).recovery_codes;
export const disableSecondFactor = async (code: string): Promise<void> => {
  await apiRequest('secondFactorDisable', { body: { code } });
};
