import type { Sql } from '../../db/database.ts';

/** The work waiting in the outboxes and the payments left open, over all tenants (for /metrics). */
export type Backlog = {
  staleAttempts: number;
  webhooksPending: number;
  webhooksFailed: number;
  refundsPending: number;
  refundsReview: number;
  invitationsPending: number;
  invitationsFailed: number;
};

/**
 * One statement of counts, as the owner: the only cross-tenant read of the metrics, and no row
 * leaves it. Each count rides an index of its table (the pending partial indexes, the primary keys
 * of the small outboxes).
 */
export async function readBacklog(sql: Sql, staleAfterMinutes: number): Promise<Backlog> {
  const [row] = await sql.query<{
    stale_attempts: number;
    webhooks_pending: number;
    webhooks_failed: number;
    refunds_pending: number;
    refunds_review: number;
    invitations_pending: number;
    invitations_failed: number;
  }>(
    `SELECT
       (SELECT count(*) FROM payment_attempts
         WHERE status = 'pending' AND created_at < now() - make_interval(mins => $1::int))::int AS stale_attempts,
       (SELECT count(*) FROM webhook_events WHERE status = 'pending')::int AS webhooks_pending,
       (SELECT count(*) FROM webhook_events WHERE status = 'failed')::int AS webhooks_failed,
       (SELECT count(*) FROM payment_refunds WHERE status IN ('pending', 'sending'))::int AS refunds_pending,
       (SELECT count(*) FROM payment_refunds WHERE status = 'review')::int AS refunds_review,
       (SELECT count(*) FROM customer_invitations WHERE status = 'pending')::int AS invitations_pending,
       (SELECT count(*) FROM customer_invitations WHERE status = 'failed')::int AS invitations_failed`,
    [staleAfterMinutes],
  );
  return {
    staleAttempts: row?.stale_attempts ?? 0,
    webhooksPending: row?.webhooks_pending ?? 0,
    webhooksFailed: row?.webhooks_failed ?? 0,
    refundsPending: row?.refunds_pending ?? 0,
    refundsReview: row?.refunds_review ?? 0,
    invitationsPending: row?.invitations_pending ?? 0,
    invitationsFailed: row?.invitations_failed ?? 0,
  };
}
