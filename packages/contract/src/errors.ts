import { z } from 'zod';

/**
 * Every error the API answers carries one of these codes. The web app translates codes, never the
 * server's `message` (which is English prose for logs and third-party clients).
 */
export const ErrorCode = {
  validationFailed: 'validation_failed',
  badRequest: 'bad_request',
  unauthorized: 'unauthorized',
  tokenExpired: 'token_expired',
  forbidden: 'forbidden',
  notFound: 'not_found',
  /**
   * The saved card named is not one of the customer's (removed meanwhile, or never theirs): a 404
   * like any other id, with its own code so the confirmation can say so and offer the cards still
   * saved (session 39: it read as "what you are paying was not found").
   */
  cardNotFound: 'card_not_found',
  tenantNotFound: 'tenant_not_found',
  conflict: 'conflict',
  payloadTooLarge: 'payload_too_large',
  unsupportedMediaType: 'unsupported_media_type',
  rateLimited: 'rate_limited',
  internal: 'internal_error',
  unavailable: 'service_unavailable',
  invalidCredentials: 'invalid_credentials',
  resetTokenExpired: 'reset_token_expired',
  userNotFound: 'user_not_found',
  /** External sign-in: the provider's person matches no customer of this tenant. */
  noAccount: 'no_account',
  /**
   * External sign-in: the person's verified e-mail is a customer's who has two-step verification
   * on, and no provider account is linked to it yet. Linking by the e-mail alone would skip the
   * code (control of the mailbox is all it proves): the customer signs in with the password and
   * the code.
   */
  externalNeedsSecondFactor: 'external_needs_second_factor',
  /** External sign-in: state, nonce or code exchange failed, or the provider is not configured. */
  signInFailed: 'sign_in_failed',
  /** A sign-in link past its time (issue 24): ask for a new one. */
  signInLinkExpired: 'sign_in_link_expired',
  /** The link that confirms a new sign-in e-mail is past its 24 hours: ask for the change again. */
  emailChangeExpired: 'email_change_expired',
  /**
   * A change that adds a way into the account (a passkey, the second factor, the sign-in e-mail)
   * by a customer who has no password to prove it is them, on a session signed in more than
   * `stepUpMinutes` ago: sign in again, then make it (403).
   */
  reauthenticationRequired: 'reauthentication_required',
  /** The step between the password (or link) and the code expired or took too many codes. */
  challengeExpired: 'sign_in_challenge_expired',
  /** The tenant requires a second factor: it cannot be turned off. */
  secondFactorRequired: 'second_factor_required',
  /** The tenant does not offer this way of signing in (the operator turned it off). */
  signInMethodOff: 'sign_in_method_off',
  /** Another payment of the same instalment is still waiting for the gateway's answer. */
  paymentInProgress: 'payment_in_progress',
  /** The tenant has no card gateway configured. */
  paymentUnavailable: 'payment_unavailable',
  /** The main method, or one with a pending request, cannot be deleted. */
  methodInUse: 'method_in_use',
  /** The bank account already has an active SEPA mandate: nothing to sign (409). */
  mandateActive: 'mandate_active',
  /** The tenant has no SEPA creditor identifier: no mandate is signed in the portal (409). */
  mandatesUnavailable: 'mandates_unavailable',
  // Per-customer caps (customer-limits.ts), all 409.
  /** The customer already keeps `customerLimits.paymentMethods` methods. */
  paymentMethodLimit: 'payment_method_limit',
  /** `customerLimits.pendingRequests` requests already wait for the provider's review. */
  pendingRequestLimit: 'pending_request_limit',
  /** `customerLimits.pendingCardAttempts` card additions already wait for the gateway. */
  cardAttemptLimit: 'card_attempt_limit',
  // Fiscal data requests (fiscal-data.ts), all 409.
  /** A request already waits for the organisation: withdraw it before asking again. */
  fiscalRequestPending: 'fiscal_request_pending',
  /** The request was already approved, rejected or withdrawn: it cannot be decided or withdrawn. */
  fiscalRequestClosed: 'fiscal_request_closed',
  /** What was asked for is the fiscal data as it stands: nothing to review. */
  fiscalDataUnchanged: 'fiscal_data_unchanged',
  /** `customerLimits.openInvoiceThreads` conversations about invoices are already open. */
  invoiceThreadLimit: 'invoice_thread_limit',
  /** The conversation was closed by the organisation: nobody writes in it any more. */
  invoiceThreadClosed: 'invoice_thread_closed',
  /** The tenant does not offer auto-pay (403). */
  autoPayNotAllowed: 'auto_pay_not_allowed',
  /** This saved card cannot pay without the customer (no COF transaction id, expired): 409. */
  autoPayCardUnsupported: 'auto_pay_card_unsupported',
} as const;
export type TErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
export const ZErrorCode = z.enum(Object.values(ErrorCode) as [TErrorCode, ...TErrorCode[]]);

