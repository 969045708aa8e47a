import type { TContactRequest } from '@portal/contract';
import type { Sql, SqlQuery } from '../../db/database.ts';

/** The contact form's SQL (`contact_messages`: this module is the table's only writer). */
export function createContactRepository() {
  return {
    async insertMessage(
      sql: Sql,
      customerId: string,
      message: Pick<TContactRequest, 'name' | 'company' | 'subject' | 'message'>,
    ): Promise<string> {
      const [row] = await sql.query<{ id: string }>(
        `INSERT INTO contact_messages (tenant_id, customer_id, name, company, subject, message)
         VALUES (current_setting('app.tenant_id'), $1, $2, $3, $4, $5) RETURNING id`,
        [customerId, message.name, message.company, message.subject, message.message],
      );
      return row?.id ?? '';
    },

    /** Where the customer's copy goes, and in which language. */
    async findSender(
      sql: SqlQuery,
      customerId: string,
    ): Promise<{ email: string; language: string } | undefined> {
      const [who] = await sql.query<{ email: string; language: string }>(
        `SELECT email, language FROM customers WHERE tenant_id = current_setting('app.tenant_id') AND id = $1`,
        [customerId],
      );
      return who;
    },

    /** The tenant's mailbox for messages from its customers ('' when not set). */
    async findTenantMailbox(sql: SqlQuery, tenantId: string): Promise<string | undefined> {
      const rows = await sql.query<{ contact_email: string }>(
        'SELECT contact_email FROM tenants WHERE id = $1',
        [tenantId],
      );
      return rows[0]?.contact_email;
    },
  };
}
