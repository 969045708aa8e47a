import type { TContactData, TFiscalData, TUserProfile } from '@portal/contract';
import type { TPortalChangedField } from '@portal/contract/admin-ingestion';
import type { SqlQuery } from '../../db/database.ts';

const tenant = "current_setting('app.tenant_id')";

export type ContactChangeRow = {
  id: string;
  customer_code: string;
  changed: Partial<TContactData>;
  changed_at: Date;
};

/** A field the portal changed that the provider may not have yet, with its current value. */
export type PortalChangeRow = {
  customer_id: string;
  code: string;
  field: TPortalChangedField;
  changed_at: Date;
  value: string | null;
};

export function createCustomerRepository() {
  return {
    // ---- Portal changes the provider has not taken yet (migration 029, docs/decisions/035) ----

    /** These fields of the customer changed in the portal now (a later change moves the date). */
    async markPortalChanges(
      sql: SqlQuery,
      customerId: string,
      fields: readonly TPortalChangedField[],
    ): Promise<void> {
      if (fields.length === 0) return;
      await sql.query(
        `INSERT INTO customer_portal_changes (tenant_id, customer_id, field, changed_at)
         SELECT ${tenant}, $1, f, now() FROM unnest($2::text[]) AS f
         ON CONFLICT (tenant_id, customer_id, field) DO UPDATE SET changed_at = EXCLUDED.changed_at`,
        [customerId, fields],
      );
    },

    /**
     * The portal changes of the customers of these codes, each with the field's current value.
     * Those customers stay locked to the end of the transaction: a change the customer saves
     * meanwhile waits for the provider's write instead of being lost under it.
     */
    portalChangesOf(sql: SqlQuery, codes: readonly string[]): Promise<PortalChangeRow[]> {
      if (codes.length === 0) return Promise.resolve([]);
      return sql.query<PortalChangeRow>(
        `WITH locked AS MATERIALIZED (
           SELECT id FROM customers WHERE tenant_id = ${tenant} AND code = ANY($1::text[])
            ORDER BY id FOR UPDATE)
         SELECT p.customer_id, c.code, p.field, p.changed_at, to_jsonb(c) ->> p.field AS value
           FROM locked l
           JOIN customer_portal_changes p ON p.tenant_id = ${tenant} AND p.customer_id = l.id
           JOIN customers c ON c.tenant_id = p.tenant_id AND c.id = p.customer_id`,
        [codes],
      );
    },

    /** The provider has these changes (or overwrote them): they no longer hold its writes back. */
    async settlePortalChanges(
      sql: SqlQuery,
      settled: readonly { customer_id: string; field: TPortalChangedField }[],
    ): Promise<void> {
      if (settled.length === 0) return;
      await sql.query(
        `DELETE FROM customer_portal_changes p
          USING jsonb_to_recordset($1::jsonb) AS s (customer_id uuid, field text)
          WHERE p.tenant_id = ${tenant} AND p.customer_id = s.customer_id AND p.field = s.field`,
        [JSON.stringify(settled)],
      );
    },

    /** The profile of spec §3 "User info", only when `ref` (id or customer code) is the signed-in customer. */
    async findOwnProfile(
      sql: SqlQuery,
      customerId: string,
      ref: string,
    ): Promise<TUserProfile | undefined> {
      const rows = await sql.query<TUserProfile>(
        `SELECT name, last_name AS "lastName", code AS client_id,
                to_char(entry_date, 'YYYY-MM-DD') AS entry_date, nif, address, city, country,
                shipping_cp, shipping_province, shipping_city, shipping_country, shipping_address,
                email, phone, contact_name, invoice_email, invoice_name, payment_method_label AS forma_pago,
                password_hash IS NOT NULL AS has_password
           FROM customers
          WHERE tenant_id = ${tenant} AND id = $1 AND (id::text = $2 OR code = $2)`,
        [customerId, ref],
      );
      return rows[0];
    },

    /** The customer's contact data, locked until the change commits (two tabs saving at once). */
    async lockContactData(sql: SqlQuery, customerId: string): Promise<TContactData | undefined> {
      const rows = await sql.query<TContactData>(
        `SELECT phone, invoice_email, shipping_address, shipping_cp, shipping_city,
                shipping_province, shipping_country
           FROM customers WHERE tenant_id = ${tenant} AND id = $1 FOR UPDATE`,
        [customerId],
      );
      return rows[0];
    },

    async updateContactData(sql: SqlQuery, customerId: string, data: TContactData): Promise<void> {
      await sql.query(
        `UPDATE customers
            SET phone = $2, invoice_email = $3, shipping_address = $4, shipping_cp = $5,
                shipping_city = $6, shipping_province = $7, shipping_country = $8, updated_at = now()
          WHERE tenant_id = ${tenant} AND id = $1`,
        [
          customerId,
          data.phone,
          data.invoice_email,
          data.shipping_address,
          data.shipping_cp,
          data.shipping_city,
          data.shipping_province,
          data.shipping_country,
        ],
      );
    },

    /** Keeps a change (only the fields it changed) for the provider to read; answers its id. */
    async insertContactChange(
      sql: SqlQuery,
      customerId: string,
      changed: Partial<TContactData>,
    ): Promise<string> {
      const rows = await sql.query<{ id: string }>(
        `INSERT INTO customer_contact_changes (tenant_id, customer_id, changed)
         VALUES (${tenant}, $1, $2::jsonb) RETURNING id`,
        [customerId, JSON.stringify(changed)],
      );
      const id = rows[0]?.id;
      if (!id) throw new Error('contact change not written');
      return id;
    },

    /** The tenant's changes, newest first, `limit` of them after the change `before`. */
    async listContactChanges(
      sql: SqlQuery,
      q: { limit: number; before: string | undefined },
    ): Promise<ContactChangeRow[]> {
      return sql.query<ContactChangeRow>(
        `SELECT h.id, c.code AS customer_code, h.changed, h.changed_at
           FROM customer_contact_changes h
           JOIN customers c ON c.tenant_id = h.tenant_id AND c.id = h.customer_id
          WHERE h.tenant_id = ${tenant}
            AND ($2::uuid IS NULL OR (h.changed_at, h.id) < (
                  SELECT changed_at, id FROM customer_contact_changes
                   WHERE tenant_id = ${tenant} AND id = $2::uuid))
          ORDER BY h.changed_at DESC, h.id DESC
          LIMIT $1`,
        [q.limit, q.before ?? null],
      );
    },

    /**
     * The customer's fiscal data (the profile's fiscal card), locked until the transaction ends:
     * a request and a decision about the same customer take their turns.
     */
    async lockFiscalData(sql: SqlQuery, customerId: string): Promise<TFiscalData | undefined> {
      const rows = await sql.query<TFiscalData>(
        `SELECT invoice_name, nif, address, city, country
           FROM customers WHERE tenant_id = ${tenant} AND id = $1 FOR UPDATE`,
        [customerId],
      );
      return rows[0];
    },

    async updateFiscalData(sql: SqlQuery, customerId: string, data: TFiscalData): Promise<void> {
      await sql.query(
        `UPDATE customers
            SET invoice_name = $2, nif = $3, address = $4, city = $5, country = $6,
                updated_at = now()
          WHERE tenant_id = ${tenant} AND id = $1`,
        [customerId, data.invoice_name, data.nif, data.address, data.city, data.country],
      );
    },
  };
}
