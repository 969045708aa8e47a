import { z } from 'zod';
import { pageQueryFields } from './admin-paging.ts';
import { FieldError } from './errors.ts';
import type { TRouteDef } from './routes.ts';

// ---- Webhooks (issue 10): the provider's endpoint, its signing secret and the delivery log ----

const exampleTime = '2026-11-21T10:00:00.000Z';
const exampleEventId = '5f0c6a4e-3b1d-4c7e-9a39-0d7f2c1b8e11';
const exampleSecret = 'whsec_3q2-7wQ0mJcM4yB0bC1eZ9aK8uN5vT6sR2pL1oI4hG0';

/** An instant as ISO 8601 in UTC (`2026-11-21T10:00:00.000Z`). */
const ZTimestamp = z.iso.datetime();

/**
 * The shape every webhook URL must have: http or https, a host, no user name or password (a
 * credential in a URL ends up in logs). Whether plain http is allowed is the server's decision
 * (https only in production, except to a loopback host): see docs/webhooks.md.
 */
export function isWebhookUrlShaped(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (
    (url.protocol === 'https:' || url.protocol === 'http:') &&
    url.hostname !== '' &&
    url.username === '' &&
    url.password === ''
  );
}

export const ZWebhookUrl = z
  .string(FieldError.required)
  .trim()
  .min(1, { error: FieldError.required, abort: true })
  .max(2048, { error: FieldError.tooLong, abort: true })
  .refine(isWebhookUrlShaped, FieldError.invalidFormat)
  .meta({
    description:
      'Where events are POSTed. https, or http to a loopback host (http anywhere outside production). No credentials in the URL.',
    examples: ['https://erp.example.com/portal/webhooks'],
  });

/** The kinds of event a provider receives. `ping` is only sent on request (`POST /admin/webhook/test`). */
export const ZWebhookEventType = z.enum([
  'payment.succeeded',
  'payment.failed',
  /** An authorisation charged for instalments already paid: a refund of the surplus is recorded. */
  'payment.overpaid',
  /** Redsys refunded an overpayment (Ds_Response 0900). */
  'payment.refunded',
  /** An automatic refund was given up (refused, too many failures, outcome unknown): see the admin CLI. */
  'payment.refund_failed',
  'payment_method.request_created',
  /** The customer changed their telephone, invoice e-mail or postal address in the portal. */
  'customer.contact_updated',
  /** The customer's sign-in e-mail changed, confirmed from the new address. */
  'customer.email_changed',
  /** A customer signed a SEPA direct-debit mandate in the portal (issue 23, item 6). */
  'mandate.signed',
  /** A mandate ended because the customer signed a new one (its `replaced_by_reference`). */
  'mandate.replaced',
  /** A mandate ended because the customer deleted its bank account: nothing more is collected with it. */
  'mandate.revoked',
  'ping',
  /** The customer asked to change their fiscal data: decide it with POST /admin/fiscal-data-requests/{id}/decision. */
  'customer.fiscal_data_change_requested',
  /** The customer withdrew a fiscal data request before it was decided. */
  'customer.fiscal_data_change_withdrawn',
  /** A customer wrote in a conversation about an invoice (opened it, or replied). */
  'invoice_thread.message_created',
]);
export type TWebhookEventType = z.infer<typeof ZWebhookEventType>;

export const ZWebhookEventStatus = z.enum(['pending', 'delivered', 'failed']);
export type TWebhookEventStatus = z.infer<typeof ZWebhookEventStatus>;

/** The tenant's endpoint as the API shows it: never its secret. */
export const ZWebhookEndpoint = z
  .object({
    url: z.string(),
    enabled: z.boolean(),
    created_at: ZTimestamp,
    updated_at: ZTimestamp,
  })
  .meta({
    examples: [
      {
        url: 'https://erp.example.com/portal/webhooks',
        enabled: true,
        created_at: exampleTime,
        updated_at: exampleTime,
      },
    ],
  });
