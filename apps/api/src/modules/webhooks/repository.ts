import type { TWebhookEventStatus } from '@portal/contract/admin-webhooks';
import type { SqlQuery } from '../../db/database.ts';

/**
 * SQL of the webhook endpoint, the outbox (`webhook_events`) and the delivery log
 * (`webhook_attempts`), migration 006. Every statement runs inside `withTenant`, so row-level
 * security limits it to the tenant of the transaction besides the explicit filter.
 */
const tenant = "current_setting('app.tenant_id')";

export type EndpointRow = {
  url: string;
  /** Sealed (`enc:v1:...`): open with the secret box, field `webhook_secret`. */
  secret: string;
  enabled: boolean;
  created_at: Date;
  updated_at: Date;
};

export type EventRow = {
  id: string;
  type: string;
  payload: Record<string, unknown>;
  created_at: Date;
  status: TWebhookEventStatus;
  attempts: number;
  next_attempt_at: Date;
  delivered_at: Date | null;
};

export type AttemptRow = {
  event_id: string;
  attempt: number;
  url: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  attempted_at: Date;
};

const endpointColumns = 'url, secret, enabled, created_at, updated_at';
const eventColumns =
  'id, type, payload, created_at, status, attempts, next_attempt_at, delivered_at';

export async function findEndpoint(sql: SqlQuery): Promise<EndpointRow | undefined> {
  const [row] = await sql.query<EndpointRow>(
    `SELECT ${endpointColumns} FROM webhook_endpoints WHERE tenant_id = ${tenant}`,
  );
  return row;
}

/** Changes the URL (and the state when given); undefined when the tenant has no endpoint. */
export async function updateEndpoint(
  sql: SqlQuery,
  input: { url: string; enabled: boolean | undefined },
): Promise<EndpointRow | undefined> {
  const [row] = await sql.query<EndpointRow>(
    `UPDATE webhook_endpoints SET url = $1, enabled = coalesce($2, enabled), updated_at = now()
      WHERE tenant_id = ${tenant} RETURNING ${endpointColumns}`,
    [input.url, input.enabled ?? null],
  );
  return row;
}

/** Creates the endpoint; undefined when one exists already (a concurrent creation won). */
export async function insertEndpoint(
  sql: SqlQuery,
  input: { url: string; enabled: boolean; sealedSecret: string },
): Promise<EndpointRow | undefined> {
  const [row] = await sql.query<EndpointRow>(
    `INSERT INTO webhook_endpoints (tenant_id, url, secret, enabled) VALUES (${tenant}, $1, $2, $3)
     ON CONFLICT (tenant_id) DO NOTHING RETURNING ${endpointColumns}`,
    [input.url, input.sealedSecret, input.enabled],
  );
  return row;
}

export async function replaceSecret(sql: SqlQuery, sealedSecret: string): Promise<boolean> {
  const rows = await sql.query(
    `UPDATE webhook_endpoints SET secret = $1, updated_at = now() WHERE tenant_id = ${tenant}
     RETURNING tenant_id`,
    [sealedSecret],
  );
  return rows.length > 0;
}

export async function deleteEndpoint(sql: SqlQuery): Promise<boolean> {
  const rows = await sql.query(
    `DELETE FROM webhook_endpoints WHERE tenant_id = ${tenant} RETURNING tenant_id`,
  );
  return rows.length > 0;
}

/** Events still waiting when the endpoint goes: failed, so that nothing old reaches a new URL. */
export async function failPendingEvents(sql: SqlQuery): Promise<number> {
  const rows = await sql.query(
    `UPDATE webhook_events SET status = 'failed' WHERE tenant_id = ${tenant} AND status = 'pending'
     RETURNING id`,
  );
  return rows.length;
}

/** A page of events, newest first, older than the event `before` when given. */
export async function listEvents(
  sql: SqlQuery,
  input: { status: TWebhookEventStatus | undefined; limit: number; before: string | undefined },
): Promise<EventRow[]> {
  return sql.query<EventRow>(
    `SELECT ${eventColumns} FROM webhook_events
      WHERE tenant_id = ${tenant}
        AND ($1::text IS NULL OR status = $1::text)
        AND ($2::uuid IS NULL OR (created_at, id) < (
              SELECT created_at, id FROM webhook_events WHERE tenant_id = ${tenant} AND id = $2::uuid))
      ORDER BY created_at DESC, id DESC
      LIMIT $3`,
    [input.status ?? null, input.before ?? null, input.limit],
  );
}