/**
 * Codes of one field's validation failure (spec §5 "Generic messages"): the web app maps each to a
 * translated text. Schemas of the contract use these strings as their zod error messages.
 */
export const FieldError = {
  required: 'required',
  invalidFormat: 'invalid_format',
  invalidEmail: 'invalid_email',
  invalidDate: 'invalid_date',
  invalidRange: 'invalid_range',
  tooShort: 'too_short',
  tooLong: 'too_long',
  tooSmall: 'too_small',
  tooBig: 'too_big',
  invalidType: 'invalid_type',
  invalidValue: 'invalid_value',
  unknownField: 'unknown_field',
  invalidToken: 'invalid_token',
  weakPassword: 'weak_password',
  // A new password that is refused (password-rules.ts); `too_short` under 8 characters.
  /** One of the most common passwords of the public leaked-password lists. */
  passwordCommon: 'password_common',
  /** Contains the account's e-mail (its local part, or a piece of it). */
  passwordContainsEmail: 'password_contains_email',
  /** Contains the organisation's name (or a word of it). */
  passwordContainsName: 'password_contains_name',
  mismatch: 'mismatch',
  /** The current password given to change it is not the account's. */
  wrongPassword: 'wrong_password',
  /** A second-factor code (from the app, or a recovery code) that is not right, or used before. */
  invalidCode: 'invalid_code',
  /** The amount sent differs from what the server computes from the unpaid instalments. */
  amountMismatch: 'amount_mismatch',
  /** An instalment that is already paid or cancelled, or an invoice with nothing to pay. */
  notPayable: 'not_payable',
  invalidIban: 'invalid_iban',
  /** A valid IBAN of a country outside the SEPA area: it cannot be debited under a SEPA mandate. */
  ibanNotSepa: 'iban_not_sepa',
  invalidNif: 'invalid_nif',
  /** Spec §5: "Debe aceptar la política de privacidad". */
  privacyRequired: 'privacy_required',
  // Ingestion API (admin-ingestion.ts): per-item errors of a rejected batch.
  /** A `customer_code` that names no customer of the tenant (nor one of the same batch). */
  unknownCustomer: 'unknown_customer',
  /** A key (id, code, line_no, seq, e-mail) that appears twice in one batch. */
  duplicate: 'duplicate',
  /** `total_cents` is not `base_cents + vat_cents`, or the instalments do not add up to it. */
  totalMismatch: 'total_mismatch',
  /** The instalment is paid or part of a pending card payment: its amount and status stay. */
  instalmentLocked: 'instalment_locked',
  /** The e-mail belongs to another customer of the tenant. */
  emailTaken: 'email_taken',
  /** No instalment with this invoice id and sequence number. */
  unknownInstalment: 'unknown_instalment',
  // Every call (input-safety.ts): what no field of any request accepts.
  /** A NUL byte or another control character, or a broken (lone surrogate) character. */
  invalidCharacters: 'invalid_characters',
  /** Adding a bank account for direct debit without accepting its SEPA mandate (issue 23, item 6). */
  mandateRequired: 'mandate_required',
} as const;
export type TFieldError = (typeof FieldError)[keyof typeof FieldError];
export const fieldErrorCodes: ReadonlySet<string> = new Set(Object.values(FieldError));

/** Body of every non-validation error. */
export const ZErrorBody = z.object({
  message: z.string(),
  code: ZErrorCode,
});
export type TErrorBody = z.infer<typeof ZErrorBody>;

/** Body of a 422: the shape spec §8 reads (`errors.token`, `errors.password`). */
export const ZValidationErrorBody = z.object({
  message: z.string(),
  code: z.literal(ErrorCode.validationFailed),
  errors: z.record(z.string(), z.array(z.string())),
});
export type TValidationErrorBody = z.infer<typeof ZValidationErrorBody>;
