import { z } from 'zod';
import { languages } from './languages.ts';
import { emailPattern, isApiDate, ZEmail } from './common.ts';
import { pageQueryFields } from './admin-paging.ts';
import { ZContactChange } from './account.ts';
import { FieldError } from './errors.ts';
import { isNotificationLink, notificationLinkMaxLength } from './links.ts';
import { returnFeeMaxCents, returnReasonPattern } from './returned-debits.ts';
import type { TRouteDef } from './routes.ts';

/**
 * The ingestion API (issue 10): the provider's management software pushes its customers, invoices,
 * instalment states and notifications. Every item is keyed by the provider's own id, every batch is
 * applied whole or not at all, and replaying a batch changes nothing. Dates are ISO `yyyy-mm-dd`
 * (the provider's side, unlike the customer calls' `yyyymmdd`), money is integer cents.
 * docs/ingestion.md describes the rules.
 */

/** Largest number of items of one batch. */
export const ingestionBatchMax = 10_000;
/** A batch of 10,000 invoices with their lines is several MB of JSON. */
const batchBodyLimit = 64 * 1024 * 1024;

/** True when `value` is an ISO `yyyy-mm-dd` naming a real calendar day. */
export function isIsoDate(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && isApiDate(value.replaceAll('-', ''));
}

/** An instant with its offset (ISO 8601), e.g. `2026-11-26T10:15:00Z` or `...+01:00`. */
export const ZDateTime = z
  .string(FieldError.invalidDate)
  .refine(
    (v) =>
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/.test(v) &&
      isIsoDate(v.slice(0, 10)) &&
      !Number.isNaN(Date.parse(v)),
    FieldError.invalidDate,
  )
  .meta({ format: 'date-time', examples: ['2026-11-26T10:15:00Z'] });

export const ZIsoDate = z
  .string(FieldError.invalidDate)
  .refine(isIsoDate, FieldError.invalidDate)
  .meta({ format: 'date', examples: ['2026-03-01'] });

/** A provider's key: its customer code, invoice number or notification id. */
const ZKey = z
  .string(FieldError.required)
  .trim()
  .min(1, FieldError.required)
  .max(64, FieldError.tooLong);

const text = (max: number) =>
  z.string(FieldError.invalidType).trim().max(max, FieldError.tooLong).default('');

/** Integer cents; ten thousand million euros either way is far beyond any invoice. */
const ZCents = z
  .number(FieldError.invalidType)
  .int(FieldError.invalidType)
  .min(-1e12, FieldError.tooSmall)
  .max(1e12, FieldError.tooBig);
const ZPositiveCents = ZCents.min(1, FieldError.tooSmall);

const hasDecimals = (n: number, places: number) =>
  Math.abs(Math.round(n * 10 ** places) - n * 10 ** places) < 1e-6;

const batch = <T extends z.ZodType>(item: T) =>
  z
    .array(item, FieldError.required)
    .min(1, FieldError.required)
    .max(ingestionBatchMax, FieldError.tooBig);

export const ZLanguage = z.enum(languages, FieldError.invalidValue);

/** What every batch call answers: how many items it created, changed, and found as they were. */
export const ZBatchResult = z
  .object({
    created: z.number().int(),
    updated: z.number().int(),
    unchanged: z.number().int(),
  })
  .meta({ examples: [{ created: 2, updated: 1, unchanged: 9997 }] });
export type TBatchResult = z.infer<typeof ZBatchResult>;

// ---- Customers ----

