import { electronicFormatIBAN, isSEPACountry, isValidIBAN } from 'ibantools';
import { z } from 'zod';
import { languages } from './languages.ts';
import { emailPattern, ZEmail, ZPage } from './common.ts';
import { FieldError } from './errors.ts';
import { optionalLine, optionalText, requiredLine, requiredText } from './texts.ts';
import { isSpanishTaxId } from './tax-id.ts';
import { spanishBankOf } from './spanish-banks.ts';
import { ZSepaMandateAcceptance } from './sepa-mandates.ts';

// ---- Contact data the customer keeps up to date (issue 23, item 1) ----

/** A telephone as people write it: digits, an optional leading +, spaces, dots, dashes, brackets. */
export const phonePattern = /^\+?[0-9](?:[0-9 ().-]*[0-9])?$/;

/**
 * What the customer may change of their own data from the profile: the telephone, where invoices
 * are e-mailed, and the postal address. Each may be left empty; the sign-in e-mail and the fiscal
 * data are not here (the first is confirmed by e-mail, the second is the organisation's to check).
 */
export const ZContactData = z.strictObject({
  phone: optionalText(40).refine(
    (v) => v === '' || (phonePattern.test(v) && v.replace(/\D/g, '').length >= 6),
    FieldError.invalidFormat,
  ),
  invoice_email: optionalLine(254).refine(
    (v) => v === '' || emailPattern.test(v),
    FieldError.invalidEmail,
  ),
  shipping_address: optionalLine(300),
  shipping_cp: optionalText(20).refine(
    (v) => v === '' || /^[0-9A-Za-z][0-9A-Za-z -]*$/.test(v),
    FieldError.invalidFormat,
  ),
  shipping_city: optionalLine(100),
  shipping_province: optionalLine(100),
  shipping_country: optionalLine(100),
});
export type TContactData = z.infer<typeof ZContactData>;
export const contactDataFields = Object.keys(ZContactData.shape) as (keyof TContactData)[];

/** A change of contact data, as the provider reads it (webhook `customer.contact_updated`). */
export const ZContactChange = z.object({
  id: z.string(),
  customer_code: z.string(),
  /** The fields that changed, with their new values. */
  changed: ZContactData.partial(),
  changed_at: z.string(),
});
export type TContactChange = z.infer<typeof ZContactChange>;

// ---- The sign-in e-mail, changed once the new address confirms it (issue 23, item 1) ----

/** Hours the confirmation link sent to the new address works. */
export const emailChangeHours = 24;

export const ZEmailChangeRequest = z.strictObject({
  email: ZEmail,
  /** The customer's password; empty for one who only signs in with Google, Apple or Microsoft. */
  current_password: z.string(FieldError.invalidType).max(1024, FieldError.tooLong).default(''),
});
export type TEmailChangeRequest = z.input<typeof ZEmailChangeRequest>;
/** Where the confirmation link went: the sign-in e-mail does not change until it is opened. */
export const ZEmailChangeStarted = z.object({ email: z.string() });

export const ZEmailChangeConfirm = z.strictObject({
  token: z.string(FieldError.required).min(1, FieldError.required).max(200, FieldError.tooLong),
});
export const ZEmailChangeConfirmed = z.object({ email: z.string() });

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

export const ZPaymentMethodsResponse = z.object({
  methods: z.array(ZPaymentMethod),
  /**
   * Whether one more method fits under `customerLimits.paymentMethods` (saved methods and cards
   * being added): the checkout offers to keep a new card only then, and says why not otherwise.
   */
  room_for_another: z.boolean(),
});
export type TPaymentMethodsResponse = z.infer<typeof ZPaymentMethodsResponse>;

export const ZPaymentMethodParams = z.object({ id: z.string().min(1).max(64) });

/** Add a bank account (spec §5: all required; IBAN checksum; NIF/NIE/CIF). */
export const ZAddBankAccountRequest = z
  .object({
    iban: requiredText(42)
      .refine((v) => isValidIBAN(electronicFormatIBAN(v) ?? ''), {
        error: FieldError.invalidIban,
        abort: true,
      })
      // An account is saved to be debited under its SEPA mandate: one outside the SEPA area cannot
      // be, and its mandate replaced the working one (session 37).
      .refine(
        (v) => isSEPACountry((electronicFormatIBAN(v) ?? '').slice(0, 2)),
        FieldError.ibanNotSepa,
      ),
    // The debtor's name, on one line: a line break drew what looked like the mandate's own NIF and
    // IBAN fields inside its debtor box (session 37).
    holder: requiredLine(120),
    nif: requiredText(20).refine(isSpanishTaxId, FieldError.invalidNif),
    /**
     * Derived from the IBAN's bank code when known; otherwise what the customer typed, then
     * required (spec §5: all required; the web form asks for it in the same case).
     */
    entity: z.string().trim().max(120, FieldError.tooLong).optional(),
    alias: z.string().trim().max(60, FieldError.tooLong).optional(),
    ...ZSepaMandateAcceptance,
  })
  .refine(
    // Before session 38 an account whose IBAN names no known bank was saved with no entity.
    (v) =>
      Boolean(
        spanishBankOf(electronicFormatIBAN(typeof v.iban === 'string' ? v.iban : '') ?? ''),
      ) ||
      (typeof v.entity === 'string' && v.entity.trim() !== ''),
    // Checked once the fields are valid (the web form says it beside the other fields' errors).
    { path: ['entity'], error: FieldError.required },
  );
export type TAddBankAccountRequest = z.input<typeof ZAddBankAccountRequest>;

/**
 * Sign the mandate of a bank account already saved (one saved before mandates existed, or whose
 * mandate was replaced): the same acceptance as with a new account, without typing the IBAN again.
 */