export type TWebhookEndpoint = z.infer<typeof ZWebhookEndpoint>;

export const ZPutWebhookRequest = z
  .object({
    url: ZWebhookUrl,
    /** Off pauses delivery: no new events are written and pending ones wait. */
    enabled: z.boolean(FieldError.invalidType).optional(),
  })
  .meta({ examples: [{ url: 'https://erp.example.com/portal/webhooks', enabled: true }] });
export type TPutWebhookRequest = z.input<typeof ZPutWebhookRequest>;

/** The signing secret: shown once, when it is made (on creation and on rotation). */
const ZWebhookSecret = z.string().meta({
  description:
    'The signing secret, shown only in this answer: the HMAC-SHA256 key is this whole string.',
  examples: [exampleSecret],
});

export const ZPutWebhookResponse = ZWebhookEndpoint.extend({
  /** Present only when the endpoint was created by this call. */
  secret: ZWebhookSecret.optional(),
}).meta({
  examples: [
    {
      url: 'https://erp.example.com/portal/webhooks',
      enabled: true,
      created_at: exampleTime,
      updated_at: exampleTime,
      secret: exampleSecret,
    },
  ],
});
export type TPutWebhookResponse = z.infer<typeof ZPutWebhookResponse>;

export const ZWebhookSecretResponse = z
  .object({ secret: ZWebhookSecret })
  .meta({ examples: [{ secret: exampleSecret }] });

export const ZWebhookDeletedResponse = z
  .object({ deleted: z.boolean() })
  .meta({ examples: [{ deleted: true }] });

/** One try to deliver an event, as the delivery log shows it. */
export const ZWebhookAttempt = z.object({
  /** 1 for the first try of the event. */
  attempt: z.number().int(),
  url: z.string(),
  /** The receiver's HTTP status; null when no answer came (refused, timed out). */
  status_code: z.number().int().nullable(),
  /** Why the attempt failed (at most 500 characters of the answer or the network error). */
  error: z.string().nullable(),
  duration_ms: z.number().int(),
  attempted_at: ZTimestamp,
});
export type TWebhookAttempt = z.infer<typeof ZWebhookAttempt>;

const examplePaymentData = {
  payment_id: '0b6f5d1e-8a7c-4b8e-9d61-2f4a7c9e5b30',
  order_number: '4821Ab3xK9Qz',
  customer_code: 'C-000123',
  amount_cents: 4590,
  currency: 'EUR',
  status: 'paid',
  ds_response: '0000',
  authorisation_code: '123456',
  settled_at: '2026-11-21T09:59:58.120+00:00',
  instalments: [{ invoice_id: 'F-2026-0042', seq: 1, amount_cents: 4590 }],
};

const exampleEvent = {
  id: exampleEventId,
  type: 'payment.succeeded',
  created_at: exampleTime,
  status: 'delivered',
  attempts: 2,
  next_attempt_at: null,
  delivered_at: '2026-11-21T10:00:31.400Z',
  payload: examplePaymentData,
  attempt_log: [
    {
      attempt: 1,
      url: 'https://erp.example.com/portal/webhooks',
      status_code: 503,
      error: 'HTTP 503: Service Unavailable',
      duration_ms: 41,
      attempted_at: '2026-11-21T10:00:01.020Z',
    },
    {
      attempt: 2,
      url: 'https://erp.example.com/portal/webhooks',
      status_code: 200,
      error: null,
      duration_ms: 37,
      attempted_at: '2026-11-21T10:00:31.363Z',
    },
  ],
};

/** An event of the outbox with its delivery state and every attempt so far. */
export const ZWebhookEvent = z
  .object({
    id: z.string(),
    type: ZWebhookEventType,
    created_at: ZTimestamp,
    status: ZWebhookEventStatus,
    /** Attempts made so far. */
    attempts: z.number().int(),
    /** When the next attempt is due; null unless the event is pending. */
    next_attempt_at: ZTimestamp.nullable(),
    delivered_at: ZTimestamp.nullable(),
    /** The event's `data`, as sent in the POST body. */
    payload: z.record(z.string(), z.unknown()),
    /** Every attempt, oldest first. */
    attempt_log: z.array(ZWebhookAttempt),
  })
  .meta({ examples: [exampleEvent] });
