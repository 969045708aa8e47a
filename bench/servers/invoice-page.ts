import { InvoiceStatus, pageSize } from '@portal/contract';
import pg from 'pg';
import { centsToAmount, todayIso } from '../../apps/api/src/lib/dates.ts';

/**
 * The baselines' work: the same indexed query as the portal's `/invoices` (the repository's
 * listInvoices, with the tenant as a parameter instead of the transaction's setting) on a plain
 * pool, the same page of 20 plus one and the same answer's shape. No auth, no row-level security,
 * no transaction, no validation and no schema serialisation: the floor the portal is measured
 * against. The bench checks that both give the same answer before it measures.
 */
export const invoicePageSql = `SELECT i.id AS invoice_id, to_char(i.invoice_date, 'YYYYMMDD') AS invoice_date, i.total_cents,
       coalesce(o.owed, 0) AS owed_cents, i.cancelled, coalesce(o.overdue, false) AS overdue,
       coalesce(o.returned, false) AS returned
  FROM invoices i LEFT JOIN LATERAL (
    SELECT sum(e.amount_cents)::int8 AS owed, bool_or(e.due_date < $7::date) AS overdue,
           bool_or(e.status = 'returned') AS returned
      FROM instalments e
     WHERE e.tenant_id = i.tenant_id AND e.invoice_id = i.id AND e.status IN ('pending', 'returned')) o ON true
 WHERE i.tenant_id = $1 AND i.customer_id = $2 AND i.invoice_date BETWEEN $3 AND $4
 ORDER BY i.invoice_date DESC, i.id DESC
 LIMIT $5 OFFSET $6`;

export type InvoicePageRequest = {
  tenant: string;
  customer: string;
  datefrom: string;
  dateto: string;
  page: number;
};

/** A row of the page's statement (int8 as pg gives it: text; PGlite: a number). */
export type InvoicePageRow = {
  invoice_id: string;
  invoice_date: string;
  total_cents: string | number;
  owed_cents: string | number;
  cancelled: boolean;
  overdue: boolean;
  returned: boolean;
};

/** `yyyymmdd` as `yyyy-mm-dd`. */
export const isoOf = (api: string) => `${api.slice(0, 4)}-${api.slice(4, 6)}-${api.slice(6, 8)}`;

/** Runs the page's statement and answers its rows: on a pg pool, or on PGlite in process. */
export type RunPageQuery = (
  text: string,
  values: unknown[],
  prepared: boolean,
) => Promise<InvoicePageRow[]>;

/** The page's work on any database: the statement's values, and the answer shaped from its rows. */
export function invoicePageOn(run: RunPageQuery) {
  /**
   * `prepared`: as a named statement, which PostgreSQL parses and plans once per connection
   * (as the portal's reads are); otherwise as an unnamed one, parsed and planned every time.
   */
  return async (q: InvoicePageRequest, prepared = false) => {
    const values = [
      q.tenant,
      q.customer,
      isoOf(q.datefrom),
      isoOf(q.dateto),
      pageSize + 1,
      (q.page - 1) * pageSize,
      todayIso(),
    ];
    const rows = await run(invoicePageSql, values, prepared);
    return {
      invoices: rows.slice(0, pageSize).map((r) => {
        const owed = Number(r.owed_cents);
        const total = Number(r.total_cents);
        return {
          invoice_id: r.invoice_id,
          invoice_date: r.invoice_date,
          status: r.cancelled
            ? InvoiceStatus.cancelled
            : owed === 0
              ? InvoiceStatus.paid
              : InvoiceStatus.pending,
          // The portal's rule (invoices/service.ts invoiceState), on the same Madrid day.
          state: r.cancelled
            ? 'cancelled'
            : owed <= 0
              ? 'paid'
              : r.returned
                ? 'returned'
                : r.overdue
                  ? 'overdue'
                  : owed < total
                    ? 'partially_paid'
                    : 'pending',
          amount: centsToAmount(owed),
          total: centsToAmount(total),
        };
      }),
      has_more: rows.length > pageSize,
    };
  };
}

export function createInvoicePage(connectionString: string, max: number) {
  const pool = new pg.Pool({ connectionString, max });
  return {
    page: invoicePageOn(async (text, values, prepared) => {
      const { rows } = await pool.query<InvoicePageRow>(
        prepared ? { name: 'invoice_page', text, values } : text,
        prepared ? undefined : values,
      );
      return rows;
    }),
    /** One round trip to the database. */
    ping: async () => (await pool.query('SELECT 1 AS ok')).rows[0] as { ok: number },
    close: () => pool.end(),
    /** The pool, shared with the `/payments` floor (payment-page.ts). */
    pool,
  };
}

export const serverEnv = () => ({
  port: Number(process.env.PORT ?? 0),
  databaseUrl: process.env.DATABASE_URL ?? '',
  poolSize: Number(process.env.DATABASE_POOL_SIZE ?? 10),
});
