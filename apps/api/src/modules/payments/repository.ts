import type { SecretBox } from '../../lib/secret-box.ts';
import type { SqlQuery } from '../../db/database.ts';
import { unpaidStates } from '../invoices/repository.ts';

export type PayableRow = { id: string; invoice_id: string; amount_cents: number; status: string };

export type AttemptRow = {
  id: string;
  customer_id: string;
  order_number: string;
  merchant_code: string;
  terminal: string;
  amount_cents: number;
  currency: string;
  status: 'pending' | 'paid' | 'failed';
  save_card: boolean;
  language: string;
  kind: 'payment' | 'card_verification';
  card_alias: string;
  created_at: Date;
  settled_at: Date | null;
};

export type TenantGatewayRow = {
  company_name: string;
  canonical_url: string;
  redsys_environment: 'simulator' | 'test' | 'production';
  redsys_merchant_code: string | null;
  redsys_terminal: string | null;
  redsys_secret_key: string | null;
  redsys_signature_versions: string[];
  redsys_pay_methods: string[];
};

const attemptColumns = `id, customer_id, order_number, merchant_code, terminal, amount_cents, currency, status,
  save_card, language, kind, card_alias, created_at, settled_at`;

/** `box` opens the tenant's Redsys key, sealed at rest (lib/secret-box.ts). */
export function createPaymentRepository(box: SecretBox) {
  return {
    async gateway(sql: SqlQuery): Promise<TenantGatewayRow | undefined> {
      const rows = await sql.query<TenantGatewayRow & { id: string }>(
        `SELECT id, company_name, canonical_url, redsys_environment, redsys_merchant_code, redsys_terminal,
                redsys_secret_key, redsys_signature_versions, redsys_pay_methods
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

    /** The customer's instalments named by id, or all of some invoices, locked for this payment. */
    async lockInstalments(
      sql: SqlQuery,
      customerId: string,
      by: { ids: string[] } | { invoices: string[] },
    ): Promise<PayableRow[]> {
      const where =
        'ids' in by ? 'id::text = ANY($2)' : `invoice_id = ANY($2) AND status IN ${unpaidStates}`;
      return sql.query<PayableRow>(
        `SELECT id, invoice_id, amount_cents, status FROM instalments
          WHERE tenant_id = current_setting('app.tenant_id') AND customer_id = $1 AND ${where}
          ORDER BY invoice_id, seq FOR UPDATE`,
        [customerId, 'ids' in by ? by.ids : by.invoices],
      );
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
      },
    ): Promise<{ id: string; created_at: Date }> {
      const rows = await sql.query<{ id: string; created_at: Date }>(
        `INSERT INTO payment_attempts (tenant_id, customer_id, order_number, merchant_code, terminal, amount_cents,
            save_card, payment_method_id, signature_version, language, kind, card_alias)
         VALUES (current_setting('app.tenant_id'), $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id, created_at`,
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
        ],
      );
      const row = rows[0];
      if (!row) throw new Error('insert returned nothing');
      return row;
    },

    async insertItems(sql: SqlQuery, attemptId: string, items: PayableRow[]): Promise<void> {
      for (const item of items) {
        await sql.query(
          `INSERT INTO payment_attempt_items (tenant_id, attempt_id, instalment_id, amount_cents)
           VALUES (current_setting('app.tenant_id'), $1, $2, $3)`,
          [attemptId, item.id, item.amount_cents],
        );
      }
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

    async findOwnAttempt(sql: SqlQuery, customerId: string, id: string) {
      const rows = await sql.query<AttemptRow & { invoices: string[]; card_saved: boolean }>(
        `SELECT a.id, a.customer_id, a.order_number, a.merchant_code, a.terminal, a.amount_cents, a.currency,
                a.status, a.save_card, a.language, a.kind, a.card_alias, a.created_at, a.settled_at,
                coalesce((SELECT array_agg(DISTINCT e.invoice_id ORDER BY e.invoice_id)
                            FROM payment_attempt_items i JOIN instalments e
                              ON e.tenant_id = i.tenant_id AND e.id = i.instalment_id
                           WHERE i.tenant_id = a.tenant_id AND i.attempt_id = a.id), '{}') AS invoices,
                (a.payment_method_id IS NOT NULL AND a.save_card) AS card_saved
           FROM payment_attempts a
          WHERE a.tenant_id = current_setting('app.tenant_id') AND a.customer_id = $1 AND a.id::text = $2`,
        [customerId, id],
      );
      return rows[0];
    },

    async settleAttempt(
      sql: SqlQuery,
      id: string,
      outcome: {
        status: 'paid' | 'failed';
        dsResponse: string | null;
        authorisation: string | null;
        methodId?: string | null;
      },
    ): Promise<void> {
      await sql.query(
        `UPDATE payment_attempts SET status = $2, ds_response = $3, ds_authorisation_code = $4, settled_at = now(),
                payment_method_id = coalesce($5, payment_method_id)
          WHERE tenant_id = current_setting('app.tenant_id') AND id = $1 AND status = 'pending'`,
        [id, outcome.status, outcome.dsResponse, outcome.authorisation, outcome.methodId ?? null],
      );
      await sql.query(
        `UPDATE payment_attempt_items SET active = false WHERE tenant_id = current_setting('app.tenant_id') AND attempt_id = $1`,
        [id],
      );
    },

    /** Marks the attempt's instalments paid; answers how many were still unpaid. */
    async payInstalments(sql: SqlQuery, attemptId: string, paidDate: string): Promise<number> {
      const rows = await sql.query(
        `UPDATE instalments e SET status = 'paid', paid_date = $2, method = 'Tarjeta'
           FROM payment_attempt_items i
          WHERE i.tenant_id = current_setting('app.tenant_id') AND i.attempt_id = $1
            AND e.tenant_id = i.tenant_id AND e.id = i.instalment_id AND e.status IN ${unpaidStates}
          RETURNING e.id`,
        [attemptId, paidDate],
      );
      return rows.length;
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
      },
    ): Promise<string> {
      const rows = await sql.query<{ id: string }>(
        `INSERT INTO payment_methods (tenant_id, customer_id, kind, alias, holder, card_brand, card_masked, card_expiry,
            redsys_reference, status)
         VALUES (current_setting('app.tenant_id'), $1, 'card', $7, $2, $3, $4, $5, $6, 'active') RETURNING id`,
        [
          card.customerId,
          card.holder,
          card.brand,
          card.masked,
          card.expiry,
          card.reference,
          card.alias ?? '',
        ],
      );
      return rows[0]?.id ?? '';
    },

    async insertNotification(
      sql: SqlQuery,
      n: { customerId: string; type: string; title: string; message: string; link: string | null },
    ): Promise<void> {
      await sql.query(
        `INSERT INTO notifications (tenant_id, customer_id, type, title, message, link)
         VALUES (current_setting('app.tenant_id'), $1, $2, $3, $4, $5)`,
        [n.customerId, n.type, n.title, n.message, n.link],
      );
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

    /** Pending attempts older than `minutes`, skipping ones another instance is settling. */
    async stalePending(sql: SqlQuery, minutes: number): Promise<AttemptRow[]> {
      return sql.query<AttemptRow>(
        `SELECT ${attemptColumns} FROM payment_attempts
          WHERE tenant_id = current_setting('app.tenant_id') AND status = 'pending'
            AND created_at < now() - make_interval(mins => $1)
          ORDER BY created_at LIMIT 50 FOR UPDATE SKIP LOCKED`,
        [minutes],
      );
    },
  };
}
export type PaymentRepository = ReturnType<typeof createPaymentRepository>;