/** Spec §3 "User info" as the provider keeps it; the portal never receives a password. */
export const ZIngestCustomer = z.strictObject({
  /** The provider's customer code (the spec's `client_id`), unique per tenant. */
  code: ZKey,
  email: ZEmail,
  name: text(200),
  last_name: text(200),
  nif: text(32),
  address: text(300),
  city: text(100),
  country: z.string(FieldError.invalidType).trim().max(100, FieldError.tooLong).default('España'),
  shipping_cp: text(20),
  shipping_province: text(100),
  shipping_city: text(100),
  shipping_country: text(100),
  shipping_address: text(300),
  phone: text(40),
  contact_name: text(200),
  invoice_email: z
    .string(FieldError.invalidType)
    .trim()
    .max(254, FieldError.tooLong)
    .refine((s) => s === '' || emailPattern.test(s), FieldError.invalidEmail)
    .default(''),
  invoice_name: text(200),
  /** The spec's `forma_pago`: how the customer usually pays, as the provider words it. */
  payment_method_label: text(100),
  entry_date: ZIsoDate.nullable().default(null),
  language: ZLanguage.default('es'),
  /** A customer this batch creates gets an e-mail to set a password (default true). */
  send_invitation: z.boolean(FieldError.invalidType).default(true),
  /**
   * When the contact data sent (phone, invoice e-mail, postal address) last changed in the
   * provider's system. A field the customer changed in the portal later than this (or with no
   * date) is kept, and listed in `kept` (docs/decisions/035).
   */
  contact_updated_at: ZDateTime.optional(),
  /** The same for the fiscal data (invoice name, NIF, fiscal address, city, country). */
  fiscal_updated_at: ZDateTime.optional(),
  /** Overwrite what the customer changed in the portal whatever the dates (default false). */
  override_portal_changes: z.boolean(FieldError.invalidType).default(false),
});
export type TIngestCustomer = z.infer<typeof ZIngestCustomer>;

/**
 * Contact and fiscal fields the portal changes (the customer's contact data, an approved fiscal
 * data request): a provider's write does not silently revert them (docs/decisions/035).
 */
export const portalContactFields = [
  'phone',
  'invoice_email',
  'shipping_address',
  'shipping_cp',
  'shipping_city',
  'shipping_province',
  'shipping_country',
] as const;
export const portalFiscalFields = ['invoice_name', 'nif', 'address', 'city', 'country'] as const;
export const ZPortalChangedField = z.enum([...portalContactFields, ...portalFiscalFields]);
export type TPortalChangedField = z.infer<typeof ZPortalChangedField>;

/** A field of a customer the batch did not overwrite: the portal's value is newer. */
export const ZKeptPortalChange = z.object({
  code: z.string(),
  field: ZPortalChangedField,
  /** When it changed in the portal; send a later `*_updated_at` (or override) to overwrite it. */
  changed_at: z.iso.datetime({ offset: true }),
});
export type TKeptPortalChange = z.infer<typeof ZKeptPortalChange>;

const customerExample = {
  code: 'C-000789',
  email: 'marta.soler@example.com',
  name: 'Marta',
  last_name: 'Soler Vidal',
  nif: '12345678Z',
  address: 'Carrer Major 12, 2n 1a',
  city: 'Girona',
  country: 'España',
  phone: '+34 600 123 456',
  payment_method_label: 'Domiciliación bancaria',
  entry_date: '2024-09-01',
  language: 'ca',
};

export const ZIngestCustomersRequest = z
  .strictObject({ customers: batch(ZIngestCustomer) })
  .meta({ examples: [{ customers: [customerExample] }] });
export type TIngestCustomersRequest = z.input<typeof ZIngestCustomersRequest>;

export const ZIngestCustomersResult = ZBatchResult.extend({
  /** Invitations queued for the customers created (sent by the outbox shortly after). */
  invited: z.number().int(),
  /**
   * Fields the batch sent but the portal kept, because the customer (or an approved fiscal data
   * request) changed them later than the batch's `*_updated_at` says (docs/decisions/035).
   */
  kept: z.array(ZKeptPortalChange),
}).meta({
  examples: [
    {
      created: 1,
      updated: 1,
      unchanged: 0,
      invited: 1,
      kept: [{ code: 'C-000790', field: 'phone', changed_at: '2026-11-20T18:02:11.000Z' }],
    },
  ],
});
export type TIngestCustomersResult = z.infer<typeof ZIngestCustomersResult>;

// ---- Invoices ----

