import type { TLanguage } from '@portal/contract/languages';
import type { TSepaMandateStatus } from '@portal/contract/sepa-mandates';
import type { SqlQuery } from '../../db/database.ts';

/**
 * SQL of `sepa_mandates` (migration 024), whose one writer is this module. Every statement runs
 * inside `withTenant`/`readTenant`, so row-level security limits it to the tenant of the
 * transaction besides the explicit filter.
 */
const tenant = "current_setting('app.tenant_id')";

export type CreditorRow = {
  sepa_creditor_id: string;
  name: string;
  address: string;
};

export type MandateRow = {
  id: string;
  reference: string;
  status: TSepaMandateStatus;
  customer_code: string;
  payment_method_id: string | null;
  creditor_id: string;
  creditor_name: string;
  creditor_address: string;
  debtor_name: string;
  debtor_nif: string;
  iban: string;
  language: TLanguage;
  signed_at: Date;
  signer_ip: string;
  user_agent: string;
  replaces_reference: string | null;
  replaced_by_reference: string | null;
  ended_at: Date | null;
};

export type MandateBrandRow = {
  company_name: string;
  legal_name: string;
  legal_nif: string;
  legal_address: string;
  contact_email: string;
  primary_color: string;
  logo_mime: string | null;
  logo_data: Uint8Array | null;
};

// The account's id while it is saved: null once it is deleted, as the contract says (before
// session 37 the deleted account's id, a 404 on every other call).
const columns = `m.id, m.reference, m.status, c.code AS customer_code,
  (SELECT pm.id FROM payment_methods pm WHERE pm.tenant_id = m.tenant_id
      AND pm.id = m.payment_method_id AND pm.deleted_at IS NULL) AS payment_method_id,
  m.creditor_id, m.creditor_name, m.creditor_address, m.debtor_name, m.debtor_nif, m.iban,
  m.language, m.signed_at, m.signer_ip, m.user_agent,
  (SELECT p.reference FROM sepa_mandates p WHERE p.tenant_id = m.tenant_id AND p.replaced_by = m.id
    LIMIT 1) AS replaces_reference,
  (SELECT n.reference FROM sepa_mandates n WHERE n.tenant_id = m.tenant_id AND n.id = m.replaced_by)
    AS replaced_by_reference,
  m.ended_at`;
const from = `FROM sepa_mandates m JOIN customers c ON c.tenant_id = m.tenant_id AND c.id = m.customer_id`;

