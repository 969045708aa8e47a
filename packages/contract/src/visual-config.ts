import { z } from 'zod';

/**
 * The company behind the portal, as the legal pages name it (the information society services law,
 * LSSI art. 10, and the controller's identity of RGPD art. 13). Empty strings when not set; the
 * privacy policy names a data protection officer only when `dpo_email` is set.
 */
export const ZLegalIdentity = z.object({
  /** Registered name (razón social). */
  name: z.string(),
  /** Spanish tax id (NIF/CIF). */
  tax_id: z.string(),
  address: z.string(),
  /** The general mailbox (also where contact messages go). */
  contact_email: z.string(),
  /** Where data-protection requests go. */
  privacy_email: z.string(),
  /** The data protection officer, when the tenant has one. */
  dpo_email: z.string(),
  /** A telephone for customers (`phoneHref` makes its link). */
  phone: z.string(),
  /** The organisation's website: an https address (`parseWebsite` checks it before a link). */
  website: z.string(),
  /** Opening hours, in the organisation's own words. */
  opening_hours: z.string(),
});
export type TLegalIdentity = z.infer<typeof ZLegalIdentity>;

/** `GET /visual-config` (spec §3 "Visual config"), public. */
/** A tenant's second factor (issue 24): not offered, each customer's choice, or required. */
export const ZSecondFactorPolicy = z.enum(['off', 'optional', 'required']);
export type TSecondFactorPolicy = z.infer<typeof ZSecondFactorPolicy>;

export const ZVisualConfig = z.object({
  logo_url: z.string().nullable(),
  primary_color: z.string(),
  company_name: z.string(),
  description: z.string(),
  /** External sign-in providers configured for this tenant (PRODUCT.md): only these show a button. */
  sign_in_providers: z.array(z.enum(['google', 'apple', 'microsoft'])),
  /** The sign-in screen offers "send me a link" (issue 24; the operator turns it off). */
  sign_in_link: z.boolean(),
  /** Whether the profile offers a second factor, and whether sign-in requires one. */
  second_factor: ZSecondFactorPolicy,
  /** The sign-in screen and the profile offer passkeys (issue 24; the operator turns them off). */
  passkeys: z.boolean(),
  /**
   * The tenant pays through the local Redsys simulator: the side menu shows the testing toggle
   * that makes the simulator decline (spec §2 "Side menu").
   */
  testing_mode: z.boolean(),
  /**
   * Payments on this portal are not real: the operator put the tenant in test mode, or it pays
   * through the simulator or Redsys' test host. Every screen, /login included, says so.
   */
  test_mode: z.boolean(),
  /** The company identity and mailboxes shown on the legal pages (spec §2 "Legal pages"). */
  legal: ZLegalIdentity,
  /** The payment methods screen offers auto-pay with a saved card (issue 23; the operator's). */
  auto_pay: z.boolean(),
});
export type TVisualConfig = z.infer<typeof ZVisualConfig>;