export const ZSignBankAccountMandateRequest = z.object(ZSepaMandateAcceptance);
export type TSignBankAccountMandateRequest = z.input<typeof ZSignBankAccountMandateRequest>;

/** Edit a saved method: its alias, and the holder of a bank account. */
export const ZUpdatePaymentMethodRequest = z.object({
  alias: z.string().trim().max(60, FieldError.tooLong).optional(),
  holder: requiredLine(120).optional(),
});

export const ZPaymentMethodResponse = z.object({ method: ZPaymentMethod });

/** Start saving a card: a Redsys tokenisation (no card data reaches our server). */
export const ZAddCardRequest = z.object({
  alias: z.string().trim().max(60, FieldError.tooLong).optional(),
  language: z.enum(languages).optional(),
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

const ZCents = z.number().int().nonnegative();
const ZInvoiceIds = z.array(z.string()).min(1);

/**
 * What the portal itself tells a customer, as a type with its parameters (PRODUCT.md:
 * "Notifications are stored as a type with parameters ... the web app words them in the
 * customer's language"). Amounts are integer cents; the web app formats them. Written only by the
 * API's notifications module (`createNotification`), which checks the parameters with this schema.
 */
export const ZPortalNotificationEvent = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('payment_succeeded'),
    params: z.object({ payment_id: z.string(), amount_cents: ZCents, invoices: ZInvoiceIds }),
  }),
  /** A decline or a gateway error; the customer's own cancel on the gateway creates none. */
  z.object({
    type: z.literal('payment_failed'),
    params: z.object({ payment_id: z.string(), amount_cents: ZCents }),
  }),
  z.object({
    type: z.literal('payment_overpaid'),
    params: z.object({
      payment_id: z.string(),
      amount_cents: ZCents,
      refund_cents: ZCents,
      invoices: ZInvoiceIds,
      /** automatic: refunded through the gateway; manual: the tenant's team refunds it. */
      refund: z.enum(['automatic', 'manual']),
    }),
  }),
  z.object({
    type: z.literal('payment_refunded'),
    params: z.object({ payment_id: z.string(), refund_cents: ZCents, invoices: ZInvoiceIds }),
  }),
  z.object({ type: z.literal('invoice_new'), params: z.object({ invoice_id: z.string() }) }),
  /** A bank account the organisation verified (its alias as the customer named it). */
  z.object({ type: z.literal('method_verified'), params: z.object({ alias: z.string() }) }),
  z.object({
    type: z.literal('request_reviewed'),
    params: z.object({
      request: z.enum(['main_change', 'verification']),
      answer: z.enum(['approved', 'rejected']),
    }),
  }),
  /** The organisation decided the customer's fiscal data request (fiscal-data.ts). */
  z.object({
    type: z.literal('fiscal_data_reviewed'),
    params: z.object({
      answer: z.enum(['approved', 'rejected']),
      /** The organisation's reason of a rejection, shown as written; empty for an approval. */
      reason: z.string().max(500),
    }),
  }),
  /**
   * A direct debit the bank returned (issue 23, item 4): the instalment (`payment_id`) to pay again,
   * the bank's reason code, and its fee, paid with the instalment when `fee_charged`.
   */
  z.object({
    type: z.literal('debit_returned'),
    params: z.object({
      payment_id: z.string(),
      invoice_id: z.string(),
      amount_cents: ZCents,
      reason_code: z.string(),
      fee_cents: ZCents,
      fee_charged: z.boolean(),
    }),
  }),
  /** The organisation answered a conversation about an invoice (issue 23, item 7). */
  z.object({
    type: z.literal('invoice_thread_answered'),
    params: z.object({ thread_id: z.string(), invoice_id: z.string() }),
  }),
  /**
   * An auto-pay charge of an instalment was declined (Redsys' code): it stays to pay by hand;
   * `retry` says whether the card will be tried again (the tenant's retries left).
   */
  z.object({
    type: z.literal('auto_pay_failed'),
    params: z.object({
      payment_id: z.string(),
      invoice_id: z.string(),
      amount_cents: ZCents,
      code: z.string(),
      retry: z.boolean(),
    }),
  }),
]);
export type TPortalNotificationEvent = z.infer<typeof ZPortalNotificationEvent>;
export type TPortalNotificationType = TPortalNotificationEvent['type'];
export const portalNotificationTypes = ZPortalNotificationEvent.options.map(
  (o) => o.shape.type.value,
);

const notificationBase = {
  id: z.string(),
  /** YYYY-MM-DD and HH:MM in Madrid time (spec §3). */
  date: z.string(),
  time: z.string(),
  isRead: z.boolean(),
  /** Where "Acceder" leads (a route of the web app, or an https address), if anywhere. */
  link: z.string().nullable(),
};

/** One the portal created: `type` and `params`, worded by the web app in the reader's language. */
export const ZPortalNotification = z
  .object({ ...notificationBase, source: z.literal('portal') })
  .and(ZPortalNotificationEvent);

/**
 * One the organisation sent through the ingestion API (or stored before notifications had a
 * type): the spec's fields, its own title and message, shown as written.
 */
export const ZOrganisationNotification = z.object({
  ...notificationBase,
  source: z.literal('organisation'),
  type: z.string(),
  title: z.string(),
  message: z.string(),
});

export const ZNotification = z.union([ZPortalNotification, ZOrganisationNotification]);
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
  name: requiredLine(120),
  company: requiredLine(120),
  subject: requiredLine(200),
  message: requiredText(contactMessageMaxLength),
  acceptPrivacy: z.literal(true, FieldError.privacyRequired),
});
export type TContactRequest = z.input<typeof ZContactRequest>;
export const ZContactResponse = z.object({ id: z.string(), message: z.string() });
