import type { SecretBox } from '../../lib/secret-box.ts';
import type { SqlQuery } from '../../db/database.ts';
import { unpaidStates } from '../invoices/repository.ts';
import { chargedFeeSql } from '../returned-debits/repository.ts';

/**
 * An instalment a payment pays: its amount, and the bank fee of its returned direct debit that is
 * paid with it (0 unless the tenant charges it: returned-debits' `chargedFeeSql`).
 */
export type PayableRow = {
  id: string;
  invoice_id: string;
  amount_cents: number;
  fee_cents: number;
  status: string;
};
/** An instalment as the payment confirmation lists it (due date as yyyymmdd). */
export type PreviewRow = PayableRow & {
  seq: number;
  due_date: string;
  /** The stored state (instalments.status), from which the preview derives the shown status. */
  status: 'pending' | 'paid' | 'cancelled' | 'returned';
};

/** `superseded`: a newer start of the same instalments replaced it (see `supersedeHolders`). */
export type AttemptStatus = 'pending' | 'paid' | 'failed' | 'superseded';

export type AttemptRow = {
  id: string;
  customer_id: string;
  order_number: string;
  merchant_code: string;
  terminal: string;
  amount_cents: number;
  currency: string;
  status: AttemptStatus;
  save_card: boolean;
  language: string;
  kind: 'payment' | 'card_verification';
  card_alias: string;
  /** 'merchant': an auto-pay charge the portal sent (migration 025). */
  initiated_by: 'customer' | 'merchant';
  created_at: Date;
  settled_at: Date | null;
  /** How the customer chose to pay (migration 026): the card, Bizum or PayPal. */
  pay_method: PayMethod;
};

/** The method an attempt was started with (payment_attempts.pay_method). */
export type PayMethod = 'card' | 'bizum' | 'paypal';

export type TenantGatewayRow = {
  company_name: string;
  canonical_url: string;
  redsys_environment: 'simulator' | 'test' | 'production';
  redsys_merchant_code: string | null;
  redsys_terminal: string | null;
  redsys_secret_key: string | null;
  redsys_signature_versions: string[];
  redsys_pay_methods: string[];
  /** A surplus is refunded through Redsys (on) or listed for the operator (off). */
  auto_refund: boolean;
};

/** What a customer can be told about the refund of an overpayment. */
export type RefundStatus = 'pending' | 'sending' | 'refunded' | 'review' | 'resolved';
export type RefundReviewReason =
  'auto_refund_off' | 'refused' | 'failed_attempts' | 'outcome_unknown' | 'not_configured';

export type RefundRow = {
  id: string;
  attempt_id: string;
  customer_id: string;
  customer_code: string;
  order_number: string;
  merchant_code: string;
  terminal: string;
  paid_cents: number;
  amount_cents: number;
  status: RefundStatus;
  review_reason: RefundReviewReason | null;
  attempts: number;
  last_code: string | null;
  ds_authorisation_code: string | null;
  resolved_note: string | null;
  language: string;
  created_at: Date;
  updated_at: Date;
  refunded_at: Date | null;
  resolved_at: Date | null;
};

const refundColumns = `r.id, r.attempt_id, r.customer_id, c.code AS customer_code, a.order_number, a.merchant_code,
  a.terminal, a.amount_cents AS paid_cents, r.amount_cents, r.status, r.review_reason,
  r.attempts, r.last_code, r.ds_authorisation_code, r.resolved_note, a.language, r.created_at, r.updated_at,
  r.refunded_at, r.resolved_at`;
/** Refunds (`source`: the table, or the rows a statement changed) with their attempt and customer. */
const refundJoinsOf = (source = 'payment_refunds') => `${source} r
  JOIN payment_attempts a ON a.tenant_id = r.tenant_id AND a.id = r.attempt_id
  JOIN customers c ON c.tenant_id = r.tenant_id AND c.id = r.customer_id`;

const attemptColumns = `id, customer_id, order_number, merchant_code, terminal, amount_cents, currency, status,
  save_card, language, kind, card_alias, initiated_by, created_at, settled_at, pay_method`;

async function findRefund(sql: SqlQuery, id: string): Promise<RefundRow | undefined> {
  const rows = await sql.query<RefundRow>(
    `SELECT ${refundColumns} FROM ${refundJoinsOf()}
      WHERE r.tenant_id = current_setting('app.tenant_id') AND r.id::text = $1`,
    [id],
  );
  return rows[0];
}

/**
 * The tenants with refunds due (the refund outbox's one cross-tenant read, on the owner's
 * connection); each tenant's refunds are then taken under its row-level security.
 */
/**
 * How long the refund outbox keeps asking Redsys about a refund whose outcome it never learnt
 * (refunds.ts): past that, it is the operator's alone.
 */
export const unknownRefundCheckDays = 7;

/** Tenants with refunds to send, or with refunds of unknown outcome to ask Redsys about. */
export async function tenantsWithDueRefunds(sql: SqlQuery): Promise<string[]> {
  const rows = await sql.query<{ tenant_id: string }>(
    `SELECT DISTINCT tenant_id FROM payment_refunds
      WHERE next_attempt_at <= now()
        AND (status IN ('pending', 'sending')
             OR (status = 'review' AND review_reason = 'outcome_unknown'
                 AND created_at > now() - make_interval(days => $1)))
      ORDER BY 1`,
    [unknownRefundCheckDays],
  );
  return rows.map((r) => r.tenant_id);
}

/** Where the customer's receipts go: the invoice address when given, else the sign-in one. */
export async function findReceiptEmail(
  sql: SqlQuery,
  customerId: string,
): Promise<string | undefined> {
  const rows = await sql.query<{ email: string }>(
    `SELECT coalesce(nullif(invoice_email, ''), email) AS email FROM customers
      WHERE tenant_id = current_setting('app.tenant_id') AND id = $1`,
    [customerId],
  );
  return rows[0]?.email;
}

