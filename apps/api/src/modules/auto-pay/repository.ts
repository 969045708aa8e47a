import type { SqlQuery } from '../../db/database.ts';

/*
 * The auto-pay module writes `auto_pay_cards`, `auto_pay_charges` and `auto_pay_notices`
 * (migration 025); it reads instalments, saved cards and payment attempts, which other modules
 * write (the payments module creates and settles the attempts of its charges).
 */

export type AutoPaySettings = {
  auto_pay: boolean;
  auto_pay_notice_days: number;
  auto_pay_retries: number;
  auto_pay_retry_days: number;
};

export type SavedCardRow = {
  id: string;
  card_masked: string | null;
  /** mmyy */
  card_expiry: string | null;
  has_cof: boolean;
  enabled: boolean;
};

export type AutoPayCardRow = {
  payment_method_id: string;
  /** yyyy-mm-dd */
  since: string;
  card_masked: string | null;
  card_expiry: string | null;
  has_cof: boolean;
};

export type InstalmentRow = {
  id: string;
  invoice_id: string;
  seq: number;
  customer_id: string;
  /** yyyy-mm-dd */
  due_date: string;
  amount_cents: number;
  status: string;
  method: string;
  /**
   * yyyy-mm-dd: the day it became this customer's, moved to them or first sent by the provider
   * (since session 38); null for one sent before and never moved.
   */
  customer_since: string | null;
};

const instalmentColumns = `e.id, e.invoice_id, e.seq, e.customer_id, to_char(e.due_date, 'YYYY-MM-DD') AS due_date,
  e.amount_cents, e.status, e.method, to_char(e.customer_since, 'YYYY-MM-DD') AS customer_since`;

/** The instalment's auto-pay notice went to the customer who pays it now. */
const announcedToPayer = `EXISTS (SELECT 1 FROM auto_pay_notices n
                  WHERE n.tenant_id = e.tenant_id AND n.instalment_id = e.id
                    AND n.customer_id = e.customer_id)`;

/**
 * An instalment the provider moved to this customer (migration 040) or sent since session 38 is
 * charged to their card only once they were told, where the tenant gives notice (`$5` days), or,
 * without notices, only if it became theirs before it fell due. Moved or sent on or after its due
 * date, or too late for a notice before the sweep that charges it, it is left for them to pay by
 * hand, like arrears at opt-in: before session 37 the new owner's card was charged for it at the
 * next sweep, unannounced, and before session 38 so was an invoice that arrived already due.
 */
const chargeableIfMoved = `(e.customer_since IS NULL OR CASE WHEN $5::int > 0 THEN ${announcedToPayer}
                              ELSE e.due_date > e.customer_since END)`;

const numeric = <T extends { amount_cents: number; seq: number }>(rows: T[]): T[] =>
  rows.map((r) => ({ ...r, amount_cents: Number(r.amount_cents), seq: Number(r.seq) }));

/** The customer's card that pays, when it is still a usable saved card. */
/** The instalment's invoice is not cancelled by the provider: nothing of it is owed any more. */
const invoiceNotCancelled = `NOT EXISTS (SELECT 1 FROM invoices v
   WHERE v.tenant_id = e.tenant_id AND v.id = e.invoice_id AND v.cancelled)`;

/**
 * The customer's (`$1`) pending instalments due from `$2` on, not held by a payment in progress:
 * one condition for the list and its count, so the two cannot disagree.
 */
const upcomingOf = `e.tenant_id = current_setting('app.tenant_id') AND e.customer_id = $1
   AND e.status = 'pending' AND e.due_date >= $2::date AND ${invoiceNotCancelled}
   AND NOT EXISTS (SELECT 1 FROM payment_attempt_items i
                    WHERE i.tenant_id = e.tenant_id AND i.instalment_id = e.id AND i.active)`;

/**
 * Whether a payment of instalment `e` was let go without the gateway's answer and is still asked
 * about (payments' `recheck_at`, a checkout by hand or a charge): Redsys may have taken it, and a
 * charge now could take the money twice (session 39: a checkout the customer paid on Redsys' page,
 * its notification lost, was followed by the card's automatic charge).
 */
const stillAskedAbout = `EXISTS (SELECT 1 FROM payment_attempt_items pi
    JOIN payment_attempts pa ON pa.tenant_id = pi.tenant_id AND pa.id = pi.attempt_id
   WHERE pi.tenant_id = e.tenant_id AND pi.instalment_id = e.id AND pa.recheck_at IS NOT NULL)`;