export type TWebhookEvent = z.infer<typeof ZWebhookEvent>;

export const ZWebhookEventsQuery = z.object({
  status: ZWebhookEventStatus.optional().meta({ description: 'Only events in this state' }),
  /** `before`: `next_cursor` of the previous page, events older than that one. */
  ...pageQueryFields('Events', exampleEventId),
});
export type TWebhookEventsQuery = z.input<typeof ZWebhookEventsQuery>;

export const ZWebhookEventsResponse = z
  .object({
    /** Newest first. */
    events: z.array(ZWebhookEvent),
    /** Pass as `before` for the next (older) page; null on the last page. */
    next_cursor: z.string().nullable(),
  })
  .meta({ examples: [{ events: [exampleEvent], next_cursor: exampleEventId }] });
export type TWebhookEventsResponse = z.infer<typeof ZWebhookEventsResponse>;

export const ZWebhookEventParams = z.object({ id: z.string().min(1).max(64) });

/** The body of every POST to the provider's endpoint (signed: see docs/webhooks.md). */
export const ZWebhookDelivery = z
  .object({
    /** The event id: the same on every retry, also sent as `idempotency-key`. */
    id: z.string(),
    type: ZWebhookEventType,
    created_at: ZTimestamp,
    /** The tenant the event belongs to. */
    tenant: z.string(),
    data: z.record(z.string(), z.unknown()),
  })
  .meta({
    examples: [
      {
        id: exampleEventId,
        type: 'payment.succeeded',
        created_at: exampleTime,
        tenant: 'demo',
        data: examplePaymentData,
      },
    ],
  });
export type TWebhookDelivery = z.infer<typeof ZWebhookDelivery>;

/** Webhook configuration and delivery log, under `/{tenant}/api/1.0/admin/webhook`. */
export const webhookRoutes = {
  getWebhook: {
    method: 'GET',
    path: '/admin/webhook',
    auth: 'apiKey',
    summary: "The tenant's webhook endpoint (never its secret)",
    response: ZWebhookEndpoint,
  },
  putWebhook: {
    method: 'PUT',
    path: '/admin/webhook',
    auth: 'apiKey',
    summary:
      'Register the webhook endpoint (the answer carries the new signing secret, once) or change its URL or state',
    body: ZPutWebhookRequest,
    response: ZPutWebhookResponse,
  },
  rotateWebhookSecret: {
    method: 'POST',
    path: '/admin/webhook/secret',
    auth: 'apiKey',
    summary: 'Replace the signing secret; the new one is in this answer only',
    response: ZWebhookSecretResponse,
  },
  deleteWebhook: {
    method: 'DELETE',
    path: '/admin/webhook',
    auth: 'apiKey',
    summary: 'Remove the endpoint; events not delivered yet are marked failed',
    response: ZWebhookDeletedResponse,
  },
  webhookEvents: {
    method: 'GET',
    path: '/admin/webhook/events',
    auth: 'apiKey',
    summary: 'The delivery log: events newest first, with every attempt',
    querystring: ZWebhookEventsQuery,
    response: ZWebhookEventsResponse,
  },
  redeliverWebhookEvent: {
    method: 'POST',
    path: '/admin/webhook/events/:id/redeliver',
    auth: 'apiKey',
    summary: 'Send an event again now (failed or delivered); earlier attempts stay in the log',
    params: ZWebhookEventParams,
    response: ZWebhookEvent,
  },
  testWebhook: {
    method: 'POST',
    path: '/admin/webhook/test',
    auth: 'apiKey',
    summary: 'Queue a `ping` event to check the receiver',
    response: ZWebhookEvent,
    status: 202,
  },
} as const satisfies Record<string, TRouteDef>;