/** `box` opens the tenant's Redsys key, sealed at rest (lib/secret-box.ts). */
/**
 * Days a replaced merchant still answers for the orders started under it (migration 032): far
 * beyond any late notification, query or refund of them, and no longer.
 */
export const retiredMerchantDays = 30;

/**
 * The provider cancelled the instalment's invoice (`PUT /admin/invoices` with `cancelled`): none
 * of it is owed, whatever its instalments still say, so none of it is paid (422 not_payable).
 */
/**
 * The invoices attempt `a` was started for, sorted: as kept on it (migration 031: they outlive an
 * instalment a batch removed, whose items go with it), or, for an attempt from before it, those of
 * its items that are still there. What its notices, its overpayment and the customer's status page
 * name (the status page read the items only, and named no invoice once one was removed).
 */
const attemptInvoicesSql = `(CASE WHEN cardinality(a.invoice_ids) > 0
    THEN ARRAY(SELECT DISTINCT x FROM unnest(a.invoice_ids) x ORDER BY x)
    ELSE ARRAY(SELECT DISTINCT e.invoice_id FROM payment_attempt_items i
                 JOIN instalments e ON e.tenant_id = i.tenant_id AND e.id = i.instalment_id
                WHERE i.tenant_id = a.tenant_id AND i.attempt_id = a.id ORDER BY e.invoice_id) END)`;

const invoiceCancelled = `EXISTS (SELECT 1 FROM invoices v WHERE v.tenant_id = instalments.tenant_id
   AND v.id = instalments.invoice_id AND v.cancelled)`;
const statusUnlessCancelled = `CASE WHEN ${invoiceCancelled} THEN 'cancelled' ELSE status END`;

/**
 * The instalment `e` (an alias) is paid, and a payment made in the portal (card, Bizum) paid it: a
 * direct debit of it the bank returns undid the debit, not that payment (the returned-debit
 * reports refuse it). A payment whose item paid nothing (`paid` false: it came after the
 * instalment was paid otherwise, and was refunded, migration 037) is not that payment: before
 * session 37 it locked the instalment, so the return of the debit that did pay it was refused.
 */
export const paidInPortalSql = (e: string): string =>
  `(${e}.status = 'paid' AND EXISTS (
     SELECT 1 FROM payment_attempt_items x
       JOIN payment_attempts a ON a.tenant_id = x.tenant_id AND a.id = x.attempt_id
      WHERE x.tenant_id = ${e}.tenant_id AND x.instalment_id = ${e}.id
        AND a.kind = 'payment' AND a.status = 'paid' AND x.paid IS NOT FALSE))`;

