import { z } from 'zod';
import { requiredLine } from './texts.ts';

/**
 * The WebAuthn options the server's library made (@simplewebauthn/server) for the browser's
 * (`startRegistration`, `startAuthentication`): JSON passed through as is.
 */
export const ZWebAuthnOptions = z.record(z.string(), z.unknown());

/** What the browser's WebAuthn answered, as JSON (the library on the server checks the rest). */
export const ZCredentialResponse = z.object({
  id: z.string().min(1).max(1024),
  rawId: z.string().min(1).max(1024),
  type: z.literal('public-key'),
  response: z.record(z.string(), z.unknown()),
  clientExtensionResults: z.record(z.string(), z.unknown()),
  authenticatorAttachment: z.string().max(32).optional(),
});

/** The longest name a passkey takes (the web app's field says so too). */
export const passkeyNameMaxLength = 60;

/** A passkey's name, as the customer reads it in "your passkeys". */
export const ZPasskeyName = requiredLine(passkeyNameMaxLength);

export const ZPasskeyRegisterRequest = z.object({
  credential: ZCredentialResponse,
  name: ZPasskeyName.optional(),
});

export const ZPasskeySignInRequest = z.object({
  credential: ZCredentialResponse,
  remember: z.boolean().optional(),
});

export const ZPasskey = z.object({
  id: z.string(),
  name: z.string(),
  /** Synced to the customer's other devices by their password manager or platform. */
  backed_up: z.boolean(),
  created_at: z.iso.datetime(),
  last_used_at: z.iso.datetime().nullable(),
});
export type TPasskey = z.infer<typeof ZPasskey>;

export const ZPasskeysResponse = z.object({ passkeys: z.array(ZPasskey) });
export const ZPasskeyParams = z.object({ id: z.string().min(1).max(64) });
export const ZRenamePasskeyRequest = z.object({ name: ZPasskeyName });
