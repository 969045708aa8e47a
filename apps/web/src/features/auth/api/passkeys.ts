/**
 * Passkeys in the browser (@simplewebauthn/browser, issue 24). This module is loaded only when a
 * passkey is used: the sign-in screen imports it on demand, so its first load does not carry it.
 */
import {
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  startRegistration,
  WebAuthnAbortService,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import type { TPasskey } from '@portal/contract';
import { ApiError, apiRequest } from '@/lib/api-client';
import { storeSignIn } from '@/lib/auth';
import { IncompleteAuthResponseError } from '../error-messages';

export type Passkey = TPasskey;

/** The browser's answer as the contract's JSON object (its interfaces have no index type). */
const asCredential = (credential: { id: string; rawId: string; response: object }) => ({
  ...credential,
  type: 'public-key' as const,
  response: Object.fromEntries(Object.entries(credential.response)),
  clientExtensionResults: {},
});

/**
 * Signs in with a passkey: the browser's own chooser, or (`autofill`) the passkeys it offers in
 * the e-mail field's suggestions, waiting until one is picked. Stores the session as a sign-in.
 */
export async function signInWithPasskey(
  /** Read once the passkey is picked: the box may be ticked while the browser waits. */
  remember: () => boolean,
  { autofill = false }: { autofill?: boolean } = {},
): Promise<void> {
  const options = await apiRequest('passkeySignInOptions');
  const credential = await startAuthentication({
    // The server's library made these options for this one.
    optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
    useBrowserAutofill: autofill,
  });
  const answer = await apiRequest('passkeySignIn', {
    body: { credential: asCredential(credential), remember: remember() },
  });
  if (!storeSignIn(answer)) throw new IncompleteAuthResponseError();
}

/** Whether the browser offers passkeys in a field's autofill (conditional mediation). */
export const supportsPasskeyAutofill = (): Promise<boolean> => browserSupportsWebAuthnAutofill();

/** Stops a waiting autofill request (the customer signs in another way, or leaves). */
export const cancelPasskeyRequest = (): void => WebAuthnAbortService.cancelCeremony();

/**
 * Adds a passkey of this device to the signed-in customer. The current password proves it is the
 * owner (`''` for a customer who has none: their recent sign-in does).
 */
export async function addPasskey(currentPassword: string): Promise<Passkey> {
  const options = await apiRequest('passkeyRegisterOptions', {
    body: { current_password: currentPassword },
  });
  const credential = await startRegistration({
    // The server's library made these options for this one.
    optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
  });
  return apiRequest('passkeyRegister', { body: { credential: asCredential(credential) } });
}

export const listPasskeys = async (): Promise<Passkey[]> => (await apiRequest('passkeys')).passkeys;

/**
 * The server's 404 for a passkey the customer no longer has: removed from another device or tab
 * while this list was open (it answers the same for one that never was theirs).
 */
const isGone = (error: unknown): boolean =>
  error instanceof ApiError && error.status === 404 && error.code === 'not_found';

/** Renames a passkey; `'gone'` when it was removed meanwhile (nothing left to rename). */
export const renamePasskey = async (id: string, name: string): Promise<'renamed' | 'gone'> => {
  try {
    await apiRequest('renamePasskey', { params: { id }, body: { name } });
    return 'renamed';
  } catch (error) {
    if (isGone(error)) return 'gone';
    throw error;
  }
};

/**
 * Removes a passkey. One already removed (from another device or tab) counts as removed: what the
 * customer asked for is true, as for an already-ended session (sessions.ts).
 */
export const removePasskey = async (id: string): Promise<void> => {
  try {
    await apiRequest('deletePasskey', { params: { id } });
  } catch (error) {
    if (!isGone(error)) throw error;
  }
};
