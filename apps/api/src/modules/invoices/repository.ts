import type { SqlQuery } from '../../db/database.ts';
import type { Language } from '../mail/messages.ts';
import type { PdfCustomer, PdfTenant } from './pdf.ts';
import {
  chargedFeeSql,
  returnedDebitJsonSql,
  type ReturnedDebitJson,
} from '../returned-debits/repository.ts';

/**
 * The page query of a customer's instalments ("Mis pagos"), each with its returned debit and, when
 * paid through the portal (card or Bizum), its receipt's payment. `tenant` is the SQL naming the
 * tenant: the transaction's setting here, a parameter in the bench's floor
 * (bench/servers/payment-page.ts), which runs this same query. Parameters: $1 customer, $2 and $3
 * the due-date range, $4 today, $5 limit, $6 offset.
 *
 * ORDER BY names the table's columns: a bare `due_date` is the output's to_char text, which
 * PostgreSQL sorted after reading every instalment of the range instead of reading the page in the
 * order of the (tenant, customer, due_date, invoice, seq) index and stopping there.
 */
/** Unpaid means still owed: pending, or returned by the bank after a direct debit. */
export const unpaidStates = "('pending', 'returned')";

/**
 * The provider cancelled the instalment's invoice: none of it is owed, whatever the instalment
 * still says (payments' repository reads it the same way), so it is shown `cancelled` and is not
 * in the unpaid filters (before: "Vencido" with a "Pagar" that answered 422).
 */
const invoiceCancelled = `EXISTS (SELECT 1 FROM invoices v WHERE v.tenant_id = instalments.tenant_id
   AND v.id = instalments.invoice_id AND v.cancelled)`;

export const paymentsPageSql = (tenant: string, filter: string, dir: 'ASC' | 'DESC'): string =>
  `SELECT id, invoice_id, seq, to_char(due_date, 'YYYYMMDD') AS due_date,
          to_char(paid_date, 'YYYYMMDD') AS paid_date, amount_cents, method,
          CASE WHEN status IN ${unpaidStates} AND ${invoiceCancelled} THEN 'cancelled'
               ELSE status END AS status,
          ${returnedDebitJsonSql('instalments')} AS returned,
          CASE WHEN status = 'paid' THEN (
            SELECT a.id::text FROM payment_attempt_items pi
              JOIN payment_attempts a ON a.tenant_id = pi.tenant_id AND a.id = pi.attempt_id
             WHERE pi.tenant_id = instalments.tenant_id AND pi.instalment_id = instalments.id
               AND a.customer_id = instalments.customer_id
               AND a.kind = 'payment' AND a.status = 'paid'
               -- The payment that paid it, not one that charged it again and was refunded.
               AND pi.paid IS NOT FALSE
             ORDER BY coalesce(a.settled_at, a.created_at) DESC LIMIT 1) END AS receipt_id
     FROM instalments
    WHERE tenant_id = ${tenant} AND customer_id = $1
      AND due_date BETWEEN $2 AND $3 ${filter}
    ORDER BY instalments.due_date ${dir}, instalments.invoice_id ${dir}, instalments.seq ${dir}
    LIMIT $5 OFFSET $6`;

export type InvoiceListRow = {
  invoice_id: string;
  invoice_date: string;
  total_cents: number;
  owed_cents: number;
  cancelled: boolean;
  /** An unpaid instalment is due before today (Madrid): only the list query answers it. */
  overdue?: boolean;
  /** An unpaid instalment's direct debit came back from the bank: only the list query answers it. */
  returned?: boolean;
  /** An instalment of it was paid: only the list query answers it. */
  any_paid?: boolean;
  /** It has instalments and every one was cancelled: only the list query answers it. */
  all_cancelled?: boolean;
};

export type InvoiceRow = InvoiceListRow & {
  base_cents: number;
  vat_cents: number;
  customer_name: string;
  date_iso: string;
};

export type InvoiceLineRow = {
  person: string;
  concept: string;
  quota: string;
  quantity: number;
  unit_price_cents: number;
  vat_rate: number;
};

