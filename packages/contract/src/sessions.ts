import { z } from 'zod';
import { FieldError } from './errors.ts';

/** How a session was opened. */
export const ZSignInMethod = z.enum(['password', 'external', 'link', 'passkey']);
export type TSignInMethod = z.infer<typeof ZSignInMethod>;

/** The kind of device, as its browser says (empty: it did not say). */
export const ZDeviceType = z.enum(['desktop', 'mobile', 'tablet', '']);
export type TDeviceType = z.infer<typeof ZDeviceType>;

/**
 * One place where the customer is signed in ("Your devices", issue 24): browser and system as the
 * server parsed them from the User-Agent when the session opened (empty when unknown), the
 * network as a prefix only (never the address, never a place), when it opened and was last used
 * (its last token refresh), and whether it is the session asking.
 */
export const ZCustomerSession = z.object({
  id: z.uuid(),
  current: z.boolean(),
  method: ZSignInMethod,
  browser: z.string(),
  os: z.string(),
  device_type: ZDeviceType,
  network: z.string(),
  created_at: z.iso.datetime(),
  last_used_at: z.iso.datetime(),
});
export type TCustomerSession = z.infer<typeof ZCustomerSession>;

export const ZSessionsResponse = z.object({ sessions: z.array(ZCustomerSession) });
export type TSessionsResponse = z.infer<typeof ZSessionsResponse>;

/** Any id the path can carry: one that names no session of the customer is a 404. */
export const ZSessionParams = z.object({ id: z.string().min(1).max(64) });

/** How many sessions a call ended (0: none was open). */
export const ZSessionsEnded = z.object({ ended: z.number().int().min(0) });
export type TSessionsEnded = z.infer<typeof ZSessionsEnded>;

/** The "was this you?" e-mail's link: its token ends the session it was sent for. */
export const ZEndSessionByLinkRequest = z.object({
  token: z
    .string(FieldError.required)
    .min(1, FieldError.required)
    .max(512, FieldError.invalidToken),
});
export type TEndSessionByLinkRequest = z.infer<typeof ZEndSessionByLinkRequest>;