export const ZIngestInvoiceLine = z.strictObject({
  line_no: z
    .number(FieldError.invalidType)
    .int(FieldError.invalidType)
    .min(1, FieldError.tooSmall)
    .max(100_000, FieldError.tooBig),
  /** Who the line is for (a family member, a student...). */
  person: text(200),
  concept: z
    .string(FieldError.required)
    .trim()
    .min(1, FieldError.required)
    .max(500, FieldError.tooLong),
  quota: text(200),
  quantity: z
    .number(FieldError.invalidType)
    .min(-1e8, FieldError.tooSmall)
    .max(1e8, FieldError.tooBig)
    .refine((n) => hasDecimals(n, 3), FieldError.invalidFormat),
  unit_price_cents: ZCents,
  /** Percent, up to two decimals (21, 10, 4, 0...). */
  vat_rate: z
    .number(FieldError.invalidType)
    .min(0, FieldError.tooSmall)
    .max(100, FieldError.tooBig)
    .refine((n) => hasDecimals(n, 2), FieldError.invalidFormat),
});

export const ZInstalmentStatus = z.enum(
  ['pending', 'paid', 'returned', 'cancelled'],
  FieldError.invalidValue,
);

/** `paid_date` goes with `paid` and only with it. */
function paidDateRule(
  i: { status?: string | undefined; paid_date?: string | undefined },
  ctx: z.RefinementCtx,
) {
  if (i.status === 'paid' && !i.paid_date)
    ctx.addIssue({ code: 'custom', path: ['paid_date'], message: FieldError.required });
  if (i.status !== 'paid' && i.paid_date)
    ctx.addIssue({ code: 'custom', path: ['paid_date'], message: FieldError.invalidValue });
}

export const ZIngestInstalment = z
  .strictObject({
    /** The instalment's number within its invoice (1, 2, ...). */
    seq: z
      .number(FieldError.invalidType)
      .int(FieldError.invalidType)
      .min(1, FieldError.tooSmall)
      .max(1000, FieldError.tooBig),
    due_date: ZIsoDate,
    amount_cents: ZPositiveCents,
    /** How it is collected ("Domiciliación", "Transferencia"); kept as it is when absent. */
    method: z.string(FieldError.invalidType).trim().max(100, FieldError.tooLong).optional(),
    /**
     * State of a NEW instalment (default pending); an existing instalment's state changes only
     * through `POST /admin/instalments/status` (or a card payment), so here it is ignored.
     */
    status: ZInstalmentStatus.optional(),
    paid_date: ZIsoDate.optional(),
  })
  .superRefine(paidDateRule);

export const ZIngestInvoice = z.strictObject({
  /** The provider's invoice number, unique per tenant. */
  id: ZKey,
  customer_code: ZKey,
  invoice_date: ZIsoDate,
  base_cents: ZCents,
  vat_cents: ZCents,
  /** Must equal `base_cents + vat_cents`, and the sum of the instalments. */
  total_cents: ZCents,
  cancelled: z.boolean(FieldError.invalidType).default(false),
  /** The invoice's complete lines: lines it had that are not here are removed. */
  lines: z.array(ZIngestInvoiceLine).max(500, FieldError.tooBig).default([]),
  /** The invoice's complete instalments (none when the total is zero or negative). */
  instalments: z.array(ZIngestInstalment).max(100, FieldError.tooBig).default([]),
});
export type TIngestInvoice = z.infer<typeof ZIngestInvoice>;

const invoiceExample = {
  id: 'FV-2026-000123',
  customer_code: 'C-000789',
  invoice_date: '2026-03-01',
  base_cents: 5000,
  vat_cents: 1050,
  total_cents: 6050,
  lines: [
    {
      line_no: 1,
      person: 'Pau Soler',
      concept: 'Cuota mensual',
      quota: 'Marzo 2026',
      quantity: 1,
      unit_price_cents: 5000,
      vat_rate: 21,
    },
  ],
  instalments: [
    { seq: 1, due_date: '2026-03-05', amount_cents: 3025, method: 'Domiciliación' },
    {
      seq: 2,
      due_date: '2026-04-05',
      amount_cents: 3025,
      method: 'Domiciliación',
      status: 'paid',
      paid_date: '2026-04-05',
    },
  ],
};

export const ZIngestInvoicesRequest = z
  .strictObject({ invoices: batch(ZIngestInvoice) })
  .meta({ examples: [{ invoices: [invoiceExample] }] });
export type TIngestInvoicesRequest = z.input<typeof ZIngestInvoicesRequest>;

// ---- Instalment states ----

