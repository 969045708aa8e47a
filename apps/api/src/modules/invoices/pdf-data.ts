import type { Sql } from '../../db/database.ts';
import type { Language } from '../mail/messages.ts';
import type { PdfCustomer, PdfTenant } from './pdf.ts';

export async function loadPdfParties(sql: Sql, customerId: string) {
  const [tenant] = await sql.query<PdfTenant>(
    `SELECT company_name, legal_name, legal_nif, legal_address, contact_email, primary_color, logo_mime, logo_data
       FROM tenants WHERE id = current_setting('app.tenant_id')`,
  );
  const [customer] = await sql.query<PdfCustomer & { language: Language }>(
    `SELECT coalesce(nullif(invoice_name, ''), trim(name || ' ' || last_name)) AS name, nif,
            coalesce(nullif(shipping_address, ''), address) AS address, shipping_cp AS postal_code,
            coalesce(nullif(shipping_city, ''), city) AS city, shipping_province AS province, country,
            coalesce(nullif(invoice_email, ''), email) AS email, language
       FROM customers WHERE tenant_id = current_setting('app.tenant_id') AND id = $1`,
    [customerId],
  );
  return tenant && customer ? { tenant, customer } : undefined;
}
