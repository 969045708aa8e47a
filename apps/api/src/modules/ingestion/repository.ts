import type { Sql } from '../../db/database.ts';
import { paidInPortalSql } from '../payments/repository.ts';
import { emptyTextArray, type TextArray } from '../../db/text-array.ts';
import type { ExistingInstalment } from './batch-checks.ts';

/**
 * The ingestion's SQL: set-based statements over a whole batch passed as one JSON parameter
 * (`jsonb_to_recordset`), so that 10,000 invoices take a handful of statements, not thousands.
 * Every upsert writes only rows whose values differ (`IS DISTINCT FROM`), which is what makes a
 * replayed batch change nothing. Every statement names the tenant; RLS is the second lock.
 */
const tenant = "current_setting('app.tenant_id')";

/** Customer columns the provider owns, in the order of the statements below. */
export const customerColumns = [
  'email',
  'name',
  'last_name',
  'nif',
  'address',
  'city',
  'country',
  'shipping_cp',
  'shipping_province',
  'shipping_city',
  'shipping_country',
  'shipping_address',
  'phone',
  'contact_name',
  'invoice_email',
  'invoice_name',
  'payment_method_label',
  'entry_date',
  'language',
] as const;
export type CustomerRecord = { code: string } & Record<
  (typeof customerColumns)[number],
  string | null
>;

const customerRecordType = [
  'code text',
  ...customerColumns.map((c) => `${c} ${c === 'entry_date' ? 'date' : 'text'}`),
].join(', ');

export type InstalmentKey = { invoice_id: string; seq: number };
export type StatusRecord = InstalmentKey & { status: string; paid_date: string | null };
const json = (rows: readonly object[]) => JSON.stringify(rows);

/**
 * A batch statement's written rows reduced to the invoices among `$2` (those stored before the
 * batch) that it changed: what "updated" counts. A new batch of 10,000 invoices sends back no row
 * instead of 10,000 to 15,000 that the event loop would parse for nothing.
 */
const storedTouched = (statement: string) =>
  `WITH w AS (${statement}) SELECT DISTINCT invoice_id FROM w WHERE invoice_id = ANY($2::text[])`;
const invoiceIdsOf = (rows: readonly { invoice_id: string }[]) => rows.map((r) => r.invoice_id);

/** An instalment in a card payment that still waits for the gateway's answer. */
const inPendingAttempt = (alias: string) =>
  `EXISTS (SELECT 1 FROM payment_attempt_items p
            WHERE p.tenant_id = ${alias}.tenant_id AND p.instalment_id = ${alias}.id AND p.active)`;

/** An invitation claimed from the outbox, with what its e-mail needs. */
export type ClaimedInvitation = {
  customer_id: string;
  attempts: number;
  email: string;
  language: string;
  has_password: boolean;
};

