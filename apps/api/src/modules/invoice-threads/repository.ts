import type { TThreadAuthor, TThreadStatus } from '@portal/contract';
import type { SqlQuery } from '../../db/database.ts';

const tenant = "current_setting('app.tenant_id')";

export type ThreadRow = {
  id: string;
  customer_id: string;
  invoice_id: string;
  status: TThreadStatus;
  created_at: Date;
  last_message_at: Date;
};

export type MessageRow = {
  id: string;
  thread_id: string;
  author: TThreadAuthor;
  author_name: string;
  body: string;
  created_at: Date;
};

export type SummaryRow = ThreadRow & {
  unread: boolean;
  last_id: string;
  last_author: TThreadAuthor;
  last_author_name: string;
  last_body: string;
  last_created_at: Date;
};

export type AdminThreadRow = ThreadRow & {
  customer_code: string;
  messages: number;
  unread: number;
};
export type AdminMessageRow = MessageRow & { invoice_id: string; customer_code: string };

const threadColumns =
  't.id, t.customer_id, t.invoice_id, t.status, t.created_at, t.last_message_at';
const messageColumns = 'm.id, m.thread_id, m.author, m.author_name, m.body, m.created_at';

/**
 * The conversation's invoice is still its customer's. The provider may move an invoice to another
 * customer (`PUT /admin/invoices`): the conversation then is the old customer's no more, to read or
 * to write in, like any foreign invoice (before session 36 they kept reading and writing in it).
 */
const invoiceStillTheirs = `EXISTS (
  SELECT 1 FROM invoices i
   WHERE i.tenant_id = t.tenant_id AND i.id = t.invoice_id AND i.customer_id = t.customer_id)`;

/** A conversation is unread when the organisation wrote after the customer's read marker. */
const unreadExpr = `EXISTS (
  SELECT 1 FROM invoice_thread_messages o
   WHERE o.tenant_id = t.tenant_id AND o.thread_id = t.id AND o.author = 'organisation'
     AND o.created_at > COALESCE((
       SELECT r.read_at FROM invoice_thread_reads r
        WHERE r.tenant_id = t.tenant_id AND r.thread_id = t.id AND r.reader = 'customer'),
       '-infinity'::timestamptz))`;

/**
 * The customer's messages the organisation has not read: written after its read marker (moved by
 * answering and by `POST /admin/invoice-threads/:id/read`).
 */
const orgUnreadExpr = `(
  SELECT count(*)::int FROM invoice_thread_messages c
   WHERE c.tenant_id = t.tenant_id AND c.thread_id = t.id AND c.author = 'customer'
     AND c.created_at > COALESCE((
       SELECT r.read_at FROM invoice_thread_reads r
        WHERE r.tenant_id = t.tenant_id AND r.thread_id = t.id AND r.reader = 'organisation'),
       '-infinity'::timestamptz))`;

const adminColumns = `${threadColumns}, c.code AS customer_code,
  (SELECT count(*)::int FROM invoice_thread_messages m
    WHERE m.tenant_id = t.tenant_id AND m.thread_id = t.id) AS messages,
  ${orgUnreadExpr} AS unread`;

