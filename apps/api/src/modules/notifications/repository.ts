import type { SqlQuery } from '../../db/database.ts';

export type NotificationRow = {
  id: string;
  /** NULL for the portal's own notifications (worded by the web app from type and params). */
  title: string | null;
  message: string | null;
  date: string;
  time: string;
  is_read: boolean;
  type: string;
  link: string | null;
  params: Record<string, unknown> | null;
  /** Sent by the organisation through the ingestion API. */
  external: boolean;
};

/** A notification of the portal itself: its type and parameters, no text. */
export type PortalNotificationRecord = {
  customer_id: string;
  type: string;
  params: Record<string, unknown>;
  link: string | null;
};

/** A notification the organisation sent, with its own id, texts and link. */
export type OrganisationNotificationRecord = {
  external_id: string;
  customer_id: string;
  type: string;
  title: string;
  message: string;
  link: string | null;
};

const filters = {
  all: '',
  read: 'AND read_at IS NOT NULL',
  unread: 'AND read_at IS NULL',
} as const;

/**
 * The only SQL that writes `notifications` (and `notification_receipts`): every other module goes
 * through `service.ts` (test/one-notification-writer.test.ts keeps it so).
 */
export function createNotificationRepository() {
  return {
    /** The portal's own notifications, in one statement whatever their number. */
    async insertPortal(sql: SqlQuery, rows: readonly PortalNotificationRecord[]): Promise<number> {
      if (rows.length === 0) return 0;
      const written = await sql.query(
        `INSERT INTO notifications (tenant_id, customer_id, type, params, link)
         SELECT current_setting('app.tenant_id'), b.customer_id, b.type, b.params, b.link
           FROM jsonb_to_recordset($1::jsonb) AS b(customer_id uuid, type text, params jsonb, link text)
         RETURNING id`,
        [JSON.stringify(rows)],
      );
      return written.length;
    },

    /**
     * The organisation's notifications whose id was never received (migration 008 remembers every
     * id, so one the customer deleted is not shown again); answers how many were created.
     */
    async insertFromOrganisation(
      sql: SqlQuery,
      rows: readonly OrganisationNotificationRecord[],
    ): Promise<number> {
      if (rows.length === 0) return 0;
      const written = await sql.query(
        `WITH b AS (
           SELECT * FROM jsonb_to_recordset($1::jsonb) AS b(external_id text, customer_id uuid,
                  type text, title text, message text, link text)),
         fresh AS (
           INSERT INTO notification_receipts (tenant_id, external_id)
           SELECT current_setting('app.tenant_id'), b.external_id FROM b
           ON CONFLICT DO NOTHING RETURNING external_id)
         INSERT INTO notifications (tenant_id, customer_id, type, title, message, link, external_id)
         SELECT current_setting('app.tenant_id'), b.customer_id, b.type, b.title, b.message, b.link, b.external_id
           FROM b JOIN fresh ON fresh.external_id = b.external_id
         RETURNING id`,
        [JSON.stringify(rows)],
      );
      return written.length;
    },

    list(
      sql: SqlQuery,
      q: { customerId: string; filter: keyof typeof filters; limit: number; offset: number },
    ) {
      return sql.query<NotificationRow>(
        `SELECT id, title, message,
                to_char(created_at AT TIME ZONE 'Europe/Madrid', 'YYYY-MM-DD') AS date,
                to_char(created_at AT TIME ZONE 'Europe/Madrid', 'HH24:MI') AS time,
                read_at IS NOT NULL AS is_read, type, link, params, external_id IS NOT NULL AS external
           FROM notifications
          WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1 ${filters[q.filter]}
          ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
        [q.customerId, q.limit, q.offset],
      );
    },
    async unread(sql: SqlQuery, customerId: string): Promise<number> {
      const rows = await sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM notifications
          WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1 AND read_at IS NULL`,
        [customerId],
      );
      return rows[0]?.n ?? 0;
    },
    async markRead(sql: SqlQuery, customerId: string, ids: string[]): Promise<number> {
      const rows = await sql.query(
        `UPDATE notifications SET read_at = now()
          WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1 AND id::text = ANY($2)
            AND read_at IS NULL RETURNING id`,
        [customerId, ids],
      );
      return rows.length;
    },
    async remove(sql: SqlQuery, customerId: string, ids: string[]): Promise<number> {
      const rows = await sql.query(
        `DELETE FROM notifications
          WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1 AND id::text = ANY($2) RETURNING id`,
        [customerId, ids],
      );
      return rows.length;
    },
  };
}