export const ZInstalmentStatusChange = z
  .strictObject({
    invoice_id: ZKey,
    seq: z
      .number(FieldError.invalidType)
      .int(FieldError.invalidType)
      .min(1, FieldError.tooSmall)
      .max(1000, FieldError.tooBig),
    status: ZInstalmentStatus,
    /** Required with `paid`, refused otherwise. */
    paid_date: ZIsoDate.optional(),
    /**
     * With `returned` only: the bank's SEPA reason (ISO 20022, e.g. `AM04`); absent, `MS03` (the
     * bank gave no reason). The return is told like one of `POST /admin/instalments/returns`.
     */
    return_reason_code: z
      .string(FieldError.invalidType)
      .trim()
      .regex(returnReasonPattern, FieldError.invalidFormat)
      .optional(),
    /** With `returned` only: what the bank charged for the return, integer cents (absent: 0). */
    return_fee_cents: z
      .number(FieldError.invalidType)
      .int(FieldError.invalidType)
      .min(0, FieldError.tooSmall)
      .max(returnFeeMaxCents, FieldError.tooBig)
      .optional(),
  })
  .superRefine(paidDateRule)
  .superRefine((c, ctx) => {
    if (c.status === 'returned') return;
    for (const field of ['return_reason_code', 'return_fee_cents'] as const)
      if (c[field] !== undefined)
        ctx.addIssue({ code: 'custom', path: [field], message: FieldError.invalidValue });
  });
export type TInstalmentStatusChange = z.infer<typeof ZInstalmentStatusChange>;

export const ZInstalmentStatusRequest = z
  .strictObject({ changes: batch(ZInstalmentStatusChange) })
  .meta({
    examples: [
      {
        changes: [
          { invoice_id: 'FV-2026-000123', seq: 1, status: 'paid', paid_date: '2026-03-05' },
          {
            invoice_id: 'FV-2026-000098',
            seq: 1,
            status: 'returned',
            return_reason_code: 'AM04',
            return_fee_cents: 350,
          },
        ],
      },
    ],
  });
export type TInstalmentStatusRequest = z.input<typeof ZInstalmentStatusRequest>;

// ---- Notifications ----

/** A page of the portal (`/invoice-detail/F-1`) or an `https://` address: links.ts says which. */
const ZAppLink = z
  .string(FieldError.invalidType)
  .max(notificationLinkMaxLength, { error: FieldError.tooLong, abort: true })
  .refine(isNotificationLink, FieldError.invalidFormat)
  .meta({ examples: ['/invoice-detail/FV-2026-000123', 'https://club.example/horarios'] });

export const ZIngestNotification = z.strictObject({
  /** The provider's notification id: a notification is created once, whatever the replays. */
  id: ZKey,
  customer_code: ZKey,
  type: z
    .string(FieldError.invalidType)
    .regex(/^[a-z0-9_]{1,32}$/, FieldError.invalidFormat)
    .default('info'),
  title: z
    .string(FieldError.required)
    .trim()
    .min(1, FieldError.required)
    .max(200, FieldError.tooLong),
  message: z
    .string(FieldError.required)
    .trim()
    .min(1, FieldError.required)
    .max(2000, FieldError.tooLong),
  link: ZAppLink.optional(),
});
export type TIngestNotification = z.infer<typeof ZIngestNotification>;

export const ZIngestNotificationsRequest = z
  .strictObject({ notifications: batch(ZIngestNotification) })
  .meta({
    examples: [
      {
        notifications: [
          {
            id: 'N-2026-0042',
            customer_code: 'C-000789',
            type: 'info',
            title: 'Cierre por vacaciones',
            message: 'La oficina estará cerrada del 1 al 15 de agosto.',
          },
        ],
      },
    ],
  });
export type TIngestNotificationsRequest = z.input<typeof ZIngestNotificationsRequest>;

// ---- Payment method requests ----

export const ZReviewParams = z.object({ id: z.string().min(1).max(64) });
export const ZReviewRequest = z
  .strictObject({ status: z.enum(['approved', 'rejected'], FieldError.invalidValue) })
  .meta({ examples: [{ status: 'approved' }] });
