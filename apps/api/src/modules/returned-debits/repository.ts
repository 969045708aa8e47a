import type { SqlQuery } from '../../db/database.ts';
import { paidInPortalSql } from '../payments/repository.ts';

const tenant = "current_setting('app.tenant_id')";

/**
 * The latest return of an instalment (alias `e`): the one the customer is told of while the
 * instalment is `returned`. A debit presented again and returned again has a later return date.
 */
const latestReturn = (e: string, columns: string) =>
  `(SELECT ${columns} FROM instalment_returns r
     WHERE r.tenant_id = ${e}.tenant_id AND r.instalment_id = ${e}.id
     ORDER BY r.return_date DESC, r.created_at DESC LIMIT 1)`;

/**
 * Whether return `r`'s fee is charged to the customer: recorded on the return when it was recorded
 * (migration 043, the tenant's setting at that moment, what the customer was told); a return the
 * previous release wrote during the deploy (NULL) reads the tenant's setting, as it did then.
 * Before session 40 every read took the tenant's setting of today, so turning fee charging off
 * (or on) took a fee out of (or put one into) a month already closed.
 */
const feeChargedSql = (r: string) =>
  `coalesce(${r}.fee_charged, (SELECT t.charge_return_fee FROM tenants t WHERE t.id = ${r}.tenant_id), false)`;

/**
 * THE amount of a returned debit's bank fee that paying instalment `e` now also pays, in cents:
 * the latest return's fee while the instalment is owed (`returned`, or `pending` again: the debit
 * presented again), the fee was charged when the return was recorded and no payment collected
 * it yet (a card payment, or the provider's new collection of the debit); else 0.
 * The payment confirmation, the start of a card payment, the served instalment, the balance and
 * the statement all read it from here, so what the customer is shown is what Redsys is asked for.
 * A re-presentation keeps the fee owed (session 40: it left the return's closed month, and the
 * collection that followed paid nothing of it).
 */
export const chargedFeeSql = (e: string) =>
  `(CASE WHEN ${e}.status IN ('returned', 'pending')
         THEN coalesce(${latestReturn(e, `CASE WHEN r.fee_paid_cents IS NULL AND ${feeChargedSql('r')} THEN r.fee_cents ELSE 0 END`)}, 0)
         ELSE 0 END)::int8`;

/**
 * The return an instalment `e` shows while it is `returned` (JSON, or null): return date
 * (`yyyymmdd`), reason code, fee and whether the fee is charged with the instalment (as recorded
 * on the return).
 */
export const returnedDebitJsonSql = (e: string) =>
  `(CASE WHEN ${e}.status = 'returned' THEN ${latestReturn(
    e,
    `json_build_object('return_date', to_char(r.return_date, 'YYYYMMDD'), 'reason_code', r.reason_code,
                       'fee_cents', r.fee_cents, 'fee_charged', ${feeChargedSql('r')})`,
  )} END)`;

export type ReturnedDebitJson = {
  return_date: string;
  reason_code: string;
  fee_cents: number;
  fee_charged: boolean;
};

export type ReportedInstalment = {
  id: string;
  invoice_id: string;
  seq: number;
  customer_id: string;
  amount_cents: number;
  status: 'pending' | 'paid' | 'cancelled' | 'returned';
  in_attempt: boolean;
  /** Paid by a payment in the portal (card, Bizum): a returned debit does not undo it. */
  paid_in_portal: boolean;
  /** Its invoice was cancelled: none of it is owed, whatever the instalment still says. */
  invoice_cancelled: boolean;
  /** The dates (`YYYY-MM-DD`) of the returns already recorded for it: a replay changes nothing. */
  return_dates: string[];
  /** The day it was paid (`YYYY-MM-DD`), when it was. */
  paid_date: string | null;
  /** How it was paid, as the provider (or the portal's payment) wrote it. */
  method: string;
};

export type ReturnRecord = {
  instalment_id: string;
  customer_id: string;
  return_date: string;
  reason_code: string;
  fee_cents: number;
};

export type CustomerMailRow = { email: string; language: string };

/** A return whose e-mail is being sent, with what the e-mail says. */
export type ClaimedReturnMail = {
  id: string;
  tries: number;
  instalment_id: string;
  invoice_id: string;
  amount_cents: number;
  reason_code: string;
  fee_cents: number;
  charge_return_fee: boolean;
  /** Null when the customer is gone. */
  email: string | null;
  language: string | null;
};