/** The attempts of these events, oldest first. */
export async function listAttempts(sql: SqlQuery, eventIds: string[]): Promise<AttemptRow[]> {
  if (eventIds.length === 0) return [];
  return sql.query<AttemptRow>(
    `SELECT event_id, attempt, url, status_code, error, duration_ms, attempted_at
       FROM webhook_attempts
      WHERE tenant_id = ${tenant} AND event_id = ANY($1::uuid[])
      ORDER BY event_id, attempt`,
    [eventIds],
  );
}

/** Puts an event back in the queue, due now; its attempts (and their log) are kept. */
export async function requeueEvent(sql: SqlQuery, id: string): Promise<EventRow | undefined> {
  const [row] = await sql.query<EventRow>(
    `UPDATE webhook_events SET status = 'pending', next_attempt_at = now(), delivered_at = NULL
      WHERE tenant_id = ${tenant} AND id::text = $1
      RETURNING ${eventColumns}`,
    [id],
  );
  return row;
}

export async function insertEvent(
  sql: SqlQuery,
  input: { type: string; payload: Record<string, unknown> },
): Promise<EventRow> {
  const [row] = await sql.query<EventRow>(
    `INSERT INTO webhook_events (tenant_id, type, payload) VALUES (${tenant}, $1, $2::jsonb)
     RETURNING ${eventColumns}`,
    [input.type, JSON.stringify(input.payload)],
  );
  if (!row) throw new Error('webhook event not written');
  return row;
}

// ---- Events of other modules' changes (events.ts) ----

/**
 * Writes an event built by `select` (one row of `type`, `payload`) when the tenant has an enabled
 * endpoint; nothing otherwise. The payload is read from the rows as they are now, in the
 * transaction that changed them. The endpoint is read FOR SHARE: its removal (or a change of its
 * address or switch) waits for this transaction, so its `failPendingEvents` sees the event. Without
 * the lock an event committed just after the removal stayed pending and went to the next address
 * registered (session 36).
 */
async function insertEventFrom(sql: SqlQuery, select: string, params: unknown[]): Promise<void> {
  await sql.query(
    `INSERT INTO webhook_events (tenant_id, type, payload)
     SELECT ${tenant}, e.type, e.payload FROM (${select}) AS e
      WHERE EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.tenant_id = ${tenant} AND w.enabled
                    FOR SHARE)`,
    params,
  );
}

/** payment.succeeded or payment.failed of a card payment that has just settled. */
export async function insertPaymentSettledEvent(sql: SqlQuery, attemptId: string): Promise<void> {
  await insertEventFrom(
    sql,
    `SELECT CASE a.status WHEN 'paid' THEN 'payment.succeeded' ELSE 'payment.failed' END AS type,
            jsonb_build_object(
              'payment_id', a.id,
              'order_number', a.order_number,
              'customer_code', c.code,
              'amount_cents', a.amount_cents,
              'currency', 'EUR',
              'status', a.status,
              'ds_response', a.ds_response,
              'authorisation_code', a.ds_authorisation_code,
              'settled_at', a.settled_at,
              'instalments', coalesce((
                SELECT jsonb_agg(jsonb_build_object(
                         'invoice_id', i.invoice_id, 'seq', i.seq, 'amount_cents', pai.amount_cents,
                         'fee_cents', pai.fee_cents)
                       ORDER BY i.invoice_id, i.seq)
                  FROM payment_attempt_items pai
                  JOIN instalments i ON i.tenant_id = pai.tenant_id AND i.id = pai.instalment_id
                 -- Only those it paid (migration 037; NULL: recorded before it, read as paid):
                 -- one already paid, owed another amount now or cancelled is part of the surplus
                 -- (payment.overpaid), and the provider books what is listed here as paid.
                 WHERE pai.tenant_id = a.tenant_id AND pai.attempt_id = a.id
                   AND pai.paid IS NOT FALSE), '[]'::jsonb),
              'method', a.pay_method
            ) AS payload
       FROM payment_attempts a
       JOIN customers c ON c.tenant_id = a.tenant_id AND c.id = a.customer_id
      WHERE a.tenant_id = ${tenant} AND a.id = $1 AND a.kind = 'payment'
        AND a.status IN ('paid', 'failed')`,
    [attemptId],
  );
}

export type RefundEventType = 'payment.overpaid' | 'payment.refunded' | 'payment.refund_failed';

