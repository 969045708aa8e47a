import { z } from 'zod';
import { ZEmail } from './common.ts';
import { FieldError } from './errors.ts';
import { passwordMinLength } from './password-rules.ts';

/** The signed-in customer as the web app stores it (spec §3 "Auth state"). */
export const ZAuthUser = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  email: z.string(),
});
export type TAuthUser = z.infer<typeof ZAuthUser>;

export const ZLoginRequest = z.object({
  email: ZEmail,
  password: z.string(FieldError.required).min(1, FieldError.required).max(1024, FieldError.tooLong),
  remember: z.boolean().optional(),
});
export type TLoginRequest = z.infer<typeof ZLoginRequest>;

export const ZLoginResponse = z.object({
  access_token: z.string(),
  user: ZAuthUser,
});
export type TLoginResponse = z.infer<typeof ZLoginResponse>;

/**
 * The password (or link) was right and a code is still needed (issue 24): `code` from the app or a
 * recovery code, or `enrol` (the tenant requires one the customer has not set up). The challenge
 * goes to `/login/second-factor` with the code.
 */
export const ZSecondFactorChallenge = z.object({
  second_factor: z.enum(['code', 'enrol']),
  challenge: z.string(),
});
export type TSecondFactorChallenge = z.infer<typeof ZSecondFactorChallenge>;

/** `POST /login`: signed in, or one step more. */
export const ZPasswordLoginResponse = z.union([ZLoginResponse, ZSecondFactorChallenge]);
export type TPasswordLoginResponse = z.infer<typeof ZPasswordLoginResponse>;

/** A link redeemed: signed in, and the in-app path the link was asked from ('' for none). */
export const ZLinkSession = ZLoginResponse.extend({ next: z.string() });
export const ZRedeemSignInLinkResponse = z.union([
  ZLinkSession,
  ZSecondFactorChallenge.extend({ next: z.string() }),
]);
export type TRedeemSignInLinkResponse = z.infer<typeof ZRedeemSignInLinkResponse>;

/** Spec §4: "the response field may be accessToken or access_token"; we send both. */
export const ZRefreshResponse = z.object({
  access_token: z.string(),
  accessToken: z.string(),
});
export type TRefreshResponse = z.infer<typeof ZRefreshResponse>;

export const ZForgotPasswordRequest = z.object({ email: ZEmail });

/** An in-app path to open after signing in: absolute, same origin, no scheme, no backslash. */
export const ZNextPath = z
  .string()
  .max(300, FieldError.tooLong)
  .regex(/^\/(?![/\\])[^\s\\]*$/, FieldError.invalidFormat);

/** "Send me a link" (issue 24): the e-mail, remember-me, and where to go once signed in. */
export const ZSignInLinkRequest = z.object({
  email: ZEmail,
  remember: z.boolean().optional(),
  next: ZNextPath.optional(),
});
export type TSignInLinkRequest = z.infer<typeof ZSignInLinkRequest>;

/** The link's token, from its e-mail. */
export const ZRedeemSignInLinkRequest = z.object({
  token: z
    .string(FieldError.required)
    .min(1, FieldError.required)
    .max(512, FieldError.invalidToken),
});
export type TRedeemSignInLinkRequest = z.infer<typeof ZRedeemSignInLinkRequest>;
export type TForgotPasswordRequest = z.infer<typeof ZForgotPasswordRequest>;

export { passwordMinLength } from './password-rules.ts';

/** A password field: required, at most 1,024 characters; `min` 8 for a new one. */
const passwordField = (min: number, short: string) =>
  z.string(FieldError.required).min(min, short).max(1024, FieldError.tooLong);

/** The new password twice, as the reset and the profile's change take it (spec §5). */
const newPasswordFields = {
  password: passwordField(passwordMinLength, FieldError.tooShort),
  password_confirmation: passwordField(1, FieldError.required),
};
const confirmationMatches = {
  check: (v: { password: string; password_confirmation: string }) =>
    v.password === v.password_confirmation,
  where: { path: ['password_confirmation'], message: FieldError.mismatch },
};

export const ZResetPasswordRequest = z
  .object({
    token: z
      .string(FieldError.required)
      .min(1, FieldError.required)
      .max(512, FieldError.invalidToken),
    email: ZEmail,
    ...newPasswordFields,
  })
  .refine(confirmationMatches.check, confirmationMatches.where);
export type TResetPasswordRequest = z.infer<typeof ZResetPasswordRequest>;

/** From the profile: the current password, then the new one twice (the reset's rules). */
export const ZChangePasswordRequest = z
  .object({ current_password: passwordField(1, FieldError.required), ...newPasswordFields })
  .refine(confirmationMatches.check, confirmationMatches.where);