export type TReviewRequest = z.input<typeof ZReviewRequest>;
export const ZReviewResponse = z
  .object({
    request_id: z.string(),
    kind: z.enum(['main_change', 'verification']),
    payment_method_id: z.string(),
    status: z.enum(['approved', 'rejected']),
    /** False when the request already had this answer (a replay). */
    changed: z.boolean(),
  })
  .meta({
    examples: [
      {
        request_id: '5b0c8c2e-6f1d-4a57-9a53-2f0f3a1d9e10',
        kind: 'main_change',
        payment_method_id: '0e7f5a34-1c1b-4d0e-8a9e-3f4b1c2d5e6f',
        status: 'approved',
        changed: true,
      },
    ],
  });
export type TReviewResponse = z.infer<typeof ZReviewResponse>;

// ---- Payment method requests waiting for review ----

const exampleRequestId = '5b0c8c2e-6f1d-4a57-9a53-2f0f3a1d9e10';
const exampleRequest = {
  request_id: exampleRequestId,
  kind: 'verification',
  status: 'pending',
  customer_code: 'C-000789',
  payment_method: {
    id: '0e7f5a34-1c1b-4d0e-8a9e-3f4b1c2d5e6f',
    kind: 'bank_account',
    alias: 'Cuenta familiar',
    holder: 'Marta Soler Vidal',
    card_masked: null,
    iban: 'ES9121000418450200051332',
    nif: '12345678Z',
    entity: 'CaixaBank',
    deleted: false,
  },
  created_at: '2026-11-21T10:00:00.000Z',
  reviewed_at: null,
};

export const ZRequestStatus = z.enum(['pending', 'approved', 'rejected'], FieldError.invalidValue);

/** A customer's request as the provider reviews it (the same fields as the webhook's `data`). */
export const ZPaymentMethodRequest = z
  .object({
    request_id: z.string(),
    kind: z.enum(['main_change', 'verification']),
    status: ZRequestStatus,
    customer_code: z.string(),
    payment_method: z.object({
      id: z.string(),
      kind: z.enum(['card', 'bank_account', 'bank_transfer']),
      alias: z.string(),
      holder: z.string(),
      /** A card's masked number (`454881******0004`); null for a bank account. */
      card_masked: z.string().nullable(),
      iban: z.string().nullable(),
      nif: z.string().nullable(),
      entity: z.string().nullable(),
      /** The customer deleted the method after asking: the request can only be rejected. */
      deleted: z.boolean(),
    }),
    created_at: z.iso.datetime(),
    /** When the provider answered; null while pending. */
    reviewed_at: z.iso.datetime().nullable(),
  })
  .meta({ examples: [exampleRequest] });
export type TPaymentMethodRequest = z.infer<typeof ZPaymentMethodRequest>;

export const ZPaymentMethodRequestsQuery = z.object({
  status: ZRequestStatus.optional().meta({
    description: 'Only requests in this state (`pending`: those waiting for review)',
    examples: ['pending'],
  }),
  ...pageQueryFields('Requests', exampleRequestId),
});
export type TPaymentMethodRequestsQuery = z.input<typeof ZPaymentMethodRequestsQuery>;

export const ZPaymentMethodRequestsResponse = z
  .object({
    /** Newest first. */
    requests: z.array(ZPaymentMethodRequest),
    /** Pass as `before` for the next (older) page; null on the last page. */
    next_cursor: z.string().nullable(),
  })
  .meta({ examples: [{ requests: [exampleRequest], next_cursor: null }] });
export type TPaymentMethodRequestsResponse = z.infer<typeof ZPaymentMethodRequestsResponse>;

// ---- Contact data the customers changed in the portal (the read side of the webhook) ----

const exampleContactChange = {
  id: '0b5d4a8e-7c2f-4f1e-9a53-1f6c2d8e4b71',
  customer_code: 'C-000789',
  changed: { phone: '+34 600 123 456', invoice_email: 'facturas@ejemplo.es' },
  changed_at: '2026-11-26T10:15:00.000Z',
};

export const ZContactChangesQuery = z.object({
  ...pageQueryFields('Changes', exampleContactChange.id),
});
export type TContactChangesQuery = z.input<typeof ZContactChangesQuery>;