/** An overpayment recorded, refunded through Redsys, or left for the operator. */
export async function insertRefundEvent(
  sql: SqlQuery,
  refundId: string,
  type: RefundEventType,
): Promise<void> {
  await insertEventFrom(
    sql,
    `SELECT $2::text AS type,
            jsonb_build_object(
              'refund_id', r.id,
              'payment_id', a.id,
              'order_number', a.order_number,
              'customer_code', c.code,
              'paid_cents', a.amount_cents,
              'refund_cents', r.amount_cents,
              'currency', 'EUR',
              'refund', CASE WHEN r.review_reason = 'auto_refund_off' THEN 'manual' ELSE 'automatic' END,
              'status', r.status,
              'review_reason', r.review_reason,
              'last_code', r.last_code,
              'authorisation_code', r.ds_authorisation_code,
              'attempts', r.attempts,
              'created_at', r.created_at,
              'refunded_at', r.refunded_at
            ) AS payload
       FROM payment_refunds r
       JOIN payment_attempts a ON a.tenant_id = r.tenant_id AND a.id = r.attempt_id
       JOIN customers c ON c.tenant_id = r.tenant_id AND c.id = r.customer_id
      WHERE r.tenant_id = ${tenant} AND r.id = $1`,
    [refundId, type],
  );
}

/** payment_method.request_created: a customer's request the provider reviews. */
export async function insertMethodRequestEvent(sql: SqlQuery, requestId: string): Promise<void> {
  await insertEventFrom(
    sql,
    `SELECT 'payment_method.request_created'::text AS type,
            jsonb_build_object(
              'request_id', q.id,
              'kind', q.kind,
              'customer_code', c.code,
              'payment_method', jsonb_build_object(
                'id', pm.id, 'kind', pm.kind, 'alias', pm.alias, 'holder', pm.holder,
                'card_masked', pm.card_masked, 'iban', pm.iban, 'nif', pm.nif, 'entity', pm.entity),
              'created_at', q.created_at
            ) AS payload
       FROM payment_method_requests q
       JOIN customers c ON c.tenant_id = q.tenant_id AND c.id = q.customer_id
       JOIN payment_methods pm ON pm.tenant_id = q.tenant_id AND pm.id = q.payment_method_id
      WHERE q.tenant_id = ${tenant} AND q.id = $1 AND q.status = 'pending'`,
    [requestId],
  );
}

/** customer.contact_updated: what the customer changed of their contact data in the portal. */
export async function insertContactUpdatedEvent(sql: SqlQuery, changeId: string): Promise<void> {
  await insertEventFrom(
    sql,
    `SELECT 'customer.contact_updated'::text AS type,
            jsonb_build_object(
              'change_id', h.id,
              'customer_code', c.code,
              'changed', h.changed,
              'contact_data', jsonb_build_object(
                'phone', c.phone, 'invoice_email', c.invoice_email,
                'shipping_address', c.shipping_address, 'shipping_cp', c.shipping_cp,
                'shipping_city', c.shipping_city, 'shipping_province', c.shipping_province,
                'shipping_country', c.shipping_country),
              'changed_at', h.changed_at
            ) AS payload
       FROM customer_contact_changes h
       JOIN customers c ON c.tenant_id = h.tenant_id AND c.id = h.customer_id
      WHERE h.tenant_id = ${tenant} AND h.id = $1`,
    [changeId],
  );
}

/** customer.email_changed: the sign-in e-mail, confirmed from the new address. */
export async function insertEmailChangedEvent(
  sql: SqlQuery,
  customerId: string,
  previousEmail: string,
): Promise<void> {
  await insertEventFrom(
    sql,
    `SELECT 'customer.email_changed'::text AS type,
            jsonb_build_object(
              'customer_code', c.code,
              'email', c.email,
              'previous_email', $2::text,
              'changed_at', now()
            ) AS payload
       FROM customers c
      WHERE c.tenant_id = ${tenant} AND c.id = $1`,
    [customerId, previousEmail],
  );
}

/**
 * customer.fiscal_data_change_requested or customer.fiscal_data_change_withdrawn: a fiscal data
 * request the customer made or withdrew (the fiscal-data module), with what it asks for.
 */