export function createMandateRepository() {
  return {
    /** The tenant as creditor: its identifier ('' when none), legal name and address. */
    async creditor(sql: SqlQuery): Promise<CreditorRow | undefined> {
      const [row] = await sql.query<CreditorRow>(
        `SELECT sepa_creditor_id, coalesce(nullif(legal_name, ''), company_name) AS name,
                legal_address AS address
           FROM tenants WHERE id = ${tenant}`,
      );
      return row;
    },
    /** Serialises a customer's signatures to the end of the transaction. */
    async lockCustomer(sql: SqlQuery, customerId: string): Promise<void> {
      await sql.query(
        `SELECT pg_advisory_xact_lock(hashtextextended('sepa-mandates:' || ${tenant} || ':' || $1, 0))`,
        [customerId],
      );
    },
    async activeOf(sql: SqlQuery, customerId: string): Promise<string | undefined> {
      const [row] = await sql.query<{ id: string }>(
        `SELECT id FROM sepa_mandates WHERE tenant_id = ${tenant} AND customer_id = $1
            AND status = 'active' FOR UPDATE`,
        [customerId],
      );
      return row?.id;
    },
    /**
     * The signature's time is the clock's once the customer's lock is held, not the transaction's
     * start: of two signatures at once, the one that replaces the other is the later one.
     */
    async insert(
      sql: SqlQuery,
      m: {
        id: string;
        customerId: string;
        paymentMethodId: string;
        reference: string;
        creditor: CreditorRow;
        debtorName: string;
        debtorNif: string;
        iban: string;
        language: TLanguage;
        signerIp: string;
        userAgent: string;
      },
    ): Promise<void> {
      await sql.query(
        `INSERT INTO sepa_mandates (tenant_id, id, customer_id, payment_method_id, reference,
           creditor_id, creditor_name, creditor_address, debtor_name, debtor_nif, iban, language,
           signer_ip, user_agent, signed_at)
         VALUES (${tenant}, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, clock_timestamp())`,
        [
          m.id,
          m.customerId,
          m.paymentMethodId,
          m.reference,
          m.creditor.sepa_creditor_id,
          m.creditor.name,
          m.creditor.address,
          m.debtorName,
          m.debtorNif,
          m.iban,
          m.language,
          m.signerIp,
          m.userAgent,
        ],
      );
    },
    /** Answers whether this call ended it (false: it was no longer active). */
    async markReplaced(sql: SqlQuery, id: string, replacedBy: string): Promise<boolean> {
      const rows = await sql.query<{ id: string }>(
        `UPDATE sepa_mandates SET status = 'replaced', replaced_by = $2, ended_at = clock_timestamp()
          WHERE tenant_id = ${tenant} AND id = $1 AND status = 'active' RETURNING id`,
        [id, replacedBy],
      );
      return rows.length > 0;
    },
    /**
     * The active mandate of a bank account being deleted ends: nothing is debited from it.
     * Answers the ids this call ended (none when there was no active one).
     */
    async revokeForMethod(sql: SqlQuery, paymentMethodId: string): Promise<string[]> {
      const rows = await sql.query<{ id: string }>(
        `UPDATE sepa_mandates SET status = 'revoked', ended_at = clock_timestamp()
          WHERE tenant_id = ${tenant} AND payment_method_id = $1 AND status = 'active' RETURNING id`,
        [paymentMethodId],
      );
      return rows.map((r) => r.id);
    },
    /** Whether this bank account has an active mandate (read under the customer's lock). */
    async hasActiveForMethod(sql: SqlQuery, paymentMethodId: string): Promise<boolean> {
      const rows = await sql.query<{ id: string }>(
        `SELECT id FROM sepa_mandates WHERE tenant_id = ${tenant} AND payment_method_id = $1
            AND status = 'active'`,
        [paymentMethodId],
      );
      return rows.length > 0;
    },
    listOwn(sql: SqlQuery, customerId: string): Promise<MandateRow[]> {
      return sql.query<MandateRow>(
        `SELECT ${columns} ${from}
          WHERE m.tenant_id = ${tenant} AND m.customer_id = $1
          ORDER BY m.signed_at DESC, m.id DESC
          LIMIT 100`,
        [customerId],
      );
    },
    async findOwn(sql: SqlQuery, customerId: string, id: string): Promise<MandateRow | undefined> {
      const [row] = await sql.query<MandateRow>(
        `SELECT ${columns} ${from}
          WHERE m.tenant_id = ${tenant} AND m.customer_id = $1 AND m.id::text = $2`,
        [customerId, id],
      );
      return row;
    },
    async brand(sql: SqlQuery): Promise<MandateBrandRow | undefined> {
      const [row] = await sql.query<MandateBrandRow>(
        `SELECT company_name, legal_name, legal_nif, legal_address, contact_email, primary_color,
                logo_mime, logo_data
           FROM tenants WHERE id = ${tenant}`,
      );
      return row;
    },
    /** The provider's read side, newest signature first, paged by the id of the last one. */
    listForProvider(
      sql: SqlQuery,
      q: { limit: number; before: string | undefined; status: TSepaMandateStatus | undefined },
    ): Promise<MandateRow[]> {
      return sql.query<MandateRow>(
        `SELECT ${columns} ${from}
          WHERE m.tenant_id = ${tenant}
            AND ($3::text IS NULL OR m.status = $3)
            AND ($2::uuid IS NULL OR (m.signed_at, m.id) < (
                  SELECT signed_at, id FROM sepa_mandates WHERE tenant_id = ${tenant} AND id = $2::uuid))
          ORDER BY m.signed_at DESC, m.id DESC
          LIMIT $1`,
        [q.limit, q.before ?? null, q.status ?? null],
      );
    },
  };
}