export const ZContactChangesResponse = z
  .object({
    /** Newest first: each change with only the fields it changed, as the webhook tells it. */
    changes: z.array(ZContactChange),
    next_cursor: z.string().nullable(),
  })
  .meta({ examples: [{ changes: [exampleContactChange], next_cursor: null }] });
export type TContactChangesResponse = z.infer<typeof ZContactChangesResponse>;

// ---- Invitations sent again ----

/** Largest number of customers of one invitation call. */
export const invitationBatchMax = 1000;

export const ZInviteCustomersRequest = z
  .strictObject({
    codes: z
      .array(ZKey, FieldError.required)
      .min(1, FieldError.required)
      .max(invitationBatchMax, FieldError.tooBig),
  })
  .meta({ examples: [{ codes: ['C-000789', 'C-000790'] }] });
export type TInviteCustomersRequest = z.input<typeof ZInviteCustomersRequest>;

export const ZInviteCustomersResult = z
  .object({
    /** Customers of the call whose invitation now waits in the outbox (sent shortly after). */
    queued: z.number().int(),
    /** Codes of the call whose customer already has a password: not invited. */
    has_password: z.array(z.string()),
  })
  .meta({ examples: [{ queued: 1, has_password: ['C-000790'] }] });
export type TInviteCustomersResult = z.infer<typeof ZInviteCustomersResult>;

/** Ingestion calls: bulk upserts keyed by the provider's own ids. */
export const ingestionRoutes = {
  ingestCustomers: {
    method: 'PUT',
    path: '/admin/customers',
    auth: 'apiKey',
    summary:
      'Create or update customers by code; new customers are invited to set a password (all or nothing, idempotent)',
    body: ZIngestCustomersRequest,
    response: ZIngestCustomersResult,
    bodyLimit: batchBodyLimit,
  },
  inviteCustomers: {
    method: 'POST',
    path: '/admin/customers/invitations',
    auth: 'apiKey',
    summary:
      'Invite again customers without a password: their invitation goes back to the outbox now (all or nothing)',
    body: ZInviteCustomersRequest,
    response: ZInviteCustomersResult,
  },
  ingestInvoices: {
    method: 'PUT',
    path: '/admin/invoices',
    auth: 'apiKey',
    summary:
      'Create or update invoices by id, with their complete lines and instalments (all or nothing, idempotent)',
    body: ZIngestInvoicesRequest,
    response: ZBatchResult,
    bodyLimit: batchBodyLimit,
  },
  changeInstalmentStatus: {
    method: 'POST',
    path: '/admin/instalments/status',
    auth: 'apiKey',
    summary:
      'Record back-office instalment states: paid by direct debit, returned, cancelled (all or nothing, idempotent)',
    body: ZInstalmentStatusRequest,
    response: ZBatchResult,
    bodyLimit: batchBodyLimit,
  },
  ingestNotifications: {
    method: 'PUT',
    path: '/admin/notifications',
    auth: 'apiKey',
    summary: 'Show notifications to customers, each created once by its id (all or nothing)',
    body: ZIngestNotificationsRequest,
    response: ZBatchResult,
    bodyLimit: batchBodyLimit,
  },
  reviewPaymentMethodRequest: {
    method: 'POST',
    path: '/admin/payment-method-requests/:id/review',
    auth: 'apiKey',
    summary: "Answer a customer's request (main method change, bank account verification)",
    params: ZReviewParams,
    body: ZReviewRequest,
    response: ZReviewResponse,
  },
  listPaymentMethodRequests: {
    method: 'GET',
    path: '/admin/payment-method-requests',
    auth: 'apiKey',
    summary:
      "Customers' requests (main method change, bank account verification), newest first; `status=pending` lists those waiting for review",
    querystring: ZPaymentMethodRequestsQuery,
    response: ZPaymentMethodRequestsResponse,
  },
  listContactChanges: {
    method: 'GET',
    path: '/admin/customer-contact-changes',
    auth: 'apiKey',
    summary:
      'Telephones, invoice e-mails and postal addresses customers changed in the portal, newest first (what the `customer.contact_updated` webhook tells)',
    querystring: ZContactChangesQuery,
    response: ZContactChangesResponse,
  },
} as const satisfies Record<string, TRouteDef>;