export async function insertFiscalRequestEvent(
  sql: SqlQuery,
  requestId: string,
  type: 'customer.fiscal_data_change_requested' | 'customer.fiscal_data_change_withdrawn',
): Promise<void> {
  await insertEventFrom(
    sql,
    `SELECT $2::text AS type,
            jsonb_build_object(
              'request_id', r.id,
              'customer_code', c.code,
              'status', r.status,
              'requested', r.requested,
              'previous', r.previous,
              'comment', r.comment,
              'created_at', r.created_at,
              'withdrawn_at', CASE WHEN r.status = 'withdrawn' THEN r.closed_at END
            ) AS payload
       FROM fiscal_data_requests r
       JOIN customers c ON c.tenant_id = r.tenant_id AND c.id = r.customer_id
      WHERE r.tenant_id = ${tenant} AND r.id = $1`,
    [requestId, type],
  );
}

/** invoice_thread.message_created: a customer wrote in a conversation about an invoice. */
export async function insertThreadMessageEvent(sql: SqlQuery, messageId: string): Promise<void> {
  await insertEventFrom(
    sql,
    `SELECT 'invoice_thread.message_created'::text AS type,
            jsonb_build_object(
              'message_id', m.id,
              'thread_id', t.id,
              'invoice_id', t.invoice_id,
              'customer_code', c.code,
              'author', m.author,
              'body', m.body,
              'first', NOT EXISTS (
                SELECT 1 FROM invoice_thread_messages p
                 WHERE p.tenant_id = m.tenant_id AND p.thread_id = m.thread_id
                   AND (p.created_at, p.id) < (m.created_at, m.id)),
              'created_at', m.created_at
            ) AS payload
       FROM invoice_thread_messages m
       JOIN invoice_threads t ON t.tenant_id = m.tenant_id AND t.id = m.thread_id
       JOIN customers c ON c.tenant_id = t.tenant_id AND c.id = t.customer_id
      WHERE m.tenant_id = ${tenant} AND m.id = $1`,
    [messageId],
  );
}

/** mandate.signed: a SEPA mandate the customer signed in the portal, and the one it replaced. */
export async function insertMandateSignedEvent(sql: SqlQuery, mandateId: string): Promise<void> {
  await insertEventFrom(
    sql,
    `SELECT 'mandate.signed'::text AS type,
            jsonb_build_object(
              'mandate_id', m.id,
              'reference', m.reference,
              'status', m.status,
              'customer_code', c.code,
              'creditor_id', m.creditor_id,
              'debtor_name', m.debtor_name,
              'debtor_nif', m.debtor_nif,
              'iban', m.iban,
              'payment_type', m.payment_type,
              'language', m.language,
              'payment_method_id', m.payment_method_id,
              'signed_at', m.signed_at,
              'signer_ip', m.signer_ip,
              'user_agent', m.user_agent,
              'replaced_mandate_reference', (
                SELECT p.reference FROM sepa_mandates p
                 WHERE p.tenant_id = m.tenant_id AND p.replaced_by = m.id LIMIT 1)
            ) AS payload
       FROM sepa_mandates m
       JOIN customers c ON c.tenant_id = m.tenant_id AND c.id = m.customer_id
      WHERE m.tenant_id = ${tenant} AND m.id = $1`,
    [mandateId],
  );
}

export type MandateEndedEventType = 'mandate.replaced' | 'mandate.revoked';

/**
 * mandate.replaced / mandate.revoked: a SEPA mandate stopped being active, because the customer
 * signed a new one (`replaced_by_reference`) or deleted its bank account. Written by the
 * transaction that ended it, so once per ending.
 */
export async function insertMandateEndedEvent(
  sql: SqlQuery,
  mandateId: string,
  type: MandateEndedEventType,
): Promise<void> {
  await insertEventFrom(
    sql,
    `SELECT $2::text AS type,
            jsonb_build_object(
              'mandate_id', m.id,
              'reference', m.reference,
              'status', m.status,
              'customer_code', c.code,
              'creditor_id', m.creditor_id,
              'iban', m.iban,
              'payment_method_id', m.payment_method_id,
              'signed_at', m.signed_at,
              'ended_at', m.ended_at,
              'replaced_by_reference', (
                SELECT n.reference FROM sepa_mandates n
                 WHERE n.tenant_id = m.tenant_id AND n.id = m.replaced_by)
            ) AS payload
       FROM sepa_mandates m
       JOIN customers c ON c.tenant_id = m.tenant_id AND c.id = m.customer_id
      WHERE m.tenant_id = ${tenant} AND m.id = $1`,
    [mandateId, type],
  );
}

// ---- Delivery (dispatcher.ts) ----