export type TChangePasswordRequest = z.infer<typeof ZChangePasswordRequest>;

const ZCode = z
  .string(FieldError.required)
  .trim()
  .min(1, FieldError.required)
  .max(32, FieldError.invalidCode);

/** The second step of a sign-in: the challenge and a code (six digits, or a recovery code). */
export const ZSecondFactorRequest = z.object({
  challenge: z
    .string(FieldError.required)
    .min(1, FieldError.required)
    .max(512, FieldError.invalidToken),
  code: ZCode,
});
export type TSecondFactorRequest = z.infer<typeof ZSecondFactorRequest>;

/** Signed in after the code; an enrolment just completed also answers its recovery codes, once. */
export const ZSecondFactorSession = ZLinkSession.extend({
  recovery_codes: z.array(z.string()).optional(),
});
export type TSecondFactorSession = z.infer<typeof ZSecondFactorSession>;

export const ZSecondFactorEnrolRequest = ZSecondFactorRequest.pick({ challenge: true });

/** A new authenticator secret: as text to type, and as the `otpauth://` URI its QR code holds. */
/**
 * Minutes a passwordless customer's sign-in counts as proof that it is them, for a change that adds
 * a way into the account (a customer with a password gives it instead: an access token alone is
 * never enough).
 */
export const stepUpMinutes = 10;

/**
 * Proof that the owner is asking, for a change that adds a way into the account: the current
 * password; empty for a customer who has none (signs in only by link, Google, Apple or
 * Microsoft), whose recent sign-in is the proof (`stepUpMinutes`).
 */
export const ZStepUpRequest = z.strictObject({
  current_password: z.string(FieldError.invalidType).max(1024, FieldError.tooLong).default(''),
});
export type TStepUpRequest = z.input<typeof ZStepUpRequest>;

export const ZTotpSetup = z.object({ secret: z.string(), uri: z.string() });
export type TTotpSetup = z.infer<typeof ZTotpSetup>;

/** The profile's second factor: on or off, and how many recovery codes are left unused. */
export const ZSecondFactorStatus = z.object({
  enabled: z.boolean(),
  recovery_codes_left: z.number().int().min(0),
});
export type TSecondFactorStatus = z.infer<typeof ZSecondFactorStatus>;

/** A code from the app (or, to turn it off, a recovery code). */
export const ZCodeRequest = z.object({ code: ZCode });

/** Recovery codes, shown once. */
export const ZRecoveryCodes = z.object({ recovery_codes: z.array(z.string()) });
export type TRecoveryCodes = z.infer<typeof ZRecoveryCodes>;

/** Answer of the calls that only acknowledge (forgot, reset, logout). */
export const ZAccepted = z.object({ message: z.string() });
export type TAccepted = z.infer<typeof ZAccepted>;

/** Spec §3 "User info", the answer of `GET /user/profile/{id}`. */
export const ZUserProfile = z.object({
  name: z.string(),
  lastName: z.string(),
  client_id: z.string(),
  entry_date: z.string().nullable(),
  nif: z.string(),
  address: z.string(),
  city: z.string(),
  country: z.string(),
  shipping_cp: z.string(),
  shipping_province: z.string(),
  shipping_city: z.string(),
  shipping_country: z.string(),
  shipping_address: z.string(),
  email: z.string(),
  phone: z.string(),
  contact_name: z.string(),
  invoice_email: z.string(),
  invoice_name: z.string(),
  forma_pago: z.string(),
  /**
   * Whether the customer has a password: one who only signs in with Google, Apple or Microsoft
   * has none, and the profile offers to create one (by the e-mailed reset link) instead of a change.
   */
  has_password: z.boolean(),
});
export type TUserProfile = z.infer<typeof ZUserProfile>;

export const ZUserProfileParams = z.object({ id: z.string().min(1).max(64) });

export const ZSignInProvider = z.enum(['google', 'apple', 'microsoft']);
export type TSignInProvider = z.infer<typeof ZSignInProvider>;

/** External sign-in: see `signInStartPath` in paths.ts; the web app's callback page posts here. */
export const ZOidcCallbackParams = z.object({ provider: ZSignInProvider });
export const ZOidcCallbackRequest = z.object({
  code: z.string(FieldError.required).min(1, FieldError.required).max(4096, FieldError.tooLong),
  state: z.string(FieldError.required).min(1, FieldError.required).max(512, FieldError.tooLong),
  /** The issuer the provider names in its answer (RFC 9207), passed through when present. */
  iss: z.string().max(512, FieldError.tooLong).optional(),
});
export type TOidcCallbackRequest = z.infer<typeof ZOidcCallbackRequest>;
