import type { TFiscalData, TFiscalRequestStatus } from '@portal/contract';
import type { SqlQuery } from '../../db/database.ts';

const tenant = "current_setting('app.tenant_id')";

export type FiscalRequestRow = {
  id: string;
  customer_id: string;
  customer_code: string;
  status: TFiscalRequestStatus;
  requested: TFiscalData;
  previous: TFiscalData;
  comment: string;
  reason: string;
  created_at: Date;
  closed_at: Date | null;
};

const columns = `r.id, r.customer_id, c.code AS customer_code, r.status, r.requested, r.previous,
                 r.comment, r.reason, r.created_at, r.closed_at`;
const from = `fiscal_data_requests r
  JOIN customers c ON c.tenant_id = r.tenant_id AND c.id = r.customer_id`;

/** The one writer of `fiscal_data_requests` (migration 021). */
export function createFiscalDataRepository() {
  return {
    /** The customer's waiting request, if one waits. */
    async pending(sql: SqlQuery, customerId: string): Promise<FiscalRequestRow | undefined> {
      const rows = await sql.query<FiscalRequestRow>(
        `SELECT ${columns} FROM ${from}
          WHERE r.tenant_id = ${tenant} AND r.customer_id = $1 AND r.status = 'pending'`,
        [customerId],
      );
      return rows[0];
    },

    /**
     * The customer's last approved or rejected request, unless hidden or decided more than
     * `days` ago.
     */
    async lastDecision(
      sql: SqlQuery,
      customerId: string,
      days: number,
    ): Promise<FiscalRequestRow | undefined> {
      const rows = await sql.query<FiscalRequestRow & { dismissed: boolean }>(
        `SELECT ${columns}, r.dismissed_at IS NOT NULL AS dismissed FROM ${from}
          WHERE r.tenant_id = ${tenant} AND r.customer_id = $1
            AND r.status IN ('approved', 'rejected')
          ORDER BY r.closed_at DESC, r.id DESC
          LIMIT 1`,
        [customerId],
      );
      const row = rows[0];
      if (!row || row.dismissed || !row.closed_at) return undefined;
      if (Date.now() - row.closed_at.getTime() > days * 86_400_000) return undefined;
      const { dismissed: _, ...request } = row;
      return request;
    },

    /** A request of this customer by id (someone else's is not found). */
    async findOwn(
      sql: SqlQuery,
      customerId: string,
      id: string,
    ): Promise<FiscalRequestRow | undefined> {
      const rows = await sql.query<FiscalRequestRow>(
        `SELECT ${columns} FROM ${from}
          WHERE r.tenant_id = ${tenant} AND r.customer_id = $1 AND r.id::text = $2
            FOR UPDATE OF r`,
        [customerId, id],
      );
      return rows[0];
    },

    /** A request of the tenant by id, locked when `lock` (after its customer's fiscal data). */
    async find(sql: SqlQuery, id: string, lock = false): Promise<FiscalRequestRow | undefined> {
      const rows = await sql.query<FiscalRequestRow>(
        `SELECT ${columns} FROM ${from}
          WHERE r.tenant_id = ${tenant} AND r.id::text = $1${lock ? ' FOR UPDATE OF r' : ''}`,
        [id],
      );
      return rows[0];
    },

    /** A new waiting request; the partial unique index refuses a second one (23505). */
    async insert(
      sql: SqlQuery,
      r: { customerId: string; requested: TFiscalData; previous: TFiscalData; comment: string },
    ): Promise<string> {
      const rows = await sql.query<{ id: string }>(
        `INSERT INTO fiscal_data_requests (tenant_id, customer_id, requested, previous, comment)
         VALUES (${tenant}, $1, $2::jsonb, $3::jsonb, $4) RETURNING id`,
        [r.customerId, JSON.stringify(r.requested), JSON.stringify(r.previous), r.comment],
      );
      const id = rows[0]?.id;
      if (!id) throw new Error('fiscal data request not written');
      return id;
    },

    /** Approves, rejects or withdraws a waiting request; false when it no longer waits. */
    async close(
      sql: SqlQuery,
      id: string,
      status: 'approved' | 'rejected' | 'withdrawn',
      reason: string,
    ): Promise<boolean> {
      const rows = await sql.query<{ id: string }>(
        `UPDATE fiscal_data_requests SET status = $2, reason = $3, closed_at = now()
          WHERE tenant_id = ${tenant} AND id = $1::uuid AND status = 'pending' RETURNING id`,
        [id, status, reason],
      );
      return rows.length === 1;
    },

    /** The customer hides the outcome of a decided request from the profile. */
    async dismiss(sql: SqlQuery, id: string): Promise<void> {
      await sql.query(
        `UPDATE fiscal_data_requests SET dismissed_at = coalesce(dismissed_at, now())
          WHERE tenant_id = ${tenant} AND id = $1::uuid`,
        [id],
      );
    },

    /** The tenant's requests, newest first, `limit` of them after the request `before`. */
    async list(
      sql: SqlQuery,
      q: { status: TFiscalRequestStatus | undefined; limit: number; before: string | undefined },
    ): Promise<FiscalRequestRow[]> {
      return sql.query<FiscalRequestRow>(
        `SELECT ${columns} FROM ${from}
          WHERE r.tenant_id = ${tenant}
            AND ($1::text IS NULL OR r.status = $1::text)
            AND ($2::uuid IS NULL OR (r.created_at, r.id) < (
                  SELECT created_at, id FROM fiscal_data_requests
                   WHERE tenant_id = ${tenant} AND id = $2::uuid))
          ORDER BY r.created_at DESC, r.id DESC
          LIMIT $3`,
        [q.status ?? null, q.before ?? null, q.limit],
      );
    },

    /** Where and in which language the customer is told of a decision. */
    async mailee(
      sql: SqlQuery,
      customerId: string,
    ): Promise<{ email: string; language: string } | undefined> {
      const rows = await sql.query<{ email: string; language: string }>(
        `SELECT email, language FROM customers WHERE tenant_id = ${tenant} AND id = $1`,
        [customerId],
      );
      return rows[0];
    },
  };
}
