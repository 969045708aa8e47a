import type { TUserProfile } from '@portal/contract';
import type { SqlQuery } from '../../db/database.ts';

export function createCustomerRepository() {
  return {
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
                email, phone, contact_name, invoice_email, invoice_name, payment_method_label AS forma_pago
           FROM customers
          WHERE tenant_id = current_setting('app.tenant_id') AND id = $1 AND (id::text = $2 OR code = $2)`,
        [customerId, ref],
      );
      return rows[0];
    },
  };
}
