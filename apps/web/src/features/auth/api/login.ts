import { apiRequest } from '@/lib/api-client';
import { storeSignIn } from '@/lib/auth';
import { IncompleteAuthResponseError } from '../error-messages';
import type { SecondFactorChallenge } from './second-factor';

export type LoginInput = { email: string; password: string; remember: boolean };

/**
 * `POST /login` (spec §7): stores the user and the access token, or fails; or, when the account
 * has a second factor, answers the challenge for the code (issue 24) and stores nothing.
 */
export async function login({
  email,
  password,
  remember,
}: LoginInput): Promise<SecondFactorChallenge | null> {
  const answer = await apiRequest('login', {
    body: { email: email.trim(), password, remember },
  });
  if ('challenge' in answer) return answer;
  if (!storeSignIn(answer)) throw new IncompleteAuthResponseError();
  return null;
}