export type InstalmentRow = {
  id: string;
  invoice_id: string;
  seq: number;
  due_date: string;
  paid_date: string | null;
  amount_cents: number;
  method: string;
  status: 'pending' | 'paid' | 'cancelled' | 'returned';
  /** While `returned`: the bank's latest return of it, when the provider reported one. */
  returned: ReturnedDebitJson | null;
};

export type BalanceRow = {
  outstanding_cents: number;
  outstanding_count: number;
  overdue_cents: number;
  overdue_count: number;
  next_due_date: string | null;
  pay: { id: string; amount_cents: number }[];
};

/** One invoice of the customer ($1) by its id ($2): the columns, then the FROM clause. */
const invoiceSelect = `SELECT i.id AS invoice_id, to_char(i.invoice_date, 'YYYYMMDD') AS invoice_date,
                i.invoice_date::text AS date_iso, i.base_cents, i.vat_cents, i.total_cents, i.cancelled,
                coalesce(o.owed, 0) AS owed_cents,
                coalesce(nullif(c.invoice_name, ''), trim(c.name || ' ' || c.last_name)) AS customer_name`;

const owedLateral = `LEFT JOIN LATERAL (
    SELECT sum(e.amount_cents)::int8 AS owed FROM instalments e
     WHERE e.tenant_id = i.tenant_id AND e.invoice_id = i.id AND e.status IN ${unpaidStates}
       AND NOT i.cancelled) o ON true`;

/**
 * The same, plus whether an unpaid instalment is due before today ($6, Madrid), and whether one
 * was paid (read from the same rows of the index: every instalment of the invoice).
 */
const owedAndLateLateral = `LEFT JOIN LATERAL (
    SELECT (sum(e.amount_cents + ${chargedFeeSql('e')}) FILTER (WHERE e.status IN ${unpaidStates}))::int8 AS owed,
           bool_or(e.due_date < $6::date) FILTER (WHERE e.status IN ${unpaidStates}) AS overdue,
           bool_or(e.status = 'returned') AS returned, bool_or(e.status = 'paid') AS any_paid,
           bool_and(e.status = 'cancelled') AS all_cancelled
      FROM instalments e
     WHERE e.tenant_id = i.tenant_id AND e.invoice_id = i.id AND NOT i.cancelled) o ON true`;

const invoiceFrom = `FROM invoices i ${owedLateral}
           JOIN customers c ON c.tenant_id = i.tenant_id AND c.id = i.customer_id
          WHERE i.tenant_id = current_setting('app.tenant_id') AND i.customer_id = $1 AND i.id = $2`;

const hasUnpaid = `(NOT i.cancelled AND EXISTS (SELECT 1 FROM instalments e
                           WHERE e.tenant_id = i.tenant_id AND e.invoice_id = i.id
                             AND e.status IN ${unpaidStates}))`;

/**
 * The provider cancelled every instalment of it, one by one: nobody owes it and nobody paid it, so
 * it is cancelled as an invoice cancelled whole is (service.ts `invoiceState`), not paid.
 */
const allInstalmentsCancelled = `(EXISTS (SELECT 1 FROM instalments e
                           WHERE e.tenant_id = i.tenant_id AND e.invoice_id = i.id)
     AND NOT EXISTS (SELECT 1 FROM instalments e
                      WHERE e.tenant_id = i.tenant_id AND e.invoice_id = i.id
                        AND e.status <> 'cancelled'))`;

/**
 * Every query names the tenant and the customer: row-level security is the second lock, not the
 * first. A customer's invoices come from one range scan of invoices_customer_date.
 *
 * The page query of a customer's invoices. `tenant` is the SQL naming the tenant: the transaction's
 * setting here, a parameter in the bench's floor (bench/servers/invoice-page.ts), which runs this
 * same query. Parameters: $1 customer, $2 and $3 the date range, $4 limit, $5 offset, $6 today.
 */
