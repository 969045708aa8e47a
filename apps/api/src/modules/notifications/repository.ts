import type { SqlQuery } from '../../db/database.ts';

export type NotificationRow = {
  id: string;
  title: string;
  message: string;
  date: string;
  time: string;
  is_read: boolean;
  type: string;
  link: string | null;
  params: Record<string, string | number | string[]> | null;
};

const filters = {
  all: '',
  read: 'AND read_at IS NOT NULL',
  unread: 'AND read_at IS NULL',
} as const;

export function createNotificationRepository() {
  return {
    list(
      sql: SqlQuery,
      q: { customerId: string; filter: keyof typeof filters; limit: number; offset: number },
    ) {
      return sql.query<NotificationRow>(
        `SELECT id, title, message,
                to_char(created_at AT TIME ZONE 'Europe/Madrid', 'YYYY-MM-DD') AS date,
                to_char(created_at AT TIME ZONE 'Europe/Madrid', 'HH24:MI') AS time,
                read_at IS NOT NULL AS is_read, type, link, params
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