export type ClaimedEvent = Pick<EventRow, 'id' | 'type' | 'payload' | 'created_at' | 'attempts'> & {
  /** The end of the lease as the claim wrote it (epoch seconds, to the microsecond): its token. */
  lease: string;
};

/**
 * Takes up to `limit` due events for one delivery attempt: rows another transaction holds are
 * skipped (`SKIP LOCKED`), and the taken ones are leased by moving their next attempt `leaseSeconds`
 * ahead, so that after this commits no other dispatcher finds them due while they are in flight.
 * Events in `exclude` (already tried by this run) are left for the next run.
 */
export async function claimDueEvents(
  sql: SqlQuery,
  input: { limit: number; leaseSeconds: number; exclude: string[] },
): Promise<ClaimedEvent[]> {
  return sql.query<ClaimedEvent>(
    `WITH due AS (
       SELECT id FROM webhook_events
        WHERE tenant_id = ${tenant} AND status = 'pending' AND next_attempt_at <= now()
          AND NOT (id = ANY($3::uuid[]))
        ORDER BY next_attempt_at, created_at, id
        LIMIT $1
        FOR UPDATE SKIP LOCKED)
     UPDATE webhook_events e
        SET next_attempt_at = now() + make_interval(secs => $2::double precision)
       FROM due
      WHERE e.tenant_id = ${tenant} AND e.id = due.id
      RETURNING e.id, e.type, e.payload, e.created_at, e.attempts,
                extract(epoch FROM e.next_attempt_at)::text AS lease`,
    [input.limit, input.leaseSeconds, input.exclude],
  );
}

/**
 * The tenants with events due and an enabled endpoint: the dispatcher's one read across tenants
 * (tenant ids only, as the owner).
 */
export async function tenantsWithDueEvents(sql: SqlQuery): Promise<string[]> {
  const rows = await sql.query<{ tenant_id: string }>(
    `SELECT DISTINCT e.tenant_id FROM webhook_events e
      WHERE e.status = 'pending' AND e.next_attempt_at <= now()
        AND EXISTS (SELECT 1 FROM webhook_endpoints w
                     WHERE w.tenant_id = e.tenant_id AND w.enabled)
      ORDER BY 1`,
  );
  return rows.map((r) => r.tenant_id);
}

/** Writes one attempt to the log (once per attempt number, whoever writes it first). */
export async function insertAttempt(
  sql: SqlQuery,
  input: Omit<AttemptRow, 'attempted_at'>,
): Promise<void> {
  await sql.query(
    `INSERT INTO webhook_attempts (tenant_id, event_id, attempt, url, status_code, error, duration_ms)
     VALUES (${tenant}, $1, $2, $3, $4, $5, $6)
     ON CONFLICT (tenant_id, event_id, attempt) DO NOTHING`,
    [input.event_id, input.attempt, input.url, input.status_code, input.error, input.duration_ms],
  );
}

/**
 * The outcome of attempt `attempt`: delivered, failed for good, or pending again after
 * `retryInSeconds`. Applied only if the event is still where the claim left it (pending, with
 * `attempt - 1` attempts, and its lease untouched): a removal in between is not overwritten. A
 * redelivery asked while the attempt was in flight moved the lease (due now): the attempt is
 * counted and the event stays due, so the redelivery still happens (before session 36 the running
 * attempt's outcome overwrote it, and on the last attempt the event ended failed).
 */
export async function settleAttempt(
  sql: SqlQuery,
  input: {
    eventId: string;
    attempt: number;
    status: TWebhookEventStatus;
    retryInSeconds: number;
    lease: string;
  },
): Promise<boolean> {
  // SET reads the row as it was: still the claim's lease, or moved by a redelivery.
  const leased = `extract(epoch FROM next_attempt_at) = $5::numeric`;
  const rows = await sql.query(
    `UPDATE webhook_events
        SET attempts = $2,
            status = CASE WHEN ${leased} THEN $3::text ELSE status END,
            next_attempt_at = CASE WHEN ${leased} AND $3::text = 'pending'
                                   THEN now() + make_interval(secs => $4::double precision)
                                   ELSE next_attempt_at END,
            delivered_at = CASE WHEN ${leased} AND $3::text = 'delivered' THEN now() END
      WHERE tenant_id = ${tenant} AND id = $1 AND status = 'pending' AND attempts = $2 - 1
      RETURNING id`,
    [input.eventId, input.attempt, input.status, input.retryInSeconds, input.lease],
  );
  return rows.length > 0;
}
