import type { SqlQuery } from '../../db/database.ts';
import { chargedFeeSql } from '../returned-debits/repository.ts';

export type ReceiptRow = {
  id: string;
  order_number: string;
  amount_cents: number;
  ds_authorisation_code: string | null;
  /** `yyyymmdd` and `HH24:MI` of the settlement, in Madrid. */
  date: string;
  time: string;
  card_masked: string | null;
  card_brand: string | null;
  /** How it was paid (migration 026): a Bizum payment has no card. */
  pay_method: 'card' | 'bizum' | 'paypal';
  /** The gateway's signed answer that settled the payment (base64 JSON), for the masked card. */
  merchant_parameters: string | null;
  items: {
    invoice_id: string;
    seq: number;
    due_date: string;
    amount_cents: number;
    fee_cents: number;
  }[];
  /** What was given back of this charge (a surplus refunded), in cents. */
  refunded_cents: number;
};

export type ReceiptListRow = {
  id: string;
  order_number: string;
  amount_cents: number;
  date: string;
  invoices: string[];
};

/**
 * Reads only: receipts come from the payments module's tables, statements and archives from the
 * invoices module's. Every query names the tenant and the customer (row-level security is the
 * second lock). A completed payment is a card payment attempt whose status is `paid`.
 */
export function createDocumentRepository() {
  // When the gateway charged it (migration 041), else when it was settled: the day its
  // instalments were paid on, which "Mis pagos" and the statement show (session 39).
  const chargedAt = `coalesce(a.charged_at, a.settled_at, a.created_at)`;
  const settledDay = `to_char(${chargedAt} AT TIME ZONE 'Europe/Madrid', 'YYYYMMDD')`;
  /** The payment paid at least one instalment (see `listReceipts`). */
  const paidSomething = `EXISTS (
    SELECT 1 FROM payment_attempt_items p
     WHERE p.tenant_id = a.tenant_id AND p.attempt_id = a.id AND p.paid IS NOT FALSE)`;

  return {
    /*
     * A receipt shows what the payment paid: the instalments it paid (`payment_attempt_items.paid`,
     * migration 037; NULL before it, read as paid), each with the return fee charged with it, and
     * what of the charge was refunded. A charge that paid nothing (all of it refunded, another
     * payment had paid first) has no receipt: before session 36 it was listed with a PDF saying
     * it paid the invoice.
     */
    async listReceipts(sql: SqlQuery, customerId: string): Promise<ReceiptListRow[]> {
      return sql.query<ReceiptListRow>(
        `SELECT a.id::text AS id, a.order_number, a.amount_cents, ${settledDay} AS date,
                (SELECT coalesce(json_agg(DISTINCT e.invoice_id), '[]'::json)
                   FROM payment_attempt_items i
                   JOIN instalments e ON e.tenant_id = i.tenant_id AND e.id = i.instalment_id
                  WHERE i.tenant_id = a.tenant_id AND i.attempt_id = a.id
                    AND i.paid IS NOT FALSE) AS invoices
           FROM payment_attempts a
          WHERE a.tenant_id = current_setting('app.tenant_id') AND a.customer_id = $1
            AND a.kind = 'payment' AND a.status = 'paid' AND ${paidSomething}
          ORDER BY ${chargedAt} DESC
          LIMIT 50`,
        [customerId],
      );
    },

    async findReceipt(
      sql: SqlQuery,
      customerId: string,
      paymentId: string,
    ): Promise<ReceiptRow | undefined> {
      const rows = await sql.query<ReceiptRow>(
        `SELECT a.id::text AS id, a.order_number, a.amount_cents, a.ds_authorisation_code,
                ${settledDay} AS date,
                to_char(${chargedAt} AT TIME ZONE 'Europe/Madrid', 'HH24:MI') AS time,
                m.card_masked, m.card_brand, a.pay_method,
                (SELECT n.merchant_parameters FROM redsys_notifications n
                  WHERE n.tenant_id = a.tenant_id AND n.attempt_id = a.id AND n.outcome IN ('paid', 'overpaid')
                  ORDER BY n.received_at LIMIT 1) AS merchant_parameters,
                (SELECT coalesce(json_agg(json_build_object(
                          'invoice_id', e.invoice_id, 'seq', e.seq,
                          -- What the payment paid of it: the instalment's amount when the provider
                          -- lowered it before a late authorisation paid it (the rest was refunded).
                          'due_date', to_char(e.due_date, 'YYYYMMDD'),
                          'amount_cents', LEAST(e.amount_cents, i.amount_cents),
                          'fee_cents', i.fee_cents)
                          ORDER BY e.invoice_id, e.seq), '[]'::json)
                   FROM payment_attempt_items i
                   JOIN instalments e ON e.tenant_id = i.tenant_id AND e.id = i.instalment_id
                  WHERE i.tenant_id = a.tenant_id AND i.attempt_id = a.id
                    AND i.paid IS NOT FALSE) AS items,
                (SELECT coalesce(sum(r.amount_cents), 0)::int8 FROM payment_refunds r
                  WHERE r.tenant_id = a.tenant_id AND r.attempt_id = a.id
                    AND r.status = 'refunded') AS refunded_cents
           FROM payment_attempts a
           LEFT JOIN payment_methods m ON m.tenant_id = a.tenant_id AND m.id = a.payment_method_id
          WHERE a.tenant_id = current_setting('app.tenant_id') AND a.customer_id = $1
            AND a.id::text = $2 AND a.kind = 'payment' AND a.status = 'paid' AND ${paidSomething}`,
        [customerId, paymentId],
      );
      return rows[0];
    },

    /**
     * The statement's figures for [from, to] (`YYYY-MM-DD`): the balance before `from`, then the
     * invoices dated in the period, the returned debits and their fees, and the collections made in
     * it. Cancelled invoices count on neither side (nor the instalments of one); a cancelled
     * instalment of a live invoice is taken off what the invoice charges.
     */
    async statement(sql: SqlQuery, q: { customerId: string; from: string; to: string }) {
      // What an invoice charges: its total but the instalments the provider cancelled (owed by
      // nobody, as /invoice and /payments show them; before session 36 the statement kept them).
      const owed = `i.total_cents - coalesce((
          SELECT sum(c.amount_cents) FROM instalments c
           WHERE c.tenant_id = i.tenant_id AND c.invoice_id = i.id AND c.status = 'cancelled'), 0)`;
      // The returns of the customer's instalments of live invoices (`r`, `e`).
      const returnsOfCustomer = `FROM instalment_returns r
         JOIN instalments e ON e.tenant_id = r.tenant_id AND e.id = r.instalment_id
         JOIN invoices i ON i.tenant_id = e.tenant_id AND i.id = e.invoice_id AND NOT i.cancelled
        WHERE r.tenant_id = current_setting('app.tenant_id') AND e.customer_id = $1`;
      // A returned debit's bank fee the customer was charged: the one a payment collected (a card
      // payment, or the provider's new collection of the debit), or the one paying the instalment
      // now charges (`chargedFeeSql`, what the balance and the payment confirmation count). Before
      // session 37 the statement counted neither: it owed 30,25 € where the portal asked 34,25 €,
      // and credited a 34,25 € card payment with 30,25 €.
      const fees = `SELECT r.return_date, e.invoice_id,
              CASE WHEN r.fee_paid_cents IS NOT NULL THEN r.fee_paid_cents
                   WHEN r.return_date = (SELECT max(l.return_date) FROM instalment_returns l
                                          WHERE l.tenant_id = r.tenant_id AND l.instalment_id = r.instalment_id)
                   THEN ${chargedFeeSql('e')} ELSE 0 END AS fee_cents
         ${returnsOfCustomer}`;
      // A return charges back, on its day, the collection it undid (kept on the return, migration
      // 042): clearing the paid date no longer takes the collection out of its month.
      const returned = `SELECT r.return_date, e.invoice_id, r.collected_cents
         ${returnsOfCustomer} AND r.collected_on IS NOT NULL`;
      // Every collection of an instalment (`day`, `cents`): the one that pays it now; those a
      // return undid, on the day they were made; a returned debit's fee paid by card (with the
      // payment that paid the instalment) or by the provider's new collection (on its day).
      const credits = `SELECT e.id, e.invoice_id, e.paid_date AS day, e.amount_cents AS cents, e.method
           FROM instalments e
           JOIN invoices i ON i.tenant_id = e.tenant_id AND i.id = e.invoice_id AND NOT i.cancelled
          WHERE e.tenant_id = current_setting('app.tenant_id') AND e.customer_id = $1
            AND e.status = 'paid'
         UNION ALL
         SELECT e.id, e.invoice_id, r.collected_on, r.collected_cents, r.collected_method
           ${returnsOfCustomer} AND r.collected_on IS NOT NULL
         UNION ALL
         SELECT e.id, e.invoice_id,
                CASE WHEN r.paid_attempt_id IS NOT NULL THEN e.paid_date ELSE r.fee_paid_on END,
                r.fee_paid_cents, NULL
           ${returnsOfCustomer} AND r.fee_paid_cents IS NOT NULL
            AND (r.paid_attempt_id IS NULL OR e.status = 'paid')`;
      const [opening] = await sql.query<{
        invoiced: number;
        paid: number;
        fees: number;
        returned: number;
      }>(
        `SELECT
           (SELECT coalesce(sum(${owed}), 0)::int8 FROM invoices i
             WHERE i.tenant_id = current_setting('app.tenant_id') AND i.customer_id = $1
               AND NOT i.cancelled AND i.invoice_date < $2::date) AS invoiced,
           (SELECT coalesce(sum(c.cents), 0)::int8 FROM (${credits}) c
             WHERE c.day < $2::date) AS paid,
           (SELECT coalesce(sum(f.fee_cents), 0)::int8 FROM (${fees}) f
             WHERE f.return_date < $2::date) AS fees,
           (SELECT coalesce(sum(b.collected_cents), 0)::int8 FROM (${returned}) b
             WHERE b.return_date < $2::date) AS returned`,
        [q.customerId, q.from],
      );
      const returnFees = await sql.query<{ invoice_id: string; date: string; fee_cents: number }>(
        `SELECT f.invoice_id, to_char(f.return_date, 'YYYYMMDD') AS date, f.fee_cents
           FROM (${fees}) f
          WHERE f.fee_cents > 0 AND f.return_date BETWEEN $2::date AND $3::date`,
        [q.customerId, q.from, q.to],
      );
      const returns = await sql.query<{ invoice_id: string; date: string; amount_cents: number }>(
        `SELECT b.invoice_id, to_char(b.return_date, 'YYYYMMDD') AS date,
                b.collected_cents AS amount_cents
           FROM (${returned}) b
          WHERE b.return_date BETWEEN $2::date AND $3::date`,
        [q.customerId, q.from, q.to],
      );
      const invoices = await sql.query<{ id: string; date: string; total_cents: number }>(
        `SELECT i.id, to_char(i.invoice_date, 'YYYYMMDD') AS date, (${owed})::int8 AS total_cents
           FROM invoices i
          WHERE i.tenant_id = current_setting('app.tenant_id') AND i.customer_id = $1
            AND NOT i.cancelled AND i.invoice_date BETWEEN $2::date AND $3::date`,
        [q.customerId, q.from, q.to],
      );
      // One movement per instalment and day: a card payment's fee is credited with the
      // instalment it paid, as its receipt says.
      const payments = await sql.query<{
        invoice_id: string;
        date: string;
        credited_cents: number;
        method: string;
      }>(
        `SELECT c.invoice_id, to_char(c.day, 'YYYYMMDD') AS date,
                sum(c.cents)::int8 AS credited_cents, coalesce(max(c.method), '') AS method
           FROM (${credits}) c
          WHERE c.day BETWEEN $2::date AND $3::date
          GROUP BY c.id, c.invoice_id, c.day`,
        [q.customerId, q.from, q.to],
      );
      return {
        openingCents:
          Number(opening?.invoiced ?? 0) +
          Number(opening?.fees ?? 0) +
          Number(opening?.returned ?? 0) -
          Number(opening?.paid ?? 0),
        invoices,
        returns,
        returnFees,
        payments,
      };
    },

    /** Which of `ids` are the customer's invoices (the others are foreign or missing). */
    async ownInvoiceIds(sql: SqlQuery, customerId: string, ids: string[]): Promise<string[]> {
      const rows = await sql.query<{ id: string }>(
        `SELECT i.id FROM invoices i
          WHERE i.tenant_id = current_setting('app.tenant_id') AND i.customer_id = $1
            AND i.id = ANY($2::text[])
          ORDER BY i.invoice_date, i.id`,
        [customerId, ids],
      );
      return rows.map((r) => r.id);
    },

    /** The ids of the customer's invoices dated in [from, to], oldest first, at most `limit`. */
    async invoiceIdsOfPeriod(
      sql: SqlQuery,
      q: { customerId: string; from: string; to: string; limit: number },
    ): Promise<string[]> {
      const rows = await sql.query<{ id: string }>(
        `SELECT i.id FROM invoices i
          WHERE i.tenant_id = current_setting('app.tenant_id') AND i.customer_id = $1
            AND i.invoice_date BETWEEN $2::date AND $3::date
          ORDER BY i.invoice_date, i.id LIMIT $4`,
        [q.customerId, q.from, q.to, q.limit],
      );
      return rows.map((r) => r.id);
    },
  };
}
