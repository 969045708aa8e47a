import { apiRequest } from '@/lib/api-client';
import { storeSignIn } from '@/lib/auth';
import { IncompleteAuthResponseError } from '../error-messages';

export type LoginInput = { email: string; password: string; remember: boolean };

/** `POST /login` (spec §7): stores the user and the access token, or fails. */
export async function login({ email, password, remember }: LoginInput): Promise<void> {
  const answer = await apiRequest('login', {
    body: { email: email.trim(), password, remember },
  });
  if (!storeSignIn(answer)) throw new IncompleteAuthResponseError();
}