const activeCardJoin = `JOIN payment_methods m ON m.tenant_id = a.tenant_id AND m.id = a.payment_method_id
   AND m.customer_id = a.customer_id AND m.kind = 'card' AND m.status = 'active' AND m.deleted_at IS NULL`;

/** A declined auto-pay charge and the instalment it was for. */
export type DeclinedCharge = {
  id: string;
  attempt_no: number;
  customer_id: string;
  instalment_id: string;
  invoice_id: string;
  amount_cents: number;
};

export type ClaimedDeclineMail = DeclinedCharge & { tries: number };

/** The tenants with decline e-mails due (a cross-tenant read, on the owner's connection). */
export async function tenantsWithDueDeclineMails(sql: SqlQuery): Promise<string[]> {
  const rows = await sql.query<{ tenant_id: string }>(
    `SELECT DISTINCT tenant_id FROM auto_pay_charges
      WHERE decline_mailed_at IS NULL AND decline_mail_due_at <= now() ORDER BY tenant_id`,
  );
  return rows.map((r) => r.tenant_id);
}

/** The tenants that allow auto-pay (the sweep's one cross-tenant read, on the owner's connection). */
export async function tenantsWithAutoPay(sql: SqlQuery): Promise<string[]> {
  const rows = await sql.query<{ id: string }>(`SELECT id FROM tenants WHERE auto_pay ORDER BY id`);
  return rows.map((r) => r.id);
}

