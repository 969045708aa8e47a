import { apiRequest } from '@/lib/api-client';
import { storeSignIn } from '@/lib/auth';
import { IncompleteAuthResponseError } from '../error-messages';
import type { SecondFactorChallenge } from './second-factor';

/**
 * `POST /sign-in-link`: the same answer whether or not the address is a customer's. `next` is the
 * in-app path to open once signed in (the screen the customer was sent to sign in from).
 */
export async function requestSignInLink(email: string, next: string | null): Promise<void> {
  await apiRequest('signInLink', { body: { email, ...(next ? { next } : {}) } });
}

/**
 * `POST /sign-in-link/redeem`: stores the session as a sign-in does and answers where to go; or,
 * when the account has a second factor, the challenge for the code (nothing stored yet).
 */
export async function redeemSignInLink(
  token: string,
): Promise<{ next: string; challenge?: SecondFactorChallenge }> {
  const answer = await apiRequest('redeemSignInLink', { body: { token } });
  if ('challenge' in answer) return { next: answer.next, challenge: answer };
  if (!storeSignIn(answer)) throw new IncompleteAuthResponseError();
  return { next: answer.next };
}