export function createPaymentRepository(box: SecretBox) {
  return {
    async gateway(sql: SqlQuery): Promise<TenantGatewayRow | undefined> {
      const rows = await sql.query<TenantGatewayRow & { id: string }>(
        `SELECT id, company_name, canonical_url, redsys_environment, redsys_merchant_code, redsys_terminal,
                redsys_secret_key, redsys_signature_versions, redsys_pay_methods, auto_refund
           FROM tenants WHERE id = current_setting('app.tenant_id')`,
      );
      const row = rows[0];
      if (!row) return undefined;
      const { id, redsys_secret_key: sealed, ...rest } = row;
      return {
        ...rest,
        redsys_secret_key: sealed
          ? box.open(sealed, { tenantId: id, field: 'redsys_secret_key' })
          : sealed,
      };
    },

    /**
     * The gateway an order was started under: the tenant's current merchant, or, when the operator
     * has changed it since (migration 032), the one in force when the attempt was created (the
     * first retired after it). A retired merchant's key answers only for orders started before it
     * was retired, never for new ones, and only for `retiredMerchantDays` after (a key rotated
     * because it leaked must not sign for old orders for ever).
     */
    async gatewayOfOrder(
      sql: SqlQuery,
      current: TenantGatewayRow,
      merchantCode: string,
      orderNumber: string,
    ): Promise<TenantGatewayRow> {
      const rows = await sql.query<{
        tenant_id: string;
        signature_version: string;
        merchant_code: string | null;
        terminal: string | null;
        environment: TenantGatewayRow['redsys_environment'] | null;
        secret_key: string | null;
      }>(
        `SELECT a.tenant_id, a.signature_version, r.merchant_code, r.terminal, r.environment,
                r.secret_key
           FROM payment_attempts a
           LEFT JOIN LATERAL (
             SELECT * FROM tenant_retired_merchants r
              WHERE r.tenant_id = a.tenant_id AND r.retired_at > a.created_at
                AND r.retired_at > now() - make_interval(days => ${retiredMerchantDays})
              ORDER BY r.retired_at LIMIT 1) r ON true
          WHERE a.tenant_id = current_setting('app.tenant_id')
            AND a.merchant_code = $1 AND a.order_number = $2
          LIMIT 1`,
        [merchantCode, orderNumber],
      );
      const row = rows[0];
      if (!row) return current;
      const base: TenantGatewayRow =
        row.merchant_code && row.secret_key && row.environment
          ? {
              ...current,
              redsys_merchant_code: row.merchant_code,
              redsys_terminal: row.terminal,
              redsys_environment: row.environment,
              redsys_secret_key: box.open(row.secret_key, {
                tenantId: row.tenant_id,
                field: 'redsys_secret_key',
              }),
            }
          : current;
      // The order was signed with its own version, which Redsys answers with: accepted for it
      // even if the operator has since dropped that version from the tenant's list.
      return base.redsys_signature_versions.includes(row.signature_version)
        ? base
        : {
            ...base,
            redsys_signature_versions: [...base.redsys_signature_versions, row.signature_version],
          };
    },

    /** The customer's instalments named by id, or all of some invoices, locked for this payment. */
    async lockInstalments(
      sql: SqlQuery,
      customerId: string,
      by: { ids: string[] } | { invoices: string[] },
    ): Promise<PayableRow[]> {
      const where =
        'ids' in by
          ? 'id::text = ANY($2)'
          : `invoice_id = ANY($2) AND status IN ${unpaidStates} AND NOT ${invoiceCancelled}`;
      const from = `FROM instalments
          WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1 AND ${where}`;
      const params = [customerId, 'ids' in by ? by.ids : by.invoices];
      // Locked first, read after, in two statements (as returned-debits' and ingestion's
      // lockInstalments): a statement that waited for a lock reads its subqueries with the
      // snapshot taken before waiting, so a start queued behind a returned debit's report read
      // the instalment `returned` but its bank fee 0, and the fee was never collected. The read
      // keeps to the rows locked.
      const locked = await sql.query<{ id: string }>(
        `SELECT id ${from} ORDER BY invoice_id, seq FOR UPDATE`,
        params,
      );
      const rows = await sql.query<PayableRow>(
        `SELECT id, invoice_id, amount_cents, ${chargedFeeSql('instalments')} AS fee_cents,
                ${statusUnlessCancelled} AS status
           ${from} AND id = ANY($3::uuid[])
          ORDER BY invoice_id, seq`,
        [...params, locked.map((r) => r.id)],
      );
      return rows.map((r) => ({
        ...r,
        amount_cents: Number(r.amount_cents),
        fee_cents: Number(r.fee_cents),
      }));
    },

    /**
     * The same instalments as `lockInstalments`, read without a lock: what the payment
     * confirmation shows before the customer starts.
     */
    async previewInstalments(
      sql: SqlQuery,
      customerId: string,
      by: { ids: string[] } | { invoices: string[] },
    ): Promise<PreviewRow[]> {
      const where =
        'ids' in by
          ? 'id::text = ANY($2)'
          : `invoice_id = ANY($2) AND status IN ${unpaidStates} AND NOT ${invoiceCancelled}`;
      const rows = await sql.query<PreviewRow>(
        `SELECT id, invoice_id, seq, to_char(due_date, 'YYYYMMDD') AS due_date, amount_cents,
                ${chargedFeeSql('instalments')} AS fee_cents, ${statusUnlessCancelled} AS status
           FROM instalments
          WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1 AND ${where}
          ORDER BY due_date, invoice_id, seq`,
        [customerId, 'ids' in by ? by.ids : by.invoices],
      );
      return rows.map((r) => ({
        ...r,
        amount_cents: Number(r.amount_cents),
        fee_cents: Number(r.fee_cents),
        seq: Number(r.seq),
      }));
    },

    async ownedInvoices(sql: SqlQuery, customerId: string, ids: string[]): Promise<string[]> {
      const rows = await sql.query<{ id: string }>(
        `SELECT id FROM invoices WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1 AND id = ANY($2)`,
        [customerId, ids],
      );
      return rows.map((r) => r.id);
    },

    async savedCardReference(
      sql: SqlQuery,
      customerId: string,
      cardId: string,
    ): Promise<string | undefined> {
      const rows = await sql.query<{ redsys_reference: string }>(
        `SELECT redsys_reference FROM payment_methods
          WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1 AND id::text = $2
            AND kind = 'card' AND deleted_at IS NULL AND redsys_reference IS NOT NULL`,
        [customerId, cardId],
      );
      return rows[0]?.redsys_reference;
    },

    async insertAttempt(
      sql: SqlQuery,
      a: {
        customerId: string;
        orderNumber: string;
        merchantCode: string;
        terminal: string;
        amountCents: number;
        saveCard: boolean;
        paymentMethodId: string | null;
        signatureVersion: string;
        language: string;
        kind?: 'payment' | 'card_verification';
        cardAlias?: string;
        payMethod?: PayMethod;
        initiatedBy?: 'customer' | 'merchant';
      },
    ): Promise<{ id: string; created_at: Date }> {
      const rows = await sql.query<{ id: string; created_at: Date }>(
        `INSERT INTO payment_attempts (tenant_id, customer_id, order_number, merchant_code, terminal, amount_cents,
            save_card, payment_method_id, signature_version, language, kind, card_alias, pay_method,
            initiated_by)
         VALUES (current_setting('app.tenant_id'), $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12,
                 $13)
         RETURNING id, created_at`,
        [
          a.customerId,
          a.orderNumber,
          a.merchantCode,
          a.terminal,
          a.amountCents,
          a.saveCard,
          a.paymentMethodId,
          a.signatureVersion,
          a.language,
          a.kind ?? 'payment',
          a.cardAlias ?? '',
          a.payMethod ?? 'card',
          a.initiatedBy ?? 'customer',
        ],
      );
      const row = rows[0];
      if (!row) throw new Error('insert returned nothing');
      return row;
    },

    /** Whether an open attempt holds one of these instalments (a payment in progress). */
    async anyHeld(sql: SqlQuery, instalmentIds: string[]): Promise<boolean> {
      const rows = await sql.query(
        `SELECT 1 FROM payment_attempt_items
          WHERE tenant_id = current_setting('app.tenant_id') AND active AND instalment_id::text = ANY($1)
          LIMIT 1`,
        [instalmentIds],
      );
      return rows.length > 0;
    },

    /** An attempt by id, with the card on file it charges (merchant-initiated attempts). */
    async attemptWithCard(
      sql: SqlQuery,
      id: string,
    ): Promise<
      | (AttemptRow & { redsys_reference: string | null; redsys_cof_txnid: string | null })
      | undefined
    > {
      const rows = await sql.query<
        AttemptRow & { redsys_reference: string | null; redsys_cof_txnid: string | null }
      >(
        `SELECT a.id, a.customer_id, a.order_number, a.merchant_code, a.terminal, a.amount_cents,
                a.currency, a.status, a.save_card, a.language, a.kind, a.card_alias, a.initiated_by,
                a.created_at, a.settled_at, m.redsys_reference, m.redsys_cof_txnid
           FROM payment_attempts a
           LEFT JOIN payment_methods m ON m.tenant_id = a.tenant_id AND m.id = a.payment_method_id
          WHERE a.tenant_id = current_setting('app.tenant_id') AND a.id = $1`,
        [id],
      );
      return rows[0];
    },

    /**
     * The attempt's items, and its invoices kept on the attempt itself (migration 031): a batch may
     * later remove an instalment no open payment holds, and its items go with it, but a late
     * authorisation of the attempt must still say which invoices it was for.
     */
    async insertItems(
      sql: SqlQuery,
      attemptId: string,
      items: Pick<PayableRow, 'id' | 'invoice_id' | 'amount_cents' | 'fee_cents'>[],
    ): Promise<void> {
      for (const item of items) {
        await sql.query(
          `INSERT INTO payment_attempt_items (tenant_id, attempt_id, instalment_id, amount_cents, fee_cents)
           VALUES (current_setting('app.tenant_id'), $1, $2, $3, $4)`,
          [attemptId, item.id, item.amount_cents, item.fee_cents],
        );
      }
      await sql.query(
        `UPDATE payment_attempts SET invoice_ids = $2::text[]
          WHERE tenant_id = current_setting('app.tenant_id') AND id = $1`,
        [attemptId, [...new Set(items.map((i) => i.invoice_id))].sort()],
      );
    },

    async findAttemptForUpdate(
      sql: SqlQuery,
      merchantCode: string,
      orderNumber: string,
    ): Promise<AttemptRow | undefined> {
      const rows = await sql.query<AttemptRow>(
        `SELECT ${attemptColumns} FROM payment_attempts
          WHERE tenant_id = current_setting('app.tenant_id') AND merchant_code = $1 AND order_number = $2
          FOR UPDATE`,
        [merchantCode, orderNumber],
      );
      return rows[0];
    },

    /** The attempt of an order, unlocked: what a notification is checked against first. */
    async findAttempt(
      sql: SqlQuery,
      merchantCode: string,
      orderNumber: string,
    ): Promise<AttemptRow | undefined> {
      const rows = await sql.query<AttemptRow>(
        `SELECT ${attemptColumns} FROM payment_attempts
          WHERE tenant_id = current_setting('app.tenant_id') AND merchant_code = $1 AND order_number = $2`,
        [merchantCode, orderNumber],
      );
      return rows[0];
    },

    /**
     * Locks the instalments of an attempt, in the order `lockInstalments` takes them. Everything
     * that settles or supersedes an attempt takes its instalments first and the attempt after, so
     * that a start and a notification racing over the same instalments wait instead of deadlocking.
     */
    async lockAttemptInstalments(sql: SqlQuery, attemptId: string): Promise<void> {
      await sql.query(
        `SELECT e.id FROM instalments e JOIN payment_attempt_items i
            ON i.tenant_id = e.tenant_id AND i.instalment_id = e.id
          WHERE i.tenant_id = current_setting('app.tenant_id') AND i.attempt_id = $1
          ORDER BY e.invoice_id, e.seq FOR UPDATE OF e`,
        [attemptId],
      );
    },

    /**
     * A new start of some instalments: the customer's open attempts holding any of them (locked by
     * the caller) become 'superseded' and their items stop holding instalments. Answers the ids
     * superseded. An auto-pay charge in flight (initiated by the merchant) is never superseded: it
     * keeps its instalments until the gateway's answer (or the reconciliation's query) settles it,
     * and its decline is what schedules the next try; the new start gets 409 from `insertItems`.
     */
    async supersedeHolders(
      sql: SqlQuery,
      instalmentIds: string[],
      newAttemptId: string,
    ): Promise<string[]> {
      const rows = await sql.query<{ id: string }>(
        `UPDATE payment_attempts a SET status = 'superseded', superseded_by = $2
          WHERE a.tenant_id = current_setting('app.tenant_id') AND a.status = 'pending'
            AND a.initiated_by = 'customer'
            AND a.id IN (SELECT i.attempt_id FROM payment_attempt_items i
                          WHERE i.tenant_id = current_setting('app.tenant_id') AND i.active
                            AND i.instalment_id::text = ANY($1))
          RETURNING a.id`,
        [instalmentIds, newAttemptId],
      );
      const ids = rows.map((r) => r.id);
      if (ids.length > 0) {
        await sql.query(
          `UPDATE payment_attempt_items SET active = false
            WHERE tenant_id = current_setting('app.tenant_id') AND attempt_id::text = ANY($1)`,
          [ids],
        );
      }
      return ids;
    },

    /**
     * The gateway's final word on a superseded attempt that changes nothing (a denial, or the
     * query service never received it): the attempt stays superseded and is no longer asked for.
     */
    async closeSuperseded(sql: SqlQuery, id: string, dsResponse: string | null): Promise<boolean> {
      const rows = await sql.query(
        `UPDATE payment_attempts SET settled_at = now(), ds_response = coalesce($2, ds_response)
          WHERE tenant_id = current_setting('app.tenant_id') AND id = $1
            AND status = 'superseded' AND settled_at IS NULL RETURNING id`,
        [id, dsResponse],
      );
      return rows.length > 0;
    },

    /**
     * An authorisation: the attempt is paid, whatever it was before (pending, superseded, or failed
     * by a release), and its items stop holding instalments. Answers whether it changed (false
     * when it was paid already).
     */
    async markAuthorised(
      sql: SqlQuery,
      id: string,
      outcome: {
        dsResponse: string;
        authorisation: string | null;
        methodId: string | null;
        /** What the gateway says was used (Ds_ProcessedPayMethod), when it differs. */
        payMethod?: PayMethod | null;
      },
    ): Promise<boolean> {
      const changed = await sql.query(
        `UPDATE payment_attempts SET status = 'paid', ds_response = $2, ds_authorisation_code = $3,
                settled_at = now(), payment_method_id = coalesce($4, payment_method_id),
                pay_method = coalesce($5, pay_method)
          WHERE tenant_id = current_setting('app.tenant_id') AND id = $1 AND status <> 'paid'
          RETURNING id`,
        [
          id,
          outcome.dsResponse,
          outcome.authorisation,
          outcome.methodId,
          outcome.payMethod ?? null,
        ],
      );
      await sql.query(
        `UPDATE payment_attempt_items SET active = false
          WHERE tenant_id = current_setting('app.tenant_id') AND attempt_id = $1 AND active`,
        [id],
      );
      return changed.length > 0;
    },

    async findOwnAttempt(sql: SqlQuery, customerId: string, id: string) {
      const rows = await sql.query<
        AttemptRow & {
          invoices: string[];
          charged_at: Date | null;
          card_saved: boolean;
          ds_response: string | null;
          refund_cents: number | null;
          refund_status: RefundStatus | null;
        }
      >(
        `SELECT a.id, a.customer_id, a.order_number, a.merchant_code, a.terminal, a.amount_cents, a.currency,
                a.status, a.save_card, a.language, a.kind, a.card_alias, a.initiated_by, a.created_at,
                a.settled_at, a.pay_method, a.ds_response, a.charged_at,
                ${attemptInvoicesSql} AS invoices,
                (a.payment_method_id IS NOT NULL AND a.save_card) AS card_saved,
                r.amount_cents AS refund_cents, r.status AS refund_status
           FROM payment_attempts a
           LEFT JOIN payment_refunds r ON r.tenant_id = a.tenant_id AND r.attempt_id = a.id
          WHERE a.tenant_id = current_setting('app.tenant_id') AND a.customer_id = $1 AND a.id::text = $2`,
        [customerId, id],
      );
      return rows[0];
    },

    /** The moment the gateway charged (`YYYY-MM-DD HH:MM`, Madrid), migration 041. */
    async setChargedAt(sql: SqlQuery, id: string, moment: string): Promise<void> {
      await sql.query(
        `UPDATE payment_attempts SET charged_at = $2::timestamp AT TIME ZONE 'Europe/Madrid'
          WHERE tenant_id = current_setting('app.tenant_id') AND id = $1`,
        [id, moment],
      );
    },

    /** A pending attempt settled; answers whether it was still pending (and so changed). */
    async settleAttempt(
      sql: SqlQuery,
      id: string,
      outcome: {
        status: 'paid' | 'failed';
        dsResponse: string | null;
        authorisation: string | null;
        methodId?: string | null;
      },
      /** The states it may leave: pending only, but a card addition's late token (`saveVerifiedCard`). */
      from: readonly AttemptStatus[] = ['pending'],
    ): Promise<boolean> {
      const changed = await sql.query(
        `UPDATE payment_attempts SET status = $2, ds_response = $3, ds_authorisation_code = $4, settled_at = now(),
                payment_method_id = coalesce($5, payment_method_id)
          WHERE tenant_id = current_setting('app.tenant_id') AND id = $1 AND status = ANY($6::text[])
          RETURNING id`,
        [
          id,
          outcome.status,
          outcome.dsResponse,
          outcome.authorisation,
          outcome.methodId ?? null,
          from,
        ],
      );
      await sql.query(
        `UPDATE payment_attempt_items SET active = false WHERE tenant_id = current_setting('app.tenant_id') AND attempt_id = $1`,
        [id],
      );
      return changed.length > 0;
    },

    /**
     * Marks the attempt's instalments that are still unpaid paid; answers those, with what each
     * took of the charge: the instalment's amount as it stands now, and a returned debit's fee as
     * charged (`fee_cents` of it). The rest of the attempt's amount paid nothing, a surplus.
     *
     * An instalment is paid only while it is still the customer's and the charge covers it. Once
     * an attempt is released or superseded, a provider's batch may change the instalment: lowered,
     * it is paid and the difference is surplus; raised above what was charged (a returned debit's
     * bank fee added to it included), or moved to another customer, it stays unpaid and its whole
     * share of the charge is surplus (refunded).
     */
    async payInstalments(
      sql: SqlQuery,
      attemptId: string,
      paidDate: string,
      method: 'Tarjeta' | 'Bizum' | 'PayPal' = 'Tarjeta',
    ): Promise<{ id: string; invoice_id: string; amount_cents: number; fee_cents: number }[]> {
      const rows = await sql.query<{
        id: string;
        invoice_id: string;
        amount_cents: number;
        fee_cents: number;
      }>(
        `WITH owed AS (
           -- The bank fee each instalment owes now, read before it is paid (paid, it owes none).
           SELECT e.id, ${chargedFeeSql('e')} AS fee_cents FROM instalments e
             JOIN payment_attempt_items i ON i.tenant_id = e.tenant_id AND i.instalment_id = e.id
            WHERE i.tenant_id = current_setting('app.tenant_id') AND i.attempt_id = $1),
         paid AS (
         UPDATE instalments e SET status = 'paid', paid_date = $2, method = $3
           FROM payment_attempt_items i JOIN payment_attempts a
                ON a.tenant_id = i.tenant_id AND a.id = i.attempt_id
                JOIN owed o ON o.id = i.instalment_id
          WHERE i.tenant_id = current_setting('app.tenant_id') AND i.attempt_id = $1
            AND e.tenant_id = i.tenant_id AND e.id = i.instalment_id AND e.status IN ${unpaidStates}
            AND e.customer_id = a.customer_id
            -- The charge covers what the instalment owes now, a returned debit's bank fee
            -- included: a late charge started before the return paid it without the fee, and the
            -- fee was owed by nobody once the instalment was paid (session 39).
            AND e.amount_cents + o.fee_cents <= i.amount_cents + i.fee_cents
            -- An invoice the provider cancelled while the payment was open is owed no more: what
            -- was charged for it is a surplus, refunded (before: kept, and the instalment 'paid').
            AND NOT EXISTS (SELECT 1 FROM invoices v WHERE v.tenant_id = e.tenant_id
                              AND v.id = e.invoice_id AND v.cancelled)
          -- What it paid: the amount and the fee as owed now. A fee the provider lowered (or
          -- stopped charging) since the start is a surplus, refunded: it was kept (session 39).
          RETURNING e.id, e.invoice_id, (e.amount_cents + o.fee_cents)::int8 AS amount_cents,
                    o.fee_cents),
         -- Which of its instalments this payment paid (migration 037): its receipt is theirs.
         marked AS (
           UPDATE payment_attempt_items x SET paid = x.instalment_id IN (SELECT id FROM paid)
            WHERE x.tenant_id = current_setting('app.tenant_id') AND x.attempt_id = $1)
         SELECT id::text, invoice_id, amount_cents, fee_cents FROM paid`,
        [attemptId, paidDate, method],
      );
      return rows.map((r) => ({
        ...r,
        amount_cents: Number(r.amount_cents),
        fee_cents: Number(r.fee_cents),
      }));
    },

    /**
     * The invoices an attempt was started for, as kept on it; for an attempt from before migration
     * 031, those of its items that are still there.
     */
    async attemptInvoices(sql: SqlQuery, attemptId: string): Promise<string[]> {
      const rows = await sql.query<{ invoices: string[] }>(
        `SELECT ${attemptInvoicesSql} AS invoices FROM payment_attempts a
          WHERE a.tenant_id = current_setting('app.tenant_id') AND a.id = $1`,
        [attemptId],
      );
      return rows[0]?.invoices ?? [];
    },

    async insertCard(
      sql: SqlQuery,
      card: {
        customerId: string;
        alias?: string;
        holder: string;
        brand: string | null;
        masked: string | null;
        expiry: string | null;
        reference: string;
        cofTxnid: string | null;
      },
    ): Promise<string> {
      const rows = await sql.query<{ id: string }>(
        `INSERT INTO payment_methods (tenant_id, customer_id, kind, alias, holder, card_brand, card_masked, card_expiry,
            redsys_reference, status, redsys_cof_txnid)
         VALUES (current_setting('app.tenant_id'), $1, 'card', $7, $2, $3, $4, $5, $6, 'active', $8) RETURNING id`,
        [
          card.customerId,
          card.holder,
          card.brand,
          card.masked,
          card.expiry,
          card.reference,
          card.alias ?? '',
          card.cofTxnid,
        ],
      );
      return rows[0]?.id ?? '';
    },

    async recordNotification(
      sql: SqlQuery,
      n: {
        attemptId: string | null;
        version: string;
        parameters: string;
        signature: string;
        outcome: string;
      },
    ): Promise<void> {
      await sql.query(
        `INSERT INTO redsys_notifications (tenant_id, attempt_id, signature_version, merchant_parameters, signature, outcome)
         VALUES (current_setting('app.tenant_id'), $1, $2, $3, $4, $5)`,
        [
          n.attemptId,
          n.version.slice(0, 40),
          n.parameters.slice(0, 20_000),
          n.signature.slice(0, 200),
          n.outcome,
        ],
      );
    },

    async customerContact(sql: SqlQuery, customerId: string) {
      const rows = await sql.query<{ email: string; name: string; language: string }>(
        `SELECT email, trim(name || ' ' || last_name) AS name, language FROM customers
          WHERE tenant_id = current_setting('app.tenant_id') AND id = $1`,
        [customerId],
      );
      return rows[0];
    },

    // ---- Overpayments and their refunds (payment_refunds: this module is its only writer) ----

    /**
     * Records the surplus of an authorisation, once per attempt (the unique key): answers the new
     * refund's id, or undefined when the attempt already has one.
     */
    async insertRefund(
      sql: SqlQuery,
      r: {
        attemptId: string;
        customerId: string;
        amountCents: number;
        status: 'pending' | 'review';
        reviewReason: RefundReviewReason | null;
      },
    ): Promise<string | undefined> {
      const rows = await sql.query<{ id: string }>(
        `INSERT INTO payment_refunds (tenant_id, attempt_id, customer_id, amount_cents, status, review_reason)
         VALUES (current_setting('app.tenant_id'), $1, $2, $3, $4, $5)
         ON CONFLICT (tenant_id, attempt_id) DO NOTHING RETURNING id`,
        [r.attemptId, r.customerId, r.amountCents, r.status, r.reviewReason],
      );
      return rows[0]?.id;
    },

    /**
     * A sender's lease that ran out while the refund was being sent: whether Redsys refunded is
     * unknown, so it is never sent again blindly; Redsys is asked about it after `checkInSeconds`
     * (claimUnknownRefunds), and the operator sees it meanwhile.
     */
    async expireRefundLeases(sql: SqlQuery, checkInSeconds: number): Promise<RefundRow[]> {
      return sql.query<RefundRow>(
        `WITH expired AS (
           UPDATE payment_refunds SET status = 'review', review_reason = 'outcome_unknown', updated_at = now(),
                  next_attempt_at = now() + make_interval(secs => $1)
            WHERE tenant_id = current_setting('app.tenant_id') AND status = 'sending'
              AND next_attempt_at <= now()
            RETURNING *)
         SELECT ${refundColumns} FROM ${refundJoinsOf('expired')}`,
        [checkInSeconds],
      );
    },

    /**
     * Takes up to `limit` refunds of unknown outcome whose check is due (younger than
     * `unknownRefundCheckDays`): the next check is put `checkInSeconds` later, which also keeps
     * another sender from asking about them meanwhile.
     */
    async claimUnknownRefunds(
      sql: SqlQuery,
      q: { limit: number; checkInSeconds: number },
    ): Promise<RefundRow[]> {
      return sql.query<RefundRow>(
        `WITH due AS (
           SELECT id FROM payment_refunds
            WHERE tenant_id = current_setting('app.tenant_id') AND status = 'review'
              AND review_reason = 'outcome_unknown' AND next_attempt_at <= now()
              AND created_at > now() - make_interval(days => $3)
            ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED),
         claimed AS (
           UPDATE payment_refunds r SET next_attempt_at = now() + make_interval(secs => $2)
             FROM due WHERE r.tenant_id = current_setting('app.tenant_id') AND r.id = due.id
            RETURNING r.*)
         SELECT ${refundColumns} FROM ${refundJoinsOf('claimed')}
          ORDER BY r.created_at`,
        [q.limit, q.checkInSeconds, unknownRefundCheckDays],
      );
    },

    /**
     * Redsys says a refund of unknown outcome was never made: it is sent again (`pending`) or, after
     * `maxAttempts` sends, left for the operator as failed (no longer as possibly made). Null when
     * it no longer waits as unknown (the operator resolved it meanwhile).
     */
    async refundNeverMade(
      sql: SqlQuery,
      id: string,
      maxAttempts: number,
    ): Promise<'pending' | 'review' | null> {
      const rows = await sql.query<{ status: 'pending' | 'review' }>(
        `UPDATE payment_refunds
            SET status = CASE WHEN attempts < $2 THEN 'pending' ELSE 'review' END,
                review_reason = CASE WHEN attempts < $2 THEN NULL ELSE 'failed_attempts' END,
                next_attempt_at = now(), updated_at = now()
          WHERE tenant_id = current_setting('app.tenant_id') AND id = $1
            AND status = 'review' AND review_reason = 'outcome_unknown'
          RETURNING status`,
        [id, maxAttempts],
      );
      return rows[0]?.status ?? null;
    },

    /**
     * Takes up to `limit` due refunds for sending: each becomes 'sending' under a lease of
     * `leaseSeconds` and counts one more attempt, in the caller's (short) transaction.
     */
    async claimDueRefunds(
      sql: SqlQuery,
      q: { limit: number; leaseSeconds: number },
    ): Promise<RefundRow[]> {
      return sql.query<RefundRow>(
        `WITH due AS (
           SELECT id FROM payment_refunds
            WHERE tenant_id = current_setting('app.tenant_id') AND status = 'pending'
              AND next_attempt_at <= now()
            ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED),
         claimed AS (
           UPDATE payment_refunds r SET status = 'sending', attempts = r.attempts + 1,
                  next_attempt_at = now() + make_interval(secs => $2), updated_at = now()
             FROM due WHERE r.tenant_id = current_setting('app.tenant_id') AND r.id = due.id
            RETURNING r.*)
         SELECT ${refundColumns} FROM ${refundJoinsOf('claimed')}
          ORDER BY r.created_at`,
        [q.limit, q.leaseSeconds],
      );
    },

    /** What the gateway answered for a refund being sent; false when it was no longer sending. */
    async recordRefundOutcome(
      sql: SqlQuery,
      id: string,
      outcome:
        | { status: 'refunded'; authorisation: string | null }
        | { status: 'pending'; code: string; retryInSeconds: number }
        | { status: 'review'; code: string; reason: RefundReviewReason; checkInSeconds?: number },
    ): Promise<boolean> {
      const rows = await sql.query(
        `UPDATE payment_refunds
            SET status = $2,
                ds_authorisation_code = CASE WHEN $2 = 'refunded' THEN $3 ELSE ds_authorisation_code END,
                last_code = CASE WHEN $2 = 'refunded' THEN last_code ELSE $3 END,
                review_reason = $4,
                next_attempt_at = now() + make_interval(secs => $5),
                refunded_at = CASE WHEN $2 = 'refunded' THEN now() END,
                updated_at = now()
          WHERE tenant_id = current_setting('app.tenant_id') AND id = $1
            AND (status = 'sending'
                 -- The gateway's signed answer that it refunded settles a refund whose lease ran
                 -- out meanwhile (left for the operator as outcome unknown): it is known now.
                 OR ($2 = 'refunded' AND status = 'review' AND review_reason = 'outcome_unknown'))
          RETURNING id`,
        [
          id,
          outcome.status,
          outcome.status === 'refunded' ? outcome.authorisation : outcome.code,
          outcome.status === 'review' ? outcome.reason : null,
          outcome.status === 'pending'
            ? outcome.retryInSeconds
            : outcome.status === 'review'
              ? (outcome.checkInSeconds ?? 0)
              : 0,
        ],
      );
      return rows.length > 0;
    },

    /** Overpayments of the tenant, newest first: those waiting for the operator, or all. */
    async listRefunds(sql: SqlQuery, q: { all: boolean; limit: number }): Promise<RefundRow[]> {
      return sql.query<RefundRow>(
        `SELECT ${refundColumns} FROM ${refundJoinsOf()}
          WHERE r.tenant_id = current_setting('app.tenant_id') ${q.all ? '' : "AND r.status = 'review'"}
          ORDER BY r.created_at DESC, r.id LIMIT $1`,
        [q.limit],
      );
    },

    /** The operator dealt with an overpayment waiting for them (refunded by hand, credited...). */
    async resolveRefund(sql: SqlQuery, id: string, note: string): Promise<RefundRow | undefined> {
      const rows = await sql.query<{ id: string }>(
        `UPDATE payment_refunds SET status = 'resolved', resolved_note = $2, resolved_at = now(),
                updated_at = now()
          WHERE tenant_id = current_setting('app.tenant_id') AND id::text = $1 AND status = 'review'
          RETURNING id`,
        [id, note],
      );
      return rows[0] ? findRefund(sql, rows[0].id) : undefined;
    },

    /** The operator asks for an overpayment waiting for them to be refunded through Redsys. */
    async retryRefund(sql: SqlQuery, id: string): Promise<RefundRow | undefined> {
      const rows = await sql.query<{ id: string }>(
        `UPDATE payment_refunds SET status = 'pending', review_reason = NULL, attempts = 0,
                next_attempt_at = now(), updated_at = now()
          WHERE tenant_id = current_setting('app.tenant_id') AND id::text = $1 AND status = 'review'
          RETURNING id`,
        [id],
      );
      return rows[0] ? findRefund(sql, rows[0].id) : undefined;
    },

    refund: findRefund,

    /**
     * Attempts the gateway has not answered for, older than `minutes`: pending ones, and superseded
     * ones (the customer may still have paid on the old card page), skipping ones another instance
     * is settling.
     */
    async stalePending(sql: SqlQuery, minutes: number): Promise<AttemptRow[]> {
      return sql.query<AttemptRow>(
        // Taken in turns by customer (each one's oldest first, then each one's second...): one
        // customer starting and leaving checkouts by the hundred kept every run asking about
        // theirs, and another customer's lost payment waited behind them for hours (session 39).
        `WITH stale AS (
           SELECT id, created_at,
                  row_number() OVER (PARTITION BY customer_id ORDER BY created_at) AS turn
             FROM payment_attempts
            WHERE tenant_id = current_setting('app.tenant_id')
              AND (status = 'pending' OR (status = 'superseded' AND settled_at IS NULL))
              AND created_at < now() - make_interval(mins => $1)
            ORDER BY turn, created_at LIMIT 50)
         SELECT ${attemptColumns} FROM payment_attempts
          WHERE tenant_id = current_setting('app.tenant_id') AND id IN (SELECT id FROM stale)
            AND (status = 'pending' OR (status = 'superseded' AND settled_at IS NULL))
          ORDER BY created_at FOR UPDATE SKIP LOCKED`,
        [minutes],
      );
    },

    /** The attempt was let go without the gateway's final answer: asked about in `seconds`. */
    async scheduleRecheck(sql: SqlQuery, id: string, seconds: number): Promise<void> {
      await sql.query(
        `UPDATE payment_attempts SET recheck_at = now() + make_interval(secs => $2)
          WHERE tenant_id = current_setting('app.tenant_id') AND id = $1`,
        [id, seconds],
      );
    },

    /**
     * Up to `limit` released attempts whose next question to the gateway is due, younger than
     * `days`; the next one is put `nextInSeconds` later, which also keeps another instance from
     * asking at the same time.
     */
    async dueRechecks(
      sql: SqlQuery,
      q: { limit: number; nextInSeconds: number; days: number },
    ): Promise<AttemptRow[]> {
      return sql.query<AttemptRow>(
        // In turns by customer too, as `stalePending`.
        `WITH waiting AS (
           SELECT id, recheck_at,
                  row_number() OVER (PARTITION BY customer_id ORDER BY recheck_at) AS turn
             FROM payment_attempts
            WHERE tenant_id = current_setting('app.tenant_id') AND recheck_at <= now()
              AND created_at > now() - make_interval(days => $3)
            ORDER BY turn, recheck_at LIMIT $1),
         due AS (
           SELECT id FROM payment_attempts
            WHERE tenant_id = current_setting('app.tenant_id') AND id IN (SELECT id FROM waiting)
              AND recheck_at <= now()
            FOR UPDATE SKIP LOCKED),
         claimed AS (
           UPDATE payment_attempts a SET recheck_at = now() + make_interval(secs => $2)
             FROM due WHERE a.tenant_id = current_setting('app.tenant_id') AND a.id = due.id
            RETURNING a.id)
         SELECT ${attemptColumns} FROM payment_attempts
          WHERE tenant_id = current_setting('app.tenant_id') AND id IN (SELECT id FROM claimed)
          ORDER BY created_at`,
        [q.limit, q.nextInSeconds, q.days],
      );
    },

    /** The gateway gave its final word on a released attempt: nothing more to ask. */
    async endRecheck(sql: SqlQuery, id: string): Promise<void> {
      await sql.query(
        `UPDATE payment_attempts SET recheck_at = NULL
          WHERE tenant_id = current_setting('app.tenant_id') AND id = $1`,
        [id],
      );
    },

    /** Released attempts still without a final answer after `days`: no longer asked about. */
    async abandonRechecks(
      sql: SqlQuery,
      days: number,
    ): Promise<{ id: string; order_number: string }[]> {
      return sql.query<{ id: string; order_number: string }>(
        `UPDATE payment_attempts SET recheck_at = NULL
          WHERE tenant_id = current_setting('app.tenant_id') AND recheck_at IS NOT NULL
            AND created_at <= now() - make_interval(days => $1)
          RETURNING id, order_number`,
        [days],
      );
    },
  };
}