export function createAutoPayRepository() {
  return {
    async settings(sql: SqlQuery): Promise<AutoPaySettings | undefined> {
      const rows = await sql.query<AutoPaySettings>(
        `SELECT auto_pay, auto_pay_notice_days, auto_pay_retries, auto_pay_retry_days
           FROM tenants WHERE id = current_setting('app.tenant_id')`,
      );
      return rows[0];
    },

    /** The customer's saved cards, oldest first, and which one pays. */
    async cards(sql: SqlQuery, customerId: string): Promise<SavedCardRow[]> {
      return sql.query<SavedCardRow>(
        `SELECT m.id, m.card_masked, m.card_expiry,
                (m.redsys_reference IS NOT NULL AND m.redsys_cof_txnid IS NOT NULL) AS has_cof,
                (a.payment_method_id IS NOT NULL) AS enabled
           FROM payment_methods m
           LEFT JOIN auto_pay_cards a ON a.tenant_id = m.tenant_id AND a.customer_id = m.customer_id
                AND a.payment_method_id = m.id
          WHERE m.tenant_id = current_setting('app.tenant_id') AND m.customer_id = $1
            AND m.kind = 'card' AND m.status = 'active' AND m.deleted_at IS NULL
          ORDER BY m.created_at, m.id`,
        [customerId],
      );
    },

    /**
     * The card that pays the customer's instalments, or nothing (off, or the card is gone). Read
     * FOR SHARE: a removal of the card waits for the charge that read it (and then finds its
     * payment in flight), or the charge waits for the removal and finds no card (session 36: both
     * committed, and the removed card was charged).
     */
    async current(sql: SqlQuery, customerId: string): Promise<AutoPayCardRow | undefined> {
      const rows = await sql.query<AutoPayCardRow>(
        `SELECT a.payment_method_id, to_char(a.since, 'YYYY-MM-DD') AS since, m.card_masked,
                m.card_expiry,
                (m.redsys_reference IS NOT NULL AND m.redsys_cof_txnid IS NOT NULL) AS has_cof
           FROM auto_pay_cards a ${activeCardJoin}
          WHERE a.tenant_id = current_setting('app.tenant_id') AND a.customer_id = $1
          FOR SHARE OF m`,
        [customerId],
      );
      return rows[0];
    },

    /**
     * Turns auto-pay on with this card (one per customer: the primary key). Moving it to another
     * card keeps the day it was first turned on.
     */
    async enable(sql: SqlQuery, customerId: string, methodId: string, since: string) {
      await sql.query(
        `INSERT INTO auto_pay_cards (tenant_id, customer_id, payment_method_id, since)
         VALUES (current_setting('app.tenant_id'), $1, $2, $3::date)
         ON CONFLICT (tenant_id, customer_id) DO UPDATE SET payment_method_id = EXCLUDED.payment_method_id`,
        [customerId, methodId, since],
      );
    },

    /** Off: no charge is started after this commits (a charge already sent finishes). */
    async disable(sql: SqlQuery, customerId: string, methodId?: string): Promise<boolean> {
      const rows = await sql.query(
        `DELETE FROM auto_pay_cards
          WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1
            AND ($2::text IS NULL OR payment_method_id::text = $2) RETURNING customer_id`,
        [customerId, methodId ?? null],
      );
      return rows.length > 0;
    },

    /**
     * The customer's pending instalments due from `from` on, not held by a payment in progress:
     * what the card will pay (the service leaves out direct debits).
     */
    async upcoming(sql: SqlQuery, customerId: string, from: string): Promise<InstalmentRow[]> {
      const rows = await sql.query<InstalmentRow>(
        `SELECT ${instalmentColumns} FROM instalments e WHERE ${upcomingOf}
          ORDER BY e.due_date, e.invoice_id, e.seq LIMIT 200`,
        [customerId, from],
      );
      return numeric(rows);
    },

    /**
     * How many instalments `upcoming` would answer without its limit, per collection method: the
     * service decides which methods the card pays (`instalmentMethodKind`, from the provider's
     * free text), so the count is grouped by the few distinct texts rather than read row by row.
     */
    async upcomingCountByMethod(
      sql: SqlQuery,
      customerId: string,
      from: string,
    ): Promise<{ method: string; count: number }[]> {
      return sql.query<{ method: string; count: number }>(
        `SELECT e.method, count(*)::int AS count FROM instalments e WHERE ${upcomingOf}
          GROUP BY e.method`,
        [customerId, from],
      );
    },

    /**
     * Instalments of customers with auto-pay whose charge is due on `today`: never charged (and due
     * since auto-pay was turned on), or last declined at least `retryDays` before `now` with
     * retries left. Not while the last charge was let go without the gateway's answer and is still
     * asked about (payments' `recheck_at`): Redsys may have taken it, and a retry would charge the
     * card twice. Answers each with the number of its next charge.
     */
    async dueCharges(
      sql: SqlQuery,
      q: { today: string; now: Date; retries: number; retryDays: number; noticeDays: number },
    ): Promise<(InstalmentRow & { attempt_no: number })[]> {
      const rows = await sql.query<InstalmentRow & { attempt_no: number }>(
        `SELECT ${instalmentColumns}, coalesce(last.attempt_no, 0) + 1 AS attempt_no
           FROM instalments e
           JOIN auto_pay_cards a ON a.tenant_id = e.tenant_id AND a.customer_id = e.customer_id
           ${activeCardJoin}
           LEFT JOIN LATERAL (
             SELECT c.attempt_no, c.created_at, p.status, p.recheck_at FROM auto_pay_charges c
               JOIN payment_attempts p ON p.tenant_id = c.tenant_id AND p.id = c.payment_attempt_id
              WHERE c.tenant_id = e.tenant_id AND c.instalment_id = e.id
              ORDER BY c.attempt_no DESC LIMIT 1) last ON true
          WHERE e.tenant_id = current_setting('app.tenant_id') AND e.status = 'pending'
            AND e.due_date <= $1::date AND e.due_date >= a.since AND ${invoiceNotCancelled}
            AND ${chargeableIfMoved}
            AND m.redsys_reference IS NOT NULL AND m.redsys_cof_txnid IS NOT NULL
            AND NOT ${stillAskedAbout}
            AND (last.attempt_no IS NULL
                 OR (last.status = 'failed' AND last.recheck_at IS NULL AND last.attempt_no <= $2
                     AND last.created_at <= $4::timestamptz - make_interval(days => $3)))
          ORDER BY e.due_date, e.invoice_id, e.seq LIMIT 500`,
        [q.today, q.retries, q.retryDays, q.now.toISOString(), q.noticeDays],
      );
      return numeric(rows).map((r) => ({ ...r, attempt_no: Number(r.attempt_no) }));
    },

    /** Whether the instalment's auto-pay notice went to the customer who pays it now. */
    async announced(sql: SqlQuery, instalmentId: string): Promise<boolean> {
      const rows = await sql.query(
        `SELECT 1 FROM instalments e
          WHERE e.tenant_id = current_setting('app.tenant_id') AND e.id::text = $1
            AND ${announcedToPayer}`,
        [instalmentId],
      );
      return rows.length > 0;
    },

    /**
     * The instalment, locked for a charge (every start of a payment of it waits); none when its
     * invoice was cancelled meanwhile.
     */
    async lockInstalment(sql: SqlQuery, id: string): Promise<InstalmentRow | undefined> {
      const rows = await sql.query<InstalmentRow>(
        `SELECT ${instalmentColumns} FROM instalments e
          WHERE e.tenant_id = current_setting('app.tenant_id') AND e.id::text = $1
            AND ${invoiceNotCancelled} FOR UPDATE OF e`,
        [id],
      );
      return numeric(rows)[0];
    },

    /** Whether a payment of the instalment is still asked about (see `stillAskedAbout`). */
    async askedAbout(sql: SqlQuery, instalmentId: string): Promise<boolean> {
      const rows = await sql.query(
        `SELECT 1 FROM instalments e
          WHERE e.tenant_id = current_setting('app.tenant_id') AND e.id::text = $1
            AND ${stillAskedAbout}`,
        [instalmentId],
      );
      return rows.length > 0;
    },

    /**
     * The last charge of an instalment, its payment attempt's status, and whether the payments
     * module still asks the gateway about it (let go without an answer).
     */
    async lastCharge(
      sql: SqlQuery,
      instalmentId: string,
    ): Promise<{ attempt_no: number; status: string; unanswered: boolean } | undefined> {
      const rows = await sql.query<{ attempt_no: number; status: string; unanswered: boolean }>(
        `SELECT c.attempt_no, p.status, p.recheck_at IS NOT NULL AS unanswered FROM auto_pay_charges c
           JOIN payment_attempts p ON p.tenant_id = c.tenant_id AND p.id = c.payment_attempt_id
          WHERE c.tenant_id = current_setting('app.tenant_id') AND c.instalment_id = $1
          ORDER BY c.attempt_no DESC LIMIT 1`,
        [instalmentId],
      );
      const row = rows[0];
      return row ? { ...row, attempt_no: Number(row.attempt_no) } : undefined;
    },

    /**
     * Records a charge; the unique key (instalment, attempt number) refuses a second one (answers
     * false, and the caller's transaction rolls back with its payment attempt).
     */
    async insertCharge(
      sql: SqlQuery,
      c: {
        instalmentId: string;
        attemptNo: number;
        customerId: string;
        methodId: string;
        attemptId: string;
      },
    ): Promise<boolean> {
      const rows = await sql.query(
        `INSERT INTO auto_pay_charges (tenant_id, instalment_id, attempt_no, customer_id,
            payment_method_id, payment_attempt_id)
         VALUES (current_setting('app.tenant_id'), $1, $2, $3, $4, $5)
         ON CONFLICT (tenant_id, instalment_id, attempt_no) DO NOTHING RETURNING id`,
        [c.instalmentId, c.attemptNo, c.customerId, c.methodId, c.attemptId],
      );
      return rows.length > 0;
    },

    /**
     * Instalments of customers with auto-pay due after `today` and at most `days` later, whose
     * notice has not been sent (the service leaves out direct debits, then records the notices).
     */
    async noticeCandidates(
      sql: SqlQuery,
      q: { today: string; days: number },
    ): Promise<(InstalmentRow & { card_masked: string | null })[]> {
      const rows = await sql.query<InstalmentRow & { card_masked: string | null }>(
        `SELECT ${instalmentColumns}, m.card_masked FROM instalments e
           JOIN auto_pay_cards a ON a.tenant_id = e.tenant_id AND a.customer_id = e.customer_id
           ${activeCardJoin}
          WHERE e.tenant_id = current_setting('app.tenant_id') AND e.status = 'pending'
            AND e.due_date > $1::date AND e.due_date <= $1::date + $2::int
            AND e.due_date >= a.since AND ${invoiceNotCancelled}
            AND m.redsys_reference IS NOT NULL AND m.redsys_cof_txnid IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM auto_pay_notices n
                             WHERE n.tenant_id = e.tenant_id AND n.instalment_id = e.id
                               AND n.customer_id = e.customer_id)
          ORDER BY e.due_date, e.invoice_id, e.seq LIMIT 500`,
        [q.today, q.days],
      );
      return numeric(rows);
    },

    /**
     * Records the notice of an instalment to `customerId` once; false when it was already recorded
     * for them. A notice sent to a customer the invoice has since moved from is taken over by the
     * one who pays it now (migration 038).
     */
    async insertNotice(sql: SqlQuery, instalmentId: string, customerId: string): Promise<boolean> {
      const rows = await sql.query(
        `INSERT INTO auto_pay_notices (tenant_id, instalment_id, customer_id)
         VALUES (current_setting('app.tenant_id'), $1, $2)
         ON CONFLICT (tenant_id, instalment_id) DO UPDATE
            SET customer_id = EXCLUDED.customer_id, sent_at = now()
          WHERE auto_pay_notices.customer_id <> EXCLUDED.customer_id
         RETURNING instalment_id`,
        [instalmentId, customerId],
      );
      return rows.length > 0;
    },

    /**
     * The charge of this payment attempt was declined: recorded once (the first path to settle it
     * as failed), its e-mail due now. Answers the charge and its instalment, or nothing when the
     * attempt is no auto-pay charge or its decline was recorded already.
     */
    async markDeclined(sql: SqlQuery, attemptId: string): Promise<DeclinedCharge | undefined> {
      const rows = await sql.query<DeclinedCharge>(
        `WITH declined AS (
           UPDATE auto_pay_charges SET declined_at = now(), decline_mail_due_at = now()
            WHERE tenant_id = current_setting('app.tenant_id') AND payment_attempt_id::text = $1
              AND declined_at IS NULL
           RETURNING id, instalment_id, attempt_no, customer_id)
         SELECT d.id, d.attempt_no, d.customer_id, e.id AS instalment_id, e.invoice_id, e.amount_cents
           FROM declined d JOIN instalments e
             ON e.tenant_id = current_setting('app.tenant_id') AND e.id = d.instalment_id`,
        [attemptId],
      );
      const row = rows[0];
      return row
        ? { ...row, attempt_no: Number(row.attempt_no), amount_cents: Number(row.amount_cents) }
        : undefined;
    },

    /**
     * Claims up to `batchSize` decline e-mails due (SKIP LOCKED: another instance never claims the
     * same) and pushes each one's next try `leaseSeconds` away, the time to send it; `chargeId`
     * claims only that charge's.
     */
    async claimDeclineMails(
      sql: SqlQuery,
      q: { batchSize: number; leaseSeconds: number; chargeId?: string },
    ): Promise<ClaimedDeclineMail[]> {
      const rows = await sql.query<ClaimedDeclineMail>(
        `WITH due AS (
           SELECT id FROM auto_pay_charges
            WHERE tenant_id = current_setting('app.tenant_id') AND decline_mailed_at IS NULL
              AND decline_mail_due_at <= now() AND ($3::text IS NULL OR id::text = $3)
            ORDER BY decline_mail_due_at, id LIMIT $1
            FOR UPDATE SKIP LOCKED),
         claimed AS (
           UPDATE auto_pay_charges c
              SET decline_mail_tries = c.decline_mail_tries + 1,
                  decline_mail_due_at = now() + make_interval(secs => $2)
             FROM due WHERE c.tenant_id = current_setting('app.tenant_id') AND c.id = due.id
           RETURNING c.id, c.instalment_id, c.attempt_no, c.customer_id, c.decline_mail_tries)
         SELECT claimed.id, claimed.attempt_no, claimed.customer_id, claimed.decline_mail_tries AS tries,
                e.id AS instalment_id, e.invoice_id, e.amount_cents
           FROM claimed JOIN instalments e
             ON e.tenant_id = current_setting('app.tenant_id') AND e.id = claimed.instalment_id`,
        [q.batchSize, q.leaseSeconds, q.chargeId ?? null],
      );
      return rows.map((r) => ({
        ...r,
        attempt_no: Number(r.attempt_no),
        amount_cents: Number(r.amount_cents),
        tries: Number(r.tries),
      }));
    },

    /** The decline e-mail went out (or has nobody to go to): never sent again. */
    async markDeclineMailSent(sql: SqlQuery, chargeId: string): Promise<void> {
      await sql.query(
        `UPDATE auto_pay_charges SET decline_mailed_at = now(), decline_mail_due_at = NULL
          WHERE tenant_id = current_setting('app.tenant_id') AND id::text = $1`,
        [chargeId],
      );
    },

    /** A failed send: tried again after `retrySeconds`, or given up after `maxTries`. */
    async markDeclineMailFailed(
      sql: SqlQuery,
      q: { chargeId: string; retrySeconds: number; maxTries: number },
    ): Promise<void> {
      await sql.query(
        `UPDATE auto_pay_charges
            SET decline_mail_due_at = CASE WHEN decline_mail_tries >= $3 THEN NULL
                                           ELSE now() + make_interval(secs => $2) END
          WHERE tenant_id = current_setting('app.tenant_id') AND id::text = $1`,
        [q.chargeId, q.retrySeconds, q.maxTries],
      );
    },

    /** Where and in which language the customer reads the portal's e-mails. */
    async contact(
      sql: SqlQuery,
      customerId: string,
    ): Promise<{ email: string; language: string } | undefined> {
      const rows = await sql.query<{ email: string; language: string }>(
        `SELECT coalesce(nullif(invoice_email, ''), email) AS email, language FROM customers
          WHERE tenant_id = current_setting('app.tenant_id') AND id = $1`,
        [customerId],
      );
      return rows[0];
    },
  };
}