export const invoicesPageSql = (tenant: string, filter: string): string =>
  `SELECT i.id AS invoice_id, to_char(i.invoice_date, 'YYYYMMDD') AS invoice_date, i.total_cents,
            coalesce(o.owed, 0) AS owed_cents, i.cancelled, coalesce(o.overdue, false) AS overdue,
            coalesce(o.returned, false) AS returned, coalesce(o.any_paid, false) AS any_paid,
            coalesce(o.all_cancelled, false) AS all_cancelled
       FROM invoices i ${owedAndLateLateral}
      WHERE i.tenant_id = ${tenant} AND i.customer_id = $1
        AND i.invoice_date BETWEEN $2 AND $3 ${filter}
      ORDER BY i.invoice_date DESC, i.id DESC
      LIMIT $4 OFFSET $5`;

/**
 * The statements of the two page queries, one constant per variant: the same string object every
 * call, which the prepared-statement cache (db/database.ts) finds by its hash, computed once; a
 * statement built per call was hashed and compared whole on every request.
 */
const invoiceListSql = Object.fromEntries(
  (
    [
      ['all', ''],
      // A credit note (a total below zero) is neither paid nor pending: only the whole list has it.
      [
        'paid',
        `AND NOT i.cancelled AND i.total_cents >= 0 AND NOT ${hasUnpaid} AND NOT ${allInstalmentsCancelled}`,
      ],
      ['pending', `AND ${hasUnpaid}`],
      // Both boxes ticked: paid or pending, which leaves out only the cancelled invoices.
      [
        'paidOrPending',
        `AND NOT i.cancelled AND i.total_cents >= 0 AND NOT ${allInstalmentsCancelled}`,
      ],
    ] as const
  ).map(([only, filter]) => [only, invoicesPageSql(`current_setting('app.tenant_id')`, filter)]),
) as Record<'all' | 'paid' | 'pending' | 'paidOrPending', string>;

/** `$4` is today: an unpaid instalment due before it is overdue. */
const pendingRow = `(status IN ${unpaidStates} AND due_date >= $4)`;
const overdueRow = `(status IN ${unpaidStates} AND due_date < $4)`;
const owedRow = `AND NOT ${invoiceCancelled}`;
const paymentFilters = {
  pending: `AND ${pendingRow} ${owedRow}`,
  overdue: `AND ${overdueRow} ${owedRow}`,
  both: `AND (${pendingRow} OR ${overdueRow}) ${owedRow}`,
  every: 'AND $4::date IS NOT NULL',
} as const;
type PaymentsPageKey = `${keyof typeof paymentFilters} ${'asc' | 'desc'}`;
const paymentsPage = Object.fromEntries(
  Object.entries(paymentFilters).flatMap(([states, filter]) =>
    (['asc', 'desc'] as const).map((order) => [
      `${states} ${order}`,
      paymentsPageSql(`current_setting('app.tenant_id')`, filter, order === 'asc' ? 'ASC' : 'DESC'),
    ]),
  ),
) as Record<PaymentsPageKey, string>;

