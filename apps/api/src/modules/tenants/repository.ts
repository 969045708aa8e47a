import type { SqlQuery } from '../../db/database.ts';

export type TenantRow = {
  id: string;
  company_name: string;
  description: string;
  primary_color: string;
  has_logo: boolean;
  canonical_url: string;
  redsys_environment: string;
  /** The operator put the tenant in test mode (migration 009): payments are not real. */
  test_mode: boolean;
  /** The company behind the portal, for the legal pages ('' when not set). */
  legal_name: string;
  legal_nif: string;
  legal_address: string;
  contact_email: string;
  privacy_email: string;
  dpo_email: string;
  updated_at: Date;
};

export type TenantLogo = { mime: string; data: Uint8Array; updated_at: Date };

/** How a tenant takes card payments: what the production checks look at (production-checks.ts). */
export type TenantPaymentMode = {
  id: string;
  test_mode: boolean;
  redsys_environment: 'simulator' | 'test' | 'production';
  redsys_merchant_code: string | null;
  /** As stored: sealed (lib/secret-box.ts), or in clear until the next start seals it. */
  redsys_secret_key: string | null;
};

export function createTenantRepository() {
  return {
    async findTenant(sql: SqlQuery, id: string): Promise<TenantRow | undefined> {
      const rows = await sql.query<TenantRow>(
        `SELECT id, company_name, description, primary_color, logo_data IS NOT NULL AS has_logo,
                canonical_url, redsys_environment, test_mode, legal_name, legal_nif, legal_address,
                contact_email, privacy_email, dpo_email, updated_at
           FROM tenants WHERE id = $1`,
        [id],
      );
      return rows[0];
    },
    async findLogo(sql: SqlQuery, id: string): Promise<TenantLogo | undefined> {
      const rows = await sql.query<TenantLogo>(
        'SELECT logo_mime AS mime, logo_data AS data, updated_at FROM tenants WHERE id = $1 AND logo_data IS NOT NULL',
        [id],
      );
      return rows[0];
    },
    /** Every tenant's payment mode: a read across tenants, run by the owner (`db.withOwner`). */
    async listPaymentModes(sql: SqlQuery): Promise<TenantPaymentMode[]> {
      return sql.query<TenantPaymentMode>(
        `SELECT id, test_mode, redsys_environment, redsys_merchant_code, redsys_secret_key
           FROM tenants ORDER BY id`,
      );
    },
    /** One tenant's payment mode (the admin CLI, after a change, under the owner's transaction). */
    async findPaymentMode(sql: SqlQuery, id: string): Promise<TenantPaymentMode | undefined> {
      const rows = await sql.query<TenantPaymentMode>(
        `SELECT id, test_mode, redsys_environment, redsys_merchant_code, redsys_secret_key
           FROM tenants WHERE id = $1`,
        [id],
      );
      return rows[0];
    },
    async listSignInProviders(sql: SqlQuery): Promise<string[]> {
      const rows = await sql.query<{ provider: string }>(
        'SELECT provider FROM tenant_sign_in_providers ORDER BY provider',
      );
      return rows.map((r) => r.provider);
    },
  };
}
export type TenantRepository = ReturnType<typeof createTenantRepository>;
