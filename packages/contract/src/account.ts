import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import { z } from 'zod';
import { ZPage } from './common.ts';
import { FieldError } from './errors.ts';
import { isSpanishTaxId } from './tax-id.ts';

/** A required text: trimmed, not empty, bounded. */
const text = (max: number) =>
  z
    .string(FieldError.required)
    .trim()
    // abort: an empty field reports only "required", not also the format checks that follow.
    .min(1, { error: FieldError.required, abort: true })
    .max(max, { error: FieldError.tooLong, abort: true });

// ---- Payment methods (spec §2 "Payment methods" and the add/view screens) ----

export const ZPaymentMethodKind = z.enum(['card', 'bank_account', 'bank_transfer']);

export const ZPaymentMethod = z.object({
  id: z.string(),
  kind: ZPaymentMethodKind,
  alias: z.string(),
  holder: z.string(),
  /** active | inactive | unverified (spec: "No verificada" until the provider verifies it). */
  status: z.enum(['active', 'inactive', 'unverified']),
  is_main: z.boolean(),
  card_brand: z.string().nullable(),
  card_masked: z.string().nullable(),
  /** MM/AA */
  card_expiry: z.string().nullable(),
  iban: z.string().nullable(),
  nif: z.string().nullable(),
  entity: z.string().nullable(),
  created_at: z.string(),
  /** The newest request of the customer the provider has not reviewed yet. */
  pending_request: z.enum(['main_change', 'verification']).nullable(),
  /** Every kind of request still waiting for the provider (a verification and a main change may). */
  pending_requests: z.array(z.enum(['main_change', 'verification'])),
});
export type TPaymentMethod = z.infer<typeof ZPaymentMethod>;

export const ZPaymentMethodsResponse = z.object({ methods: z.array(ZPaymentMethod) });
export type TPaymentMethodsResponse = z.infer<typeof ZPaymentMethodsResponse>;

export const ZPaymentMethodParams = z.object({ id: z.string().min(1).max(64) });

/** Add a bank account (spec §5: all required; IBAN checksum; NIF/NIE/CIF). */
export const ZAddBankAccountRequest = z.object({
  iban: text(42).refine((v) => isValidIBAN(electronicFormatIBAN(v) ?? ''), FieldError.invalidIban),
  holder: text(120),
  nif: text(20).refine(isSpanishTaxId, FieldError.invalidNif),
  /** Derived from the IBAN's bank code when known; otherwise what the customer typed. */
  entity: z.string().trim().max(120, FieldError.tooLong).optional(),
  alias: z.string().trim().max(60, FieldError.tooLong).optional(),
});
export type TAddBankAccountRequest = z.input<typeof ZAddBankAccountRequest>;

/** Edit a saved method: its alias, and the holder of a bank account. */
export const ZUpdatePaymentMethodRequest = z.object({
  alias: z.string().trim().max(60, FieldError.tooLong).optional(),
  holder: text(120).optional(),
});

export const ZPaymentMethodResponse = z.object({ method: ZPaymentMethod });

/** Start saving a card: a Redsys tokenisation (no card data reaches our server). */
export const ZAddCardRequest = z.object({
  alias: z.string().trim().max(60, FieldError.tooLong).optional(),
  language: z.enum(['es', 'ca', 'en', 'eu']).optional(),
});

/** The tenant's account for bank transfers, with the reference the customer should use. */
export const ZBankTransferInfo = z.object({
  iban: z.string(),
  beneficiary: z.string(),
  reference: z.string(),
  /** EPC QR (SEPA credit transfer) payload, to draw as a QR code a banking app can scan. */
  epc_qr: z.string(),
});
export type TBankTransferInfo = z.infer<typeof ZBankTransferInfo>;

export const ZRequestResponse = z.object({
  request_id: z.string(),
  status: z.enum(['pending', 'approved', 'rejected']),
});

// ---- Notifications (spec §2 "Notifications") ----

export const ZNotification = z.object({
  id: z.string(),
  title: z.string(),
  message: z.string(),
  /** YYYY-MM-DD and HH:MM in Madrid time (spec §3). */
  date: z.string(),
  time: z.string(),
  isRead: z.boolean(),
  type: z.string(),
  /** Where "Acceder" leads (a route of the web app), if anywhere. */
  link: z.string().nullable(),
  /**
   * What the notification is about, for the web app to word it in the reader's language (amounts
   * in cents, invoice ids); null for notifications that carry only their own title and message.
   */
  params: z.record(z.string(), z.union([z.string(), z.number(), z.array(z.string())])).nullable(),
});
export type TNotification = z.infer<typeof ZNotification>;

export const ZNotificationsRequest = z.object({
  filter: z.enum(['all', 'read', 'unread']).optional(),
  page: ZPage.optional(),
});
export type TNotificationsRequest = z.input<typeof ZNotificationsRequest>;

export const ZNotificationsResponse = z.object({
  notifications: z.array(ZNotification),
  has_more: z.boolean(),
  unread: z.number().int(),
});
export type TNotificationsResponse = z.infer<typeof ZNotificationsResponse>;

export const ZUnreadCountResponse = z.object({ unread: z.number().int() });

export const ZNotificationIdsRequest = z.object({
  ids: z.array(z.string().min(1).max(64)).min(1, FieldError.required).max(200, FieldError.tooBig),
});
export const ZCountResponse = z.object({ count: z.number().int() });

// ---- Contact (spec §2 "Contact", §5) ----

export const contactMessageMaxLength = 5000;

export const ZContactRequest = z.object({
  name: text(120),
  company: text(120),
  subject: text(200),
  message: text(contactMessageMaxLength),
  acceptPrivacy: z.literal(true, FieldError.privacyRequired),
});
export type TContactRequest = z.input<typeof ZContactRequest>;
export const ZContactResponse = z.object({ id: z.string(), message: z.string() });
