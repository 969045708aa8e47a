import type { SqlQuery } from '../../db/database.ts';

export type MethodRow = {
  id: string;
  kind: 'card' | 'bank_account' | 'bank_transfer';
  alias: string;
  holder: string;
  status: 'active' | 'inactive' | 'unverified';
  is_main: boolean;
  card_brand: string | null;
  card_masked: string | null;
  card_expiry: string | null;
  iban: string | null;
  nif: string | null;
  entity: string | null;
  created_at: Date;
  pending_request: 'main_change' | 'verification' | null;
  pending_requests: ('main_change' | 'verification')[];
};

const columns = `m.id, m.kind, m.alias, m.holder, m.status, m.is_main, m.card_brand, m.card_masked, m.card_expiry,
  m.iban, m.nif, m.entity, m.created_at,
  (SELECT r.kind FROM payment_method_requests r
    WHERE r.tenant_id = m.tenant_id AND r.payment_method_id = m.id AND r.status = 'pending'
    ORDER BY r.created_at DESC LIMIT 1) AS pending_request,
  ARRAY(SELECT DISTINCT r.kind FROM payment_method_requests r
    WHERE r.tenant_id = m.tenant_id AND r.payment_method_id = m.id AND r.status = 'pending'
    ORDER BY r.kind) AS pending_requests`;

export function createPaymentMethodRepository() {
  return {
    list(sql: SqlQuery, customerId: string): Promise<MethodRow[]> {
      return sql.query<MethodRow>(
        `SELECT ${columns} FROM payment_methods m
          WHERE m.tenant_id = current_setting('app.tenant_id') AND m.customer_id = $1 AND m.deleted_at IS NULL
          ORDER BY m.is_main DESC, m.created_at DESC`,
        [customerId],
      );
    },
    async find(
      sql: SqlQuery,
      customerId: string,
      id: string,
      lock = false,
    ): Promise<MethodRow | undefined> {
      const where = `WHERE m.tenant_id = current_setting('app.tenant_id') AND m.customer_id = $1
            AND m.id::text = $2 AND m.deleted_at IS NULL`;
      // Locked first, read after, in two statements: a statement that waited for the lock reads
      // its subqueries (the method's pending request, its mandate) with the snapshot taken before
      // waiting, so an account was deleted while a request about it was being filed, the request
      // left pending on a deleted method for ever (session 39).
      if (lock) {
        const locked = await sql.query(`SELECT 1 FROM payment_methods m ${where} FOR UPDATE`, [
          customerId,
          id,
        ]);
        if (locked.length === 0) return undefined;
      }
      const rows = await sql.query<MethodRow>(`SELECT ${columns} FROM payment_methods m ${where}`, [
        customerId,
        id,
      ]);
      return rows[0];
    },
    async insertBankAccount(
      sql: SqlQuery,
      a: {
        customerId: string;
        iban: string;
        holder: string;
        nif: string;
        entity: string;
        alias: string;
      },
    ): Promise<string> {
      const rows = await sql.query<{ id: string }>(
        `INSERT INTO payment_methods (tenant_id, customer_id, kind, alias, holder, iban, nif, entity, status)
         VALUES (current_setting('app.tenant_id'), $1, 'bank_account', $2, $3, $4, $5, $6, 'unverified') RETURNING id`,
        [a.customerId, a.alias, a.holder, a.iban, a.nif, a.entity],
      );
      return rows[0]?.id ?? '';
    },
    async update(
      sql: SqlQuery,
      id: string,
      changes: { alias?: string | undefined; holder?: string | undefined },
    ) {
      await sql.query(
        `UPDATE payment_methods SET alias = coalesce($2, alias), holder = coalesce($3, holder)
          WHERE tenant_id = current_setting('app.tenant_id') AND id = $1`,
        [id, changes.alias ?? null, changes.holder ?? null],
      );
    },
    async softDelete(sql: SqlQuery, id: string): Promise<void> {
      await sql.query(
        `UPDATE payment_methods SET deleted_at = now() WHERE tenant_id = current_setting('app.tenant_id') AND id = $1`,
        [id],
      );
    },
    async usedByPendingPayment(sql: SqlQuery, id: string): Promise<boolean> {
      const rows = await sql.query(
        `SELECT 1 FROM payment_attempts WHERE tenant_id = current_setting('app.tenant_id')
            AND payment_method_id = $1 AND status = 'pending' LIMIT 1`,
        [id],
      );
      return rows.length > 0;
    },
    /**
     * Serialises the checks of a customer's caps with the write that follows, to the end of the
     * transaction: two tabs adding at once cannot both take the last place.
     */
    async lockCustomer(sql: SqlQuery, customerId: string): Promise<void> {
      await sql.query(
        `SELECT pg_advisory_xact_lock(hashtextextended('payment-methods:' || current_setting('app.tenant_id') || ':' || $1, 0))`,
        [customerId],
      );
    },
    /** What counts against the caps of customer-limits.ts. */
    /** What counts against the caps; `exceptAttempt`: a card addition that counts itself out. */
    async usage(sql: SqlQuery, customerId: string, exceptAttempt: string | null = null) {
      const rows = await sql.query<{
        methods: number;
        pending_requests: number;
        pending_card_attempts: number;
      }>(
        `SELECT
           (SELECT count(*)::int FROM payment_methods WHERE tenant_id = current_setting('app.tenant_id')
              AND customer_id = $1 AND deleted_at IS NULL) AS methods,
           (SELECT count(*)::int FROM payment_method_requests WHERE tenant_id = current_setting('app.tenant_id')
              AND customer_id = $1 AND status = 'pending') AS pending_requests,
           (SELECT count(*)::int FROM payment_attempts WHERE tenant_id = current_setting('app.tenant_id')
              AND customer_id = $1 AND kind = 'card_verification' AND status = 'pending'
              AND ($2::text IS NULL OR id::text <> $2)) AS pending_card_attempts`,
        [customerId, exceptAttempt],
      );
      return rows[0] ?? { methods: 0, pending_requests: 0, pending_card_attempts: 0 };
    },
    async pendingRequest(sql: SqlQuery, methodId: string, kind: string) {
      const rows = await sql.query<{ id: string; status: 'pending' }>(
        `SELECT id, status FROM payment_method_requests WHERE tenant_id = current_setting('app.tenant_id')
            AND payment_method_id = $1 AND kind = $2 AND status = 'pending' LIMIT 1`,
        [methodId, kind],
      );
      return rows[0];
    },
    async insertRequest(
      sql: SqlQuery,
      r: { customerId: string; methodId: string; kind: string },
    ): Promise<string> {
      const rows = await sql.query<{ id: string }>(
        `INSERT INTO payment_method_requests (tenant_id, customer_id, kind, payment_method_id)
         VALUES (current_setting('app.tenant_id'), $1, $2, $3) RETURNING id`,
        [r.customerId, r.kind, r.methodId],
      );
      return rows[0]?.id ?? '';
    },
    async transferInfo(sql: SqlQuery, customerId: string) {
      const rows = await sql.query<{ bank_iban: string; bank_beneficiary: string; code: string }>(
        `SELECT t.bank_iban, t.bank_beneficiary, c.code FROM tenants t
           JOIN customers c ON c.tenant_id = t.id AND c.id = $1
          WHERE t.id = current_setting('app.tenant_id')`,
        [customerId],
      );
      return rows[0];
    },
  };
}