export function createIngestionRepository() {
  return {
    /**
     * One batch of the tenant's at a time, until this transaction ends. A batch decides what is
     * new and what is stored (and checks the stored) from what it reads first: two batches that
     * both created one invoice each took it for new, and the second overwrote the first's header
     * over its instalments, paid ones included; two that took one e-mail both passed its check.
     * Another tenant's batches do not wait.
     */
    async lockTenantBatches(sql: Sql): Promise<void> {
      await sql.query(`SELECT pg_advisory_xact_lock(hashtext('portal-ingestion:' || ${tenant}))`);
    },
    // ---- Customers ----

    /** Customers that hold one of the codes or one of the e-mails (lower case) of a batch. */
    /**
     * The addresses as the database lowers them (`lower()`, what every lookup of a sign-in
     * address compares), in their order: JavaScript's toLowerCase differs for a few letters (İ,
     * a final Σ), and an unchanged address then looked moved.
     */
    async lowerEmails(sql: Sql, emails: readonly string[]): Promise<string[]> {
      const rows = await sql.query<{ email: string }>(
        `SELECT lower(e) AS email FROM unnest($1::text[]) WITH ORDINALITY AS t(e, i) ORDER BY i`,
        [emails],
      );
      return rows.map((r) => r.email);
    },

    async customersByCodeOrEmail(sql: Sql, codes: string[], emails: string[]) {
      return sql.query<{ id: string; code: string; email: string }>(
        `SELECT id, code, lower(email) AS email FROM customers
          WHERE tenant_id = ${tenant} AND (code = ANY($1::text[]) OR lower(email) = ANY($2::text[]))`,
        [codes, emails],
      );
    },

    /** Creates or updates customers by code; answers the codes of the rows written. */
    async upsertCustomers(sql: Sql, rows: CustomerRecord[]): Promise<string[]> {
      const cols = customerColumns.join(', ');
      const written = await sql.query<{ code: string }>(
        `INSERT INTO customers (tenant_id, code, ${cols})
         SELECT ${tenant}, b.code, ${customerColumns.map((c) => `b.${c}`).join(', ')}
           FROM jsonb_to_recordset($1::jsonb) AS b(${customerRecordType})
         ON CONFLICT (tenant_id, code) DO UPDATE
            SET ${customerColumns.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}, updated_at = now()
          WHERE (${customerColumns.map((c) => `customers.${c}`).join(', ')})
                IS DISTINCT FROM (${customerColumns.map((c) => `EXCLUDED.${c}`).join(', ')})
         RETURNING code`,
        [json(rows)],
      );
      return written.map((r) => r.code);
    },

    /** Queues an invitation for each of these customers who has no password yet. */
    async queueInvitations(sql: Sql, codes: string[]): Promise<number> {
      if (codes.length === 0) return 0;
      const rows = await sql.query(
        `INSERT INTO customer_invitations (tenant_id, customer_id)
         SELECT c.tenant_id, c.id FROM customers c
          WHERE c.tenant_id = ${tenant} AND c.code = ANY($1::text[]) AND c.password_hash IS NULL
         ON CONFLICT DO NOTHING RETURNING customer_id`,
        [codes],
      );
      return rows.length;
    },

    /**
     * Claims up to `batchSize` due invitations of the tenant (SKIP LOCKED: another instance never
     * claims the same ones) and pushes each one's next attempt `leaseSeconds` away, the time to
     * send it; answers them with their customer's address.
     */
    async claimInvitations(
      sql: Sql,
      q: { batchSize: number; leaseSeconds: number },
    ): Promise<ClaimedInvitation[]> {
      return sql.query<ClaimedInvitation>(
        `WITH due AS (
           SELECT customer_id FROM customer_invitations
            WHERE tenant_id = current_setting('app.tenant_id') AND status = 'pending'
              AND next_attempt_at <= now()
            ORDER BY next_attempt_at, customer_id
            LIMIT $1
            FOR UPDATE SKIP LOCKED),
         claimed AS (
           UPDATE customer_invitations i
              SET attempts = i.attempts + 1, next_attempt_at = now() + make_interval(secs => $2)
             FROM due
            WHERE i.tenant_id = current_setting('app.tenant_id') AND i.customer_id = due.customer_id
           RETURNING i.customer_id, i.attempts)
         SELECT c.id AS customer_id, claimed.attempts, c.email, c.language,
                c.password_hash IS NOT NULL AS has_password
           FROM claimed JOIN customers c
             ON c.tenant_id = current_setting('app.tenant_id') AND c.id = claimed.customer_id
            -- The customer as a batch moving their address leaves them: the claim waits for it
            -- and reads the new address. Without the lock it read the old one, and the token it
            -- stored for it came after the batch had spent that address's links: the invitation
            -- went to the old mailbox with a link that set the password (session 39).
            FOR SHARE OF c`,
        [q.batchSize, q.leaseSeconds],
      );
    },

    async markInvitationSent(sql: Sql, customerId: string, note: string | null): Promise<void> {
      await sql.query(
        `UPDATE customer_invitations SET status = 'sent', sent_at = now(), last_error = $2
          WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1`,
        [customerId, note],
      );
    },

    /** A failed send: retried after `retrySeconds`, or kept as `failed` after `maxAttempts`. */
    async markInvitationFailed(
      sql: Sql,
      q: { customerId: string; error: string; maxAttempts: number; retrySeconds: number },
    ): Promise<void> {
      await sql.query(
        `UPDATE customer_invitations
            SET status = CASE WHEN attempts >= $3 THEN 'failed' ELSE 'pending' END,
                next_attempt_at = now() + make_interval(secs => $4), last_error = $2
          WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1`,
        [q.customerId, q.error, q.maxAttempts, q.retrySeconds],
      );
    },

    /** The tenants with invitations due: a read across tenants, run by the owner. */
    async tenantsWithDueInvitations(sql: Sql): Promise<string[]> {
      const rows = await sql.query<{ tenant_id: string }>(
        `SELECT DISTINCT tenant_id FROM customer_invitations
          WHERE status = 'pending' AND next_attempt_at <= now() ORDER BY tenant_id`,
      );
      return rows.map((r) => r.tenant_id);
    },

    /** The customers of these codes that exist, and whether each has a password. */
    async customersForInvitation(sql: Sql, codes: string[]) {
      return sql.query<{ code: string; id: string; has_password: boolean }>(
        `SELECT code, id, password_hash IS NOT NULL AS has_password FROM customers
          WHERE tenant_id = ${tenant} AND code = ANY($1::text[])`,
        [codes],
      );
    },

    /**
     * Puts these customers' invitations in the outbox, due now: a new row, or a `sent` or `failed`
     * one back to `pending` with its attempts reset. One already `pending` keeps its schedule (it
     * may be being sent right now). Answers how many rows were written.
     */
    async requeueInvitations(sql: Sql, customerIds: string[]): Promise<number> {
      if (customerIds.length === 0) return 0;
      const rows = await sql.query(
        `INSERT INTO customer_invitations (tenant_id, customer_id)
         SELECT ${tenant}, id FROM unnest($1::uuid[]) AS b(id)
         ON CONFLICT (tenant_id, customer_id) DO UPDATE
            SET status = 'pending', attempts = 0, next_attempt_at = now(), last_error = NULL,
                sent_at = NULL
          WHERE customer_invitations.status <> 'pending'
         RETURNING customer_id`,
        [customerIds],
      );
      return rows.length;
    },

    /** Customer ids by code, for the codes of a batch that exist. */
    async customerIds(sql: Sql, codes: string[]): Promise<Map<string, string>> {
      const rows = await sql.query<{ code: string; id: string }>(
        `SELECT code, id FROM customers WHERE tenant_id = ${tenant} AND code = ANY($1::text[])`,
        [codes],
      );
      return new Map(rows.map((r) => [r.code, r.id]));
    },

    // ---- Invoices ----

    async existingInvoices(sql: Sql, ids: TextArray): Promise<Map<string, string>> {
      const rows = await sql.query<{ id: string; customer_id: string }>(
        `SELECT id, customer_id FROM invoices WHERE tenant_id = ${tenant} AND id = ANY($1::text[])`,
        [ids],
      );
      return new Map(rows.map((r) => [r.id, r.customer_id]));
    },

    /**
     * The stored instalments of these invoices, locked until the batch commits: a card payment
     * started meanwhile waits for it (and then sees the new amounts), or the batch sees it.
     */
    async lockInstalments(
      sql: Sql,
      invoiceIds: TextArray,
    ): Promise<(ExistingInstalment & { invoice_id: string })[]> {
      if (invoiceIds === emptyTextArray) return [];
      // Locked first, read after, in two statements: a statement that waited for a lock reads
      // the rest with the snapshot it took before waiting, so `in_attempt` computed in it missed
      // the payment whose start held the lock (session 34's review). The second statement's
      // snapshot is taken after the lock: it sees that payment.
      await sql.query(
        `SELECT 1 FROM instalments e
          WHERE e.tenant_id = ${tenant} AND e.invoice_id = ANY($1::text[])
          ORDER BY e.invoice_id, e.seq
          FOR UPDATE OF e`,
        [invoiceIds],
      );
      return sql.query<ExistingInstalment & { invoice_id: string }>(
        `SELECT e.invoice_id, e.seq, e.amount_cents, e.status, ${inPendingAttempt('e')} AS in_attempt,
                ${paidInPortalSql('e')} AS paid_in_portal
           FROM instalments e
          WHERE e.tenant_id = ${tenant} AND e.invoice_id = ANY($1::text[])
          ORDER BY e.invoice_id, e.seq`,
        [invoiceIds],
      );
    },

    /**
     * Creates or updates invoice headers from the rows' JSON (InvoiceBatch.invoicesJson, customers
     * by code, every code known: checked before); answers the ids of the rows written.
     */
    async upsertInvoices(sql: Sql, rowsJson: string, storedIds: TextArray): Promise<string[]> {
      const written = await sql.query<{ invoice_id: string }>(
        storedTouched(`INSERT INTO invoices (tenant_id, id, customer_id, invoice_date, base_cents, vat_cents, total_cents, cancelled)
         SELECT ${tenant}, b.id, c.id, b.invoice_date, b.base_cents, b.vat_cents, b.total_cents, b.cancelled
           FROM jsonb_to_recordset($1::jsonb) AS b(id text, customer_code text, invoice_date date,
                base_cents int8, vat_cents int8, total_cents int8, cancelled boolean)
           JOIN customers c ON c.tenant_id = ${tenant} AND c.code = b.customer_code
         ON CONFLICT (tenant_id, id) DO UPDATE
            SET customer_id = EXCLUDED.customer_id, invoice_date = EXCLUDED.invoice_date,
                base_cents = EXCLUDED.base_cents, vat_cents = EXCLUDED.vat_cents,
                total_cents = EXCLUDED.total_cents, cancelled = EXCLUDED.cancelled
          WHERE (invoices.customer_id, invoices.invoice_date, invoices.base_cents, invoices.vat_cents,
                 invoices.total_cents, invoices.cancelled)
                IS DISTINCT FROM (EXCLUDED.customer_id, EXCLUDED.invoice_date, EXCLUDED.base_cents,
                 EXCLUDED.vat_cents, EXCLUDED.total_cents, EXCLUDED.cancelled)
         RETURNING id AS invoice_id`),
        [rowsJson, storedIds],
      );
      return invoiceIdsOf(written);
    },

    /** Who each of these invoices is for, the cancelled ones left out (a new one is news). */
    async liveInvoiceCustomers(sql: Sql, ids: string[]) {
      if (ids.length === 0) return [];
      return sql.query<{ id: string; customer_id: string }>(
        `SELECT id, customer_id FROM invoices
          WHERE tenant_id = ${tenant} AND id = ANY($1::text[]) AND NOT cancelled ORDER BY id`,
        [ids],
      );
    },

    /**
     * The lines of the stored invoices `invoiceIds` that the batch does not send any more (it holds
     * each invoice's complete lines: `sentIds[k]`, `sentLineNos[k]`), deleted in the database:
     * the stored lines are not read back to find them (10,000 rows to the thread and their checks,
     * while PostgreSQL held a core). Answers the invoices that lost a line.
     */
    async deleteUnsentLines(
      sql: Sql,
      invoiceIds: TextArray,
      sentIds: TextArray,
      sentLineNos: readonly number[],
    ): Promise<string[]> {
      if (invoiceIds === emptyTextArray) return [];
      const rows = await sql.query<{ invoice_id: string }>(
        `DELETE FROM invoice_lines l
          WHERE l.tenant_id = ${tenant} AND l.invoice_id = ANY($1::text[])
            AND NOT EXISTS (SELECT 1 FROM unnest($2::text[], $3::int[]) AS s(invoice_id, line_no)
                             WHERE s.invoice_id = l.invoice_id AND s.line_no = l.line_no)
         RETURNING l.invoice_id`,
        [invoiceIds, sentIds, sentLineNos],
      );
      return [...new Set(invoiceIdsOf(rows))];
    },

    /** The lines' rows as JSON (InvoiceBatch.linesJson). */
    async upsertLines(sql: Sql, rowsJson: string, storedIds: TextArray): Promise<string[]> {
      const written = await sql.query<{ invoice_id: string }>(
        storedTouched(`INSERT INTO invoice_lines (tenant_id, invoice_id, line_no, person, concept, quota, quantity, unit_price_cents, vat_rate)
         SELECT ${tenant}, b.invoice_id, b.line_no, b.person, b.concept, b.quota, b.quantity, b.unit_price_cents, b.vat_rate
           FROM jsonb_to_recordset($1::jsonb) AS b(invoice_id text, line_no int, person text, concept text,
                quota text, quantity numeric, unit_price_cents int8, vat_rate numeric)
         ON CONFLICT (tenant_id, invoice_id, line_no) DO UPDATE
            SET person = EXCLUDED.person, concept = EXCLUDED.concept, quota = EXCLUDED.quota,
                quantity = EXCLUDED.quantity, unit_price_cents = EXCLUDED.unit_price_cents,
                vat_rate = EXCLUDED.vat_rate
          WHERE (invoice_lines.person, invoice_lines.concept, invoice_lines.quota, invoice_lines.quantity,
                 invoice_lines.unit_price_cents, invoice_lines.vat_rate)
                IS DISTINCT FROM (EXCLUDED.person, EXCLUDED.concept, EXCLUDED.quota, EXCLUDED.quantity,
                 EXCLUDED.unit_price_cents, EXCLUDED.vat_rate)
         RETURNING invoice_id`),
        [rowsJson, storedIds],
      );
      return invoiceIdsOf(written);
    },

    /** Removes instalments the batch left out: only pending ones outside any payment (checked). */
    async deleteInstalments(sql: Sql, keys: InstalmentKey[]): Promise<string[]> {
      if (keys.length === 0) return [];
      const rows = await sql.query<{ invoice_id: string }>(
        `DELETE FROM instalments e USING unnest($1::text[], $2::int[]) AS d(invoice_id, seq)
          WHERE e.tenant_id = ${tenant} AND e.invoice_id = d.invoice_id AND e.seq = d.seq
            AND e.status = 'pending' AND NOT ${inPendingAttempt('e')}
         RETURNING e.invoice_id`,
        [keys.map((k) => k.invoice_id), keys.map((k) => k.seq)],
      );
      return invoiceIdsOf(rows);
    },

    /**
     * Due date, amount, method and customer of the stored instalments among the rows (JSON of
     * InvoiceBatch.instalmentsJson, customers by code); their state is not touched.
     */
    async updateInstalments(sql: Sql, rowsJson: string, storedIds: TextArray): Promise<string[]> {
      const written = await sql.query<{ invoice_id: string }>(
        storedTouched(`UPDATE instalments e
            SET customer_id = b.customer_id, due_date = b.due_date, amount_cents = b.amount_cents,
                method = coalesce(b.method, e.method),
                -- Moved to another customer: theirs from today, Madrid (auto-pay reads it).
                customer_since = CASE WHEN e.customer_id <> b.customer_id
                                      THEN (now() AT TIME ZONE 'Europe/Madrid')::date
                                      ELSE e.customer_since END
           FROM (SELECT r.invoice_id, r.seq, c.id AS customer_id, r.due_date, r.amount_cents, r.method
                   FROM jsonb_to_recordset($1::jsonb) AS r(invoice_id text, seq int, customer_code text,
                        due_date date, amount_cents int8, method text)
                   JOIN customers c ON c.tenant_id = ${tenant} AND c.code = r.customer_code) AS b
          WHERE e.tenant_id = ${tenant} AND e.invoice_id = b.invoice_id AND e.seq = b.seq
            AND (e.customer_id, e.due_date, e.amount_cents, e.method)
                IS DISTINCT FROM (b.customer_id, b.due_date, b.amount_cents, coalesce(b.method, e.method))
         RETURNING e.invoice_id`),
        [rowsJson, storedIds],
      );
      return invoiceIdsOf(written);
    },

    /** The rows (same JSON) that are not stored yet, with their state. */
    async insertInstalments(sql: Sql, rowsJson: string, storedIds: TextArray): Promise<string[]> {
      const written = await sql.query<{ invoice_id: string }>(
        // customer_since: theirs from today, Madrid, as a moved one (auto-pay charges an instalment
        // that arrives already due only as it would a moved one: announced, or due after today).
        storedTouched(`INSERT INTO instalments (tenant_id, invoice_id, seq, customer_id, due_date, amount_cents, method, status, paid_date, customer_since)
         SELECT ${tenant}, b.invoice_id, b.seq, c.id, b.due_date, b.amount_cents,
                coalesce(b.method, ''), b.status, b.paid_date,
                (now() AT TIME ZONE 'Europe/Madrid')::date
           FROM jsonb_to_recordset($1::jsonb) AS b(invoice_id text, seq int, customer_code text,
                due_date date, amount_cents int8, method text, status text, paid_date date)
           JOIN customers c ON c.tenant_id = ${tenant} AND c.code = b.customer_code
         ON CONFLICT (tenant_id, invoice_id, seq) DO NOTHING
         RETURNING invoice_id`),
        [rowsJson, storedIds],
      );
      return invoiceIdsOf(written);
    },

    // ---- Instalment states ----

    async lockInstalmentsByKey(sql: Sql, keys: InstalmentKey[]) {
      const params = [keys.map((k) => k.invoice_id), keys.map((k) => k.seq)];
      const from = `FROM instalments e
           JOIN unnest($1::text[], $2::int[]) AS k(invoice_id, seq)
             ON e.invoice_id = k.invoice_id AND e.seq = k.seq
          WHERE e.tenant_id = ${tenant}
          ORDER BY e.invoice_id, e.seq`;
      // Locked, then read by a second statement (its snapshot sees a payment that held the lock):
      // as `lockInstalments`.
      await sql.query(`SELECT 1 ${from} FOR UPDATE OF e`, params);
      return sql.query<
        InstalmentKey & {
          status: string;
          in_attempt: boolean;
          paid_in_portal: boolean;
          invoice_cancelled: boolean;
        }
      >(
        `SELECT e.invoice_id, e.seq, e.status, ${inPendingAttempt('e')} AS in_attempt,
                ${paidInPortalSql('e')} AS paid_in_portal,
                EXISTS (SELECT 1 FROM invoices v WHERE v.tenant_id = e.tenant_id
                         AND v.id = e.invoice_id AND v.cancelled) AS invoice_cancelled ${from}`,
        params,
      );
    },

    /**
     * The provider's states. An instalment paid in the portal (card, Bizum) keeps its own: its
     * receipt and the statement date it by the gateway's charge, and the provider's `paid` with
     * another day moved the payment into another (possibly closed) month (session 40 review).
     */
    async setStatuses(sql: Sql, rows: StatusRecord[]): Promise<number> {
      const written = await sql.query(
        `UPDATE instalments e SET status = b.status, paid_date = b.paid_date
           FROM jsonb_to_recordset($1::jsonb) AS b(invoice_id text, seq int, status text, paid_date date)
          WHERE e.tenant_id = ${tenant} AND e.invoice_id = b.invoice_id AND e.seq = b.seq
            AND (e.status, e.paid_date) IS DISTINCT FROM (b.status, b.paid_date)
            AND NOT ${paidInPortalSql('e')}
         RETURNING e.id`,
        [json(rows)],
      );
      return written.length;
    },

    // ---- Payment method requests ----

    async findRequestForUpdate(sql: Sql, id: string) {
      const rows = await sql.query<{
        id: string;
        kind: 'main_change' | 'verification';
        status: 'pending' | 'approved' | 'rejected';
        customer_id: string;
        payment_method_id: string;
        method_live: boolean;
      }>(
        `SELECT r.id, r.kind, r.status, r.customer_id, r.payment_method_id,
                EXISTS (SELECT 1 FROM payment_methods m WHERE m.tenant_id = r.tenant_id
                           AND m.id = r.payment_method_id AND m.deleted_at IS NULL) AS method_live
           FROM payment_method_requests r
          WHERE r.tenant_id = ${tenant} AND r.id::text = $1
          FOR UPDATE OF r`,
        [id],
      );
      return rows[0];
    },

    /** A page of requests, newest first, older than the request `before` when given. */
    async listRequests(
      sql: Sql,
      input: { status: string | undefined; limit: number; before: string | undefined },
    ) {
      return sql.query<{
        id: string;
        kind: 'main_change' | 'verification';
        status: 'pending' | 'approved' | 'rejected';
        customer_code: string;
        method_id: string;
        method_kind: 'card' | 'bank_account' | 'bank_transfer';
        alias: string;
        holder: string;
        card_masked: string | null;
        iban: string | null;
        nif: string | null;
        entity: string | null;
        method_deleted: boolean;
        created_at: Date;
        reviewed_at: Date | null;
      }>(
        `SELECT r.id, r.kind, r.status, c.code AS customer_code, m.id AS method_id,
                m.kind AS method_kind, m.alias, m.holder, m.card_masked, m.iban, m.nif, m.entity,
                m.deleted_at IS NOT NULL AS method_deleted, r.created_at, r.reviewed_at
           FROM payment_method_requests r
           JOIN customers c ON c.tenant_id = r.tenant_id AND c.id = r.customer_id
           JOIN payment_methods m ON m.tenant_id = r.tenant_id AND m.id = r.payment_method_id
          WHERE r.tenant_id = ${tenant}
            AND ($1::text IS NULL OR r.status = $1::text)
            AND ($2::uuid IS NULL OR (r.created_at, r.id) < (
                  SELECT created_at, id FROM payment_method_requests
                   WHERE tenant_id = ${tenant} AND id = $2::uuid))
          ORDER BY r.created_at DESC, r.id DESC
          LIMIT $3`,
        [input.status ?? null, input.before ?? null, input.limit],
      );
    },

    /** The customer's main method becomes this one, and only this one. */
    async makeMain(sql: Sql, customerId: string, methodId: string): Promise<void> {
      await sql.query(
        `UPDATE payment_methods SET is_main = (id = $2)
          WHERE tenant_id = ${tenant} AND customer_id = $1 AND deleted_at IS NULL
            AND is_main IS DISTINCT FROM (id = $2)`,
        [customerId, methodId],
      );
    },

    /** A verified bank account becomes active; answers its alias when it was not active yet. */
    async activate(sql: Sql, methodId: string): Promise<{ alias: string } | undefined> {
      const rows = await sql.query<{ alias: string }>(
        `UPDATE payment_methods SET status = 'active'
          WHERE tenant_id = ${tenant} AND id = $1 AND status = 'unverified' RETURNING alias`,
        [methodId],
      );
      return rows[0];
    },

    /** Records the answer (the service tells the customer). */
    async answerRequest(sql: Sql, id: string, status: 'approved' | 'rejected'): Promise<void> {
      await sql.query(
        `UPDATE payment_method_requests SET status = $2, reviewed_at = now()
          WHERE tenant_id = ${tenant} AND id = $1 AND status = 'pending'`,
        [id, status],
      );
    },
  };
}