/** The SQL of `invoice_threads`, `invoice_thread_messages` and `invoice_thread_reads` (their one writer). */
export function createInvoiceThreadRepository() {
  return {
    /** True when the invoice is the customer's own (someone else's is like one that does not exist). */
    async isOwnInvoice(sql: SqlQuery, customerId: string, invoiceId: string): Promise<boolean> {
      const rows = await sql.query<{ ok: boolean }>(
        `SELECT true AS ok FROM invoices
          WHERE tenant_id = ${tenant} AND customer_id = $1 AND id = $2`,
        [customerId, invoiceId],
      );
      return rows.length > 0;
    },

    /**
     * The customer's open conversations, counted with the customer row locked, so that two
     * requests at once cannot both pass the cap.
     */
    async lockAndCountOpen(sql: SqlQuery, customerId: string): Promise<number> {
      await sql.query(
        `SELECT 1 FROM customers WHERE tenant_id = ${tenant} AND id = $1 FOR UPDATE`,
        [customerId],
      );
      // Only those still the customer's: one about an invoice the provider moved to another
      // customer is no longer theirs to see or close, so it takes none of their places.
      const rows = await sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM invoice_threads t
          WHERE t.tenant_id = ${tenant} AND t.customer_id = $1 AND t.status = 'open'
            AND ${invoiceStillTheirs}`,
        [customerId],
      );
      return rows[0]?.n ?? 0;
    },

    /**
     * The open conversation about the invoice, locked for a new message: a close committing
     * meanwhile is waited for and seen (the row is checked again), so a message never lands in a
     * conversation the organisation closed.
     */
    async lockOpenByInvoice(
      sql: SqlQuery,
      customerId: string,
      invoiceId: string,
    ): Promise<ThreadRow | undefined> {
      const rows = await sql.query<ThreadRow>(
        `SELECT ${threadColumns} FROM invoice_threads t
          WHERE t.tenant_id = ${tenant} AND t.customer_id = $1 AND t.invoice_id = $2
            AND t.status = 'open'
          FOR UPDATE`,
        [customerId, invoiceId],
      );
      return rows[0];
    },

    async insertThread(sql: SqlQuery, customerId: string, invoiceId: string): Promise<ThreadRow> {
      const rows = await sql.query<ThreadRow>(
        `INSERT INTO invoice_threads AS t (tenant_id, customer_id, invoice_id)
         VALUES (${tenant}, $1, $2) RETURNING ${threadColumns}`,
        [customerId, invoiceId],
      );
      const row = rows[0];
      if (!row) throw new Error('thread not written');
      return row;
    },

    /**
     * The thread, locked for a new message; only the customer's own when `customerId` is given
     * (and only while the invoice is still theirs). `invoice_is_theirs` tells the organisation.
     */
    async lockThread(
      sql: SqlQuery,
      threadId: string,
      customerId: string | null,
    ): Promise<(ThreadRow & { invoice_is_theirs: boolean }) | undefined> {
      const rows = await sql.query<ThreadRow & { invoice_is_theirs: boolean }>(
        `SELECT ${threadColumns}, ${invoiceStillTheirs} AS invoice_is_theirs FROM invoice_threads t
          WHERE t.tenant_id = ${tenant} AND t.id::text = $1
            AND ($2::uuid IS NULL OR (t.customer_id = $2::uuid AND ${invoiceStillTheirs}))
          FOR UPDATE`,
        [threadId, customerId],
      );
      return rows[0];
    },

    /**
     * Writes a message. Messages of a tenant are written one transaction at a time (a lock held
     * until the commit, taken before the message's time is read), so they become visible in the
     * order of their `created_at`: the organisation's feed, read forward from the last message it
     * saw, never passes one that commits later with an earlier time.
     */
    async insertMessage(
      sql: SqlQuery,
      m: { threadId: string; author: TThreadAuthor; authorName: string; body: string },
    ): Promise<MessageRow> {
      await sql.query(
        `SELECT pg_advisory_xact_lock(hashtext('invoice-thread-messages:' || ${tenant}))`,
      );
      const rows = await sql.query<MessageRow>(
        `WITH m AS (
           INSERT INTO invoice_thread_messages (tenant_id, thread_id, author, author_name, body)
           VALUES (${tenant}, $1, $2, $3, $4) RETURNING *),
         touched AS (
           UPDATE invoice_threads SET last_message_at = (SELECT created_at FROM m)
            WHERE tenant_id = ${tenant} AND id = $1)
         SELECT ${messageColumns} FROM m`,
        [m.threadId, m.author, m.authorName, m.body],
      );
      const row = rows[0];
      if (!row) throw new Error('message not written');
      return row;
    },

    /** Moves the reader's marker to now (only forward). */
    async markRead(sql: SqlQuery, threadId: string, reader: TThreadAuthor): Promise<void> {
      await sql.query(
        `INSERT INTO invoice_thread_reads (tenant_id, thread_id, reader, read_at)
         VALUES (${tenant}, $1, $2, clock_timestamp())
         ON CONFLICT (tenant_id, thread_id, reader)
         DO UPDATE SET read_at = GREATEST(invoice_thread_reads.read_at, EXCLUDED.read_at)`,
        [threadId, reader],
      );
    },

    /** Until when the reader has read the conversation; null when never. */
    async readAt(sql: SqlQuery, threadId: string, reader: TThreadAuthor): Promise<Date | null> {
      const rows = await sql.query<{ read_at: Date }>(
        `SELECT read_at FROM invoice_thread_reads
          WHERE tenant_id = ${tenant} AND thread_id = $1 AND reader = $2`,
        [threadId, reader],
      );
      return rows[0]?.read_at ?? null;
    },

    async close(sql: SqlQuery, threadId: string): Promise<void> {
      await sql.query(
        `UPDATE invoice_threads SET status = 'closed', closed_at = now()
          WHERE tenant_id = ${tenant} AND id = $1 AND status = 'open'`,
        [threadId],
      );
    },

    async messages(sql: SqlQuery, threadId: string): Promise<MessageRow[]> {
      return sql.query<MessageRow>(
        `SELECT ${messageColumns} FROM invoice_thread_messages m
          WHERE m.tenant_id = ${tenant} AND m.thread_id = $1
          ORDER BY m.created_at, m.id`,
        [threadId],
      );
    },

    /** The customer's conversations, newest activity first, each with its last message. */
    async listOwn(
      sql: SqlQuery,
      q: { customerId: string; invoiceId: string | null; limit: number; offset: number },
    ): Promise<SummaryRow[]> {
      return sql.query<SummaryRow>(
        `SELECT ${threadColumns}, ${unreadExpr} AS unread,
                l.id AS last_id, l.author AS last_author, l.author_name AS last_author_name,
                l.body AS last_body, l.created_at AS last_created_at
           FROM invoice_threads t
           CROSS JOIN LATERAL (
             SELECT m.id, m.author, m.author_name, m.body, m.created_at
               FROM invoice_thread_messages m
              WHERE m.tenant_id = t.tenant_id AND m.thread_id = t.id
              ORDER BY m.created_at DESC, m.id DESC LIMIT 1) l
          WHERE t.tenant_id = ${tenant} AND t.customer_id = $1 AND ${invoiceStillTheirs}
            AND ($2::text IS NULL OR t.invoice_id = $2)
          ORDER BY t.last_message_at DESC, t.id DESC
          LIMIT $3 OFFSET $4`,
        [q.customerId, q.invoiceId, q.limit, q.offset],
      );
    },

    async unreadCount(sql: SqlQuery, customerId: string): Promise<number> {
      const rows = await sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM invoice_threads t
          WHERE t.tenant_id = ${tenant} AND t.customer_id = $1 AND ${invoiceStillTheirs}
            AND ${unreadExpr}`,
        [customerId],
      );
      return rows[0]?.n ?? 0;
    },

    /** Where the answer's e-mail goes, and in which language. */
    async findCustomerMail(
      sql: SqlQuery,
      customerId: string,
    ): Promise<{ email: string; language: string } | undefined> {
      const rows = await sql.query<{ email: string; language: string }>(
        `SELECT email, language FROM customers WHERE tenant_id = ${tenant} AND id = $1`,
        [customerId],
      );
      return rows[0];
    },

    // ---- The organisation's side ----

    async listForAdmin(
      sql: SqlQuery,
      q: {
        status: TThreadStatus | null;
        unread: boolean | null;
        limit: number;
        before: string | null;
      },
    ): Promise<AdminThreadRow[]> {
      return sql.query<AdminThreadRow>(
        `SELECT ${adminColumns}
           FROM invoice_threads t
           JOIN customers c ON c.tenant_id = t.tenant_id AND c.id = t.customer_id
          WHERE t.tenant_id = ${tenant}
            AND ($1::text IS NULL OR t.status = $1)
            AND ($4::boolean IS NULL OR (${orgUnreadExpr} > 0) = $4::boolean)
            AND ($3::uuid IS NULL OR (t.created_at, t.id) < (
                  SELECT created_at, id FROM invoice_threads
                   WHERE tenant_id = ${tenant} AND id = $3::uuid))
          ORDER BY t.created_at DESC, t.id DESC
          LIMIT $2`,
        [q.status, q.limit, q.before, q.unread],
      );
    },

    async findForAdmin(sql: SqlQuery, threadId: string): Promise<AdminThreadRow | undefined> {
      const rows = await sql.query<AdminThreadRow>(
        `SELECT ${adminColumns}
           FROM invoice_threads t
           JOIN customers c ON c.tenant_id = t.tenant_id AND c.id = t.customer_id
          WHERE t.tenant_id = ${tenant} AND t.id = $1`,
        [threadId],
      );
      return rows[0];
    },

    /** Messages after the one `since` (oldest first), of every conversation or of one. */
    async messagesForAdmin(
      sql: SqlQuery,
      q: { since: string | null; threadId: string | null; limit: number },
    ): Promise<AdminMessageRow[]> {
      return sql.query<AdminMessageRow>(
        `SELECT ${messageColumns}, t.invoice_id, c.code AS customer_code
           FROM invoice_thread_messages m
           JOIN invoice_threads t ON t.tenant_id = m.tenant_id AND t.id = m.thread_id
           JOIN customers c ON c.tenant_id = t.tenant_id AND c.id = t.customer_id
          WHERE m.tenant_id = ${tenant}
            AND ($2::uuid IS NULL OR m.thread_id = $2::uuid)
            AND ($1::uuid IS NULL OR (m.created_at, m.id) > (
                  SELECT created_at, id FROM invoice_thread_messages
                   WHERE tenant_id = ${tenant} AND id = $1::uuid))
          ORDER BY m.created_at, m.id
          LIMIT $3`,
        [q.since, q.threadId, q.limit],
      );
    },
  };
}