export function createInvoiceRepository() {
  return {
    async listInvoices(
      sql: SqlQuery,
      q: {
        customerId: string;
        from: string;
        to: string;
        /** Today in Madrid (`YYYY-MM-DD`): an unpaid instalment due before it is overdue. */
        today: string;
        offset: number;
        limit: number;
        only?: 'paid' | 'pending' | 'paidOrPending';
      },
    ): Promise<InvoiceListRow[]> {
      return sql.query<InvoiceListRow>(invoiceListSql[q.only ?? 'all'], [
        q.customerId,
        q.from,
        q.to,
        q.limit,
        q.offset,
        q.today,
      ]);
    },

    async summary(sql: SqlQuery, q: { customerId: string; from: string; to: string }) {
      const rows = await sql.query<{ invoices: number; pending_cents: number }>(
        // What is pending counts a returned debit's fee the tenant charges, as the balance does.
        `SELECT count(DISTINCT i.id)::int AS invoices,
                coalesce(sum(e.amount_cents + ${chargedFeeSql('e')}), 0)::int8 AS pending_cents
           FROM invoices i
           JOIN instalments e ON e.tenant_id = i.tenant_id AND e.invoice_id = i.id AND e.status IN ${unpaidStates}
          WHERE i.tenant_id = current_setting('app.tenant_id') AND i.customer_id = $1
            AND i.invoice_date BETWEEN $2 AND $3 AND NOT i.cancelled`,
        [q.customerId, q.from, q.to],
      );
      return rows[0] ?? { invoices: 0, pending_cents: 0 };
    },

    async findInvoice(
      sql: SqlQuery,
      customerId: string,
      invoiceId: string,
    ): Promise<InvoiceRow | undefined> {
      const rows = await sql.query<InvoiceRow>(`${invoiceSelect} ${invoiceFrom}`, [
        customerId,
        invoiceId,
      ]);
      return rows[0];
    },

    /** The invoice with its lines and instalments in one statement (one round trip). */
    async findInvoiceWithParts(
      sql: SqlQuery,
      customerId: string,
      invoiceId: string,
    ): Promise<
      (InvoiceRow & { lines: InvoiceLineRow[]; instalments: InstalmentRow[] }) | undefined
    > {
      const rows = await sql.query<
        InvoiceRow & { lines: InvoiceLineRow[]; instalments: InstalmentRow[] }
      >(
        `${invoiceSelect},
                (SELECT coalesce(json_agg(json_build_object(
                          'person', l.person, 'concept', l.concept, 'quota', l.quota,
                          'quantity', l.quantity::float8, 'unit_price_cents', l.unit_price_cents,
                          'vat_rate', l.vat_rate::float8) ORDER BY l.line_no), '[]'::json)
                   FROM invoice_lines l
                  WHERE l.tenant_id = i.tenant_id AND l.invoice_id = i.id) AS lines,
                (SELECT coalesce(json_agg(json_build_object(
                          'id', e.id, 'invoice_id', e.invoice_id, 'seq', e.seq,
                          'due_date', to_char(e.due_date, 'YYYYMMDD'),
                          'paid_date', to_char(e.paid_date, 'YYYYMMDD'),
                          'amount_cents', e.amount_cents, 'method', e.method,
                          'status', CASE WHEN i.cancelled AND e.status IN ${unpaidStates}
                                         THEN 'cancelled' ELSE e.status END,
                          'returned', ${returnedDebitJsonSql('e')})
                          ORDER BY e.seq), '[]'::json)
                   FROM instalments e
                  WHERE e.tenant_id = i.tenant_id AND e.invoice_id = i.id) AS instalments
           ${invoiceFrom}`,
        [customerId, invoiceId],
      );
      return rows[0];
    },

    async related(
      sql: SqlQuery,
      customerId: string,
      invoice: { date_iso: string; invoice_id: string },
    ) {
      const rows = await sql.query<{
        previous_invoice_id: string | null;
        next_invoice_id: string | null;
      }>(
        `SELECT
           (SELECT id FROM invoices WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1
               AND (invoice_date, id) < ($2::date, $3) ORDER BY invoice_date DESC, id DESC LIMIT 1) AS previous_invoice_id,
           (SELECT id FROM invoices WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1
               AND (invoice_date, id) > ($2::date, $3) ORDER BY invoice_date ASC, id ASC LIMIT 1) AS next_invoice_id`,
        [customerId, invoice.date_iso, invoice.invoice_id],
      );
      return rows[0] ?? { previous_invoice_id: null, next_invoice_id: null };
    },

    /**
     * What the customer owes on `today` (Madrid), in one statement: unpaid instalments of invoices
     * that are not cancelled, their totals, the overdue part, the next due date still to come, and
     * the instalments one "Pagar" pays (the overdue ones, else all; oldest first, at most 200).
     */
    async balance(sql: SqlQuery, q: { customerId: string; today: string }): Promise<BalanceRow> {
      const rows = await sql.query<BalanceRow>(
        `WITH unpaid AS (
           SELECT e.id, e.invoice_id, e.seq, e.due_date,
                  -- What paying it charges: a returned debit's fee too, where the tenant charges it.
                  e.amount_cents + ${chargedFeeSql('e')} AS amount_cents, e.due_date < $2::date AS late
             FROM instalments e
             JOIN invoices i ON i.tenant_id = e.tenant_id AND i.id = e.invoice_id
            WHERE e.tenant_id = current_setting('app.tenant_id') AND e.customer_id = $1
              AND e.status IN ${unpaidStates} AND NOT i.cancelled),
         to_pay AS (
           SELECT u.id, u.amount_cents, u.due_date, u.invoice_id, u.seq FROM unpaid u
            WHERE u.late OR NOT EXISTS (SELECT 1 FROM unpaid l WHERE l.late)
            ORDER BY u.due_date, u.invoice_id, u.seq
            LIMIT 200)
         SELECT coalesce(sum(amount_cents), 0)::int8 AS outstanding_cents,
                count(*)::int AS outstanding_count,
                coalesce(sum(amount_cents) FILTER (WHERE late), 0)::int8 AS overdue_cents,
                count(*) FILTER (WHERE late)::int AS overdue_count,
                to_char(min(due_date) FILTER (WHERE NOT late), 'YYYYMMDD') AS next_due_date,
                (SELECT coalesce(json_agg(json_build_object('id', p.id, 'amount_cents', p.amount_cents)
                          ORDER BY p.due_date, p.invoice_id, p.seq), '[]'::json) FROM to_pay p) AS pay
           FROM unpaid`,
        [q.customerId, q.today],
      );
      const row = rows[0];
      if (!row) throw new Error('An aggregate answers one row');
      return row;
    },

    listPayments(
      sql: SqlQuery,
      q: {
        customerId: string;
        from: string;
        to: string;
        today: string;
        offset: number;
        limit: number;
        states: ('pending' | 'overdue')[];
        order: 'asc' | 'desc';
      },
    ): Promise<(InstalmentRow & { receipt_id: string | null })[]> {
      const pending = q.states.includes('pending');
      const overdue = q.states.includes('overdue');
      const states =
        pending && overdue ? 'both' : pending ? 'pending' : overdue ? 'overdue' : 'every';
      return sql.query<InstalmentRow & { receipt_id: string | null }>(
        paymentsPage[`${states} ${q.order}`],
        [q.customerId, q.from, q.to, q.today, q.limit, q.offset],
      );
    },
    /** Who issues and who receives the customer's invoices, as the PDF prints them. */
    async findPdfParties(sql: SqlQuery, customerId: string) {
      const [tenant] = await sql.query<PdfTenant>(
        `SELECT company_name, legal_name, legal_nif, legal_address, contact_email, primary_color, logo_mime, logo_data
           FROM tenants WHERE id = current_setting('app.tenant_id')`,
      );
      const [customer] = await sql.query<PdfCustomer & { language: Language }>(
        // One address whole: the postal one when it has a street, else the main one (before
        // session 38 field by field, so a Paris street read "España" and a street of one address
        // the postcode and province of the other).
        `SELECT coalesce(nullif(invoice_name, ''), trim(name || ' ' || last_name)) AS name, nif,
                CASE WHEN shipping_address <> '' THEN shipping_address ELSE address END AS address,
                CASE WHEN shipping_address <> '' THEN shipping_cp ELSE '' END AS postal_code,
                CASE WHEN shipping_address <> '' THEN shipping_city ELSE city END AS city,
                CASE WHEN shipping_address <> '' THEN shipping_province ELSE '' END AS province,
                CASE WHEN shipping_address <> '' THEN shipping_country ELSE country END AS country,
                coalesce(nullif(invoice_email, ''), email) AS email, language
           FROM customers WHERE tenant_id = current_setting('app.tenant_id') AND id = $1`,
        [customerId],
      );
      return tenant && customer ? { tenant, customer } : undefined;
    },
  };
}
