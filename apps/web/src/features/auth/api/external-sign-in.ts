import { signInStartPath } from '@portal/contract/paths';
import { apiRequest } from '@/lib/api-client';
import { storeSignIn } from '@/lib/auth';
import { getApiBase } from '@/lib/tenant';
import {
  type AuthMessage,
  externalSignInErrorMessage,
  IncompleteAuthResponseError,
} from '../error-messages';

export const signInProviders = ['google', 'apple', 'microsoft'] as const;
export type SignInProvider = (typeof signInProviders)[number];

export function isSignInProvider(value: unknown): value is SignInProvider {
  return signInProviders.includes(value as SignInProvider);
}

/** Where a provider's button sends the browser: the API redirects on to the provider. */
export function signInStartUrl(provider: SignInProvider, remember: boolean): string {
  return `${getApiBase()}${signInStartPath(provider)}?remember=${remember ? '1' : '0'}`;
}

/**
 * The provider sent the browser back with a code: the API exchanges it (`POST
 * /auth/{provider}/callback`) and answers like `/login`; the user and token are stored.
 */
export async function completeExternalSignIn(
  provider: SignInProvider,
  input: { code: string; state: string; iss?: string },
): Promise<void> {
  const answer = await apiRequest('signInCallback', { params: { provider }, body: input });
  if (!storeSignIn(answer)) throw new IncompleteAuthResponseError();
}

export type ExternalSignInResult = { ok: true } | { ok: false; message: AuthMessage };

/**
 * The return page's work: the provider's answer is in the query (`code`, `state`, `iss`, or
 * `error` when the person cancelled or the provider refused). Never throws.
 */
export async function finishExternalSignIn(
  provider: SignInProvider,
  query: URLSearchParams,
): Promise<ExternalSignInResult> {
  const code = query.get('code');
  const state = query.get('state');
  const iss = query.get('iss');
  if (query.get('error') || !code || !state) {
    return { ok: false, message: externalSignInErrorMessage(undefined) };
  }
  try {
    await completeExternalSignIn(provider, { code, state, ...(iss ? { iss } : {}) });
    return { ok: true };
  } catch (error) {
    console.warn('External sign-in failed', error);
    return { ok: false, message: externalSignInErrorMessage(error) };
  }
}