/** The tenants with return e-mails due: a read across tenants, run by the owner. */
export async function tenantsWithDueReturnMails(sql: SqlQuery): Promise<string[]> {
  const rows = await sql.query<{ tenant_id: string }>(
    `SELECT DISTINCT tenant_id FROM instalment_returns
      WHERE mail_sent_at IS NULL AND mail_due_at <= now() ORDER BY tenant_id`,
  );
  return rows.map((r) => r.tenant_id);
}

export function createReturnedDebitRepository() {
  return {
    /** The reported instalments of the tenant, locked (the order card payments lock them in). */
    async lockInstalments(
      sql: SqlQuery,
      keys: { invoice_id: string; seq: number }[],
    ): Promise<ReportedInstalment[]> {
      const params = [keys.map((k) => k.invoice_id), keys.map((k) => k.seq)];
      const from = `FROM instalments e
           JOIN unnest($1::text[], $2::int[]) AS k(invoice_id, seq)
             ON e.invoice_id = k.invoice_id AND e.seq = k.seq
          WHERE e.tenant_id = ${tenant}
          ORDER BY e.invoice_id, e.seq`;
      // Locked first, read after, in two statements (as ingestion's lockInstalments): a statement
      // that waited for a lock reads the rest with the snapshot it took before waiting, and missed
      // the payment whose start held the lock (the return was then recorded under it).
      await sql.query(`SELECT 1 ${from} FOR UPDATE OF e`, params);
      const rows = await sql.query<ReportedInstalment>(
        `SELECT e.id, e.invoice_id, e.seq, e.customer_id, e.amount_cents, e.status,
                EXISTS (SELECT 1 FROM payment_attempt_items p
                         WHERE p.tenant_id = e.tenant_id AND p.instalment_id = e.id AND p.active) AS in_attempt,
                ${paidInPortalSql('e')} AS paid_in_portal,
                EXISTS (SELECT 1 FROM invoices v WHERE v.tenant_id = e.tenant_id
                         AND v.id = e.invoice_id AND v.cancelled) AS invoice_cancelled,
                ARRAY(SELECT to_char(r.return_date, 'YYYY-MM-DD') FROM instalment_returns r
                       WHERE r.tenant_id = e.tenant_id AND r.instalment_id = e.id) AS return_dates,
                to_char(e.paid_date, 'YYYY-MM-DD') AS paid_date, e.method
           ${from}`,
        params,
      );
      return rows.map((r) => ({ ...r, amount_cents: Number(r.amount_cents), seq: Number(r.seq) }));
    },

    /**
     * Stores the returns, one per instalment and return date: a new one is created, recording
     * whether its fee is charged (the tenant's setting now, for ever); a known one takes a
     * corrected reason or fee, an identical one is left alone. Answers what was written.
     */
    async upsertReturns(
      sql: SqlQuery,
      rows: ReturnRecord[],
    ): Promise<{ instalment_id: string; return_date: string; created: boolean }[]> {
      return sql.query<{ instalment_id: string; return_date: string; created: boolean }>(
        `INSERT INTO instalment_returns (tenant_id, instalment_id, customer_id, return_date, reason_code, fee_cents, fee_charged)
         SELECT ${tenant}, b.instalment_id, b.customer_id, b.return_date, b.reason_code, b.fee_cents,
                coalesce((SELECT t.charge_return_fee FROM tenants t WHERE t.id = ${tenant}), false)
           FROM jsonb_to_recordset($1::jsonb)
             AS b(instalment_id uuid, customer_id uuid, return_date date, reason_code text, fee_cents int8)
         ON CONFLICT (tenant_id, instalment_id, return_date) DO UPDATE
            SET reason_code = excluded.reason_code, fee_cents = excluded.fee_cents
          WHERE (instalment_returns.reason_code, instalment_returns.fee_cents)
                IS DISTINCT FROM (excluded.reason_code, excluded.fee_cents)
         RETURNING instalment_id::text, return_date::text, (xmax = 0) AS created`,
        [JSON.stringify(rows)],
      );
    },

    /**
     * The collections these returns undid (the instalment's paid day, amount and method when the
     * return reopened it), kept on the return: the statement credits them on their day for ever.
     * A return that has one keeps it (the same return stored again reopens nothing new).
     */
    async recordCollections(
      sql: SqlQuery,
      rows: {
        instalment_id: string;
        return_date: string;
        collected_on: string;
        collected_cents: number;
        collected_method: string;
      }[],
    ): Promise<void> {
      if (rows.length === 0) return;
      await sql.query(
        `UPDATE instalment_returns r
            SET collected_on = b.collected_on, collected_cents = b.collected_cents,
                collected_method = b.collected_method
           FROM jsonb_to_recordset($1::jsonb) AS b(instalment_id uuid, return_date date,
                  collected_on date, collected_cents int8, collected_method text)
          WHERE r.tenant_id = ${tenant} AND r.instalment_id = b.instalment_id
            AND r.return_date = b.return_date AND r.collected_on IS NULL`,
        [JSON.stringify(rows)],
      );
    },

    /**
     * The provider collected these returned instalments again (`paid` on `paid_date`): the fee
     * the latest return of each charged (what paying it would have cost, `chargedFeeSql`) is
     * paid by that collection, once. Run before the instalments are set paid.
     */
    async recordFeesCollected(
      sql: SqlQuery,
      collected: { invoice_id: string; seq: number; paid_date: string }[],
    ): Promise<void> {
      if (collected.length === 0) return;
      await sql.query(
        `UPDATE instalment_returns r SET fee_paid_cents = f.fee_cents, fee_paid_on = f.paid_date
           FROM (SELECT e.tenant_id, e.id, ${chargedFeeSql('e')} AS fee_cents, b.paid_date
                   FROM instalments e
                   JOIN jsonb_to_recordset($1::jsonb) AS b(invoice_id text, seq int, paid_date date)
                     ON e.invoice_id = b.invoice_id AND e.seq = b.seq
                  WHERE e.tenant_id = ${tenant}) f
          WHERE r.tenant_id = f.tenant_id AND r.instalment_id = f.id AND f.fee_cents > 0
            AND r.fee_paid_cents IS NULL
            AND r.id = (SELECT l.id FROM instalment_returns l
                         WHERE l.tenant_id = f.tenant_id AND l.instalment_id = f.id
                         ORDER BY l.return_date DESC, l.created_at DESC LIMIT 1)`,
        [JSON.stringify(collected)],
      );
    },

    async chargesFee(sql: SqlQuery): Promise<boolean> {
      const rows = await sql.query<{ charge_return_fee: boolean }>(
        `SELECT charge_return_fee FROM tenants WHERE id = ${tenant}`,
      );
      return rows[0]?.charge_return_fee ?? false;
    },

    /**
     * A card payment paid returned instalments with their fee: the latest return of each records
     * what was collected and by which payment (once: a replayed notification finds it recorded).
     */
    /** The fee each instalment paid (what it owed when paid, not what the start asked). */
    async recordFeesPaid(
      sql: SqlQuery,
      attemptId: string,
      paid: { id: string; fee_cents: number }[],
    ) {
      await sql.query(
        `UPDATE instalment_returns r SET fee_paid_cents = f.fee_cents, paid_attempt_id = i.attempt_id
           FROM payment_attempt_items i
           JOIN unnest($2::text[], $3::int8[]) AS f(instalment_id, fee_cents)
             ON f.instalment_id = i.instalment_id::text
          WHERE i.tenant_id = ${tenant} AND i.attempt_id = $1 AND f.fee_cents > 0
            AND r.tenant_id = i.tenant_id AND r.instalment_id = i.instalment_id
            AND r.fee_paid_cents IS NULL
            AND r.id = (SELECT l.id FROM instalment_returns l
                         WHERE l.tenant_id = i.tenant_id AND l.instalment_id = i.instalment_id
                         ORDER BY l.return_date DESC, l.created_at DESC LIMIT 1)`,
        [attemptId, paid.map((p) => p.id), paid.map((p) => p.fee_cents)],
      );
    },

    /** The ids of these returns (instalment, return date). */
    async returnIds(
      sql: SqlQuery,
      keys: { instalment_id: string; return_date: string }[],
    ): Promise<string[]> {
      const rows = await sql.query<{ id: string }>(
        `SELECT r.id::text FROM instalment_returns r
           JOIN unnest($1::text[], $2::date[]) AS k(instalment_id, return_date)
             ON r.instalment_id::text = k.instalment_id AND r.return_date = k.return_date
          WHERE r.tenant_id = ${tenant}`,
        [keys.map((k) => k.instalment_id), keys.map((k) => k.return_date)],
      );
      return rows.map((r) => r.id);
    },

    /** The customer is to be e-mailed about these returns: due now, whatever was sent before. */
    async queueMails(sql: SqlQuery, returnIds: string[]): Promise<void> {
      if (returnIds.length === 0) return;
      await sql.query(
        `UPDATE instalment_returns
            SET mail_due_at = now(), mail_sent_at = NULL, mail_tries = 0, mail_error = NULL
          WHERE tenant_id = ${tenant} AND id::text = ANY($1)`,
        [returnIds],
      );
    },

    /**
     * Claims up to `batchSize` return e-mails due (SKIP LOCKED: another instance never claims the
     * same ones; `ids` claims only those) and pushes each one's next try `leaseSeconds` away, the
     * time to send it; answers what each e-mail says.
     */
    async claimMails(
      sql: SqlQuery,
      q: { batchSize: number; leaseSeconds: number; ids?: string[] },
    ): Promise<ClaimedReturnMail[]> {
      const rows = await sql.query<ClaimedReturnMail>(
        `WITH due AS (
           SELECT id FROM instalment_returns
            WHERE tenant_id = ${tenant} AND mail_sent_at IS NULL AND mail_due_at <= now()
              AND ($3::text[] IS NULL OR id::text = ANY($3))
            ORDER BY mail_due_at, id LIMIT $1
            FOR UPDATE SKIP LOCKED),
         claimed AS (
           UPDATE instalment_returns r
              SET mail_tries = r.mail_tries + 1, mail_due_at = now() + make_interval(secs => $2)
             FROM due WHERE r.tenant_id = ${tenant} AND r.id = due.id
           RETURNING r.tenant_id, r.id, r.instalment_id, r.customer_id, r.reason_code, r.fee_cents,
                     r.fee_charged, r.mail_tries)
         SELECT c.id::text, c.mail_tries AS tries, e.id::text AS instalment_id, e.invoice_id,
                e.amount_cents, c.reason_code, c.fee_cents,
                ${feeChargedSql('c')} AS charge_return_fee,
                coalesce(nullif(u.invoice_email, ''), u.email) AS email, u.language
           FROM claimed c
           JOIN instalments e ON e.tenant_id = ${tenant} AND e.id = c.instalment_id
           LEFT JOIN customers u ON u.tenant_id = ${tenant} AND u.id = c.customer_id`,
        [q.batchSize, q.leaseSeconds, q.ids ?? null],
      );
      return rows.map((r) => ({
        ...r,
        tries: Number(r.tries),
        amount_cents: Number(r.amount_cents),
        fee_cents: Number(r.fee_cents),
      }));
    },

    /** The e-mail went out (or has nobody to go to): never sent again. */
    async markMailSent(sql: SqlQuery, returnId: string): Promise<void> {
      await sql.query(
        `UPDATE instalment_returns SET mail_sent_at = now(), mail_due_at = NULL, mail_error = NULL
          WHERE tenant_id = ${tenant} AND id::text = $1`,
        [returnId],
      );
    },

    /** A failed send: tried again after `retrySeconds`, or given up after `maxTries`. */
    async markMailFailed(
      sql: SqlQuery,
      q: { returnId: string; error: string; retrySeconds: number; maxTries: number },
    ): Promise<void> {
      await sql.query(
        `UPDATE instalment_returns
            SET mail_due_at = CASE WHEN mail_tries >= $4 THEN NULL
                                   ELSE now() + make_interval(secs => $3) END,
                mail_error = $2
          WHERE tenant_id = ${tenant} AND id::text = $1`,
        [q.returnId, q.error.slice(0, 500), q.retrySeconds, q.maxTries],
      );
    },

    /** Where and in which language a customer is e-mailed. */
    async customerMail(sql: SqlQuery, customerId: string): Promise<CustomerMailRow | undefined> {
      const rows = await sql.query<CustomerMailRow>(
        `SELECT coalesce(nullif(invoice_email, ''), email) AS email, language FROM customers
          WHERE tenant_id = ${tenant} AND id = $1`,
        [customerId],
      );
      return rows[0];
    },
  };
}
