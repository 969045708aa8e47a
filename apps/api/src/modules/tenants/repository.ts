import type { TSecondFactorPolicy } from '@portal/contract';
import type { Sql, SqlQuery } from '../../db/database.ts';

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
  phone: string;
  website: string;
  opening_hours: string;
  /** The operator offers sign-in by an e-mailed link (migration 014). */
  sign_in_link: boolean;
  /** The operator's second-factor policy (migration 015). */
  second_factor: TSecondFactorPolicy;
  /** The operator offers passkeys (migration 016). */
  passkeys: boolean;
  updated_at: Date;
  /** The operator offers auto-pay with a saved card (migration 025). */
  auto_pay: boolean;
};

/** What an e-mail of the tenant needs: its branding, its sender and its canonical URL. */
export type TenantMailRow = {
  company_name: string;
  /** Whether the tenant offers sign-in links (the receipt's button is one, then). */
  sign_in_link: boolean;
  primary_color: string;
  canonical_url: string;
  mail_from: string;
  has_logo: boolean;
  /** When the tenant was last changed: the logo's address in e-mails carries it. */
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

/** A tenant in the admin CLI's `tenant list`. */
export type TenantListRow = {
  id: string;
  company_name: string;
  canonical_url: string;
  redsys_environment: string;
  test_mode: boolean;
  created_at: Date;
};

/** A tenant in the admin CLI's `tenant show`: every setting, secrets only as set or not. */
export type TenantDetails = {
  id: string;
  canonical_url: string;
  company_name: string;
  description: string;
  primary_color: string;
  logo_mime: string | null;
  logo_bytes: number | null;
  legal_name: string;
  legal_nif: string;
  legal_address: string;
  contact_email: string;
  privacy_email: string;
  dpo_email: string;
  phone: string;
  website: string;
  opening_hours: string;
  mail_from: string;
  bank_iban: string;
  bank_beneficiary: string;
  redsys_environment: string;
  test_mode: boolean;
  redsys_merchant_code: string | null;
  redsys_terminal: string | null;
  has_redsys_key: boolean;
  redsys_signature_versions: string[];
  redsys_pay_methods: string[];
  auto_refund: boolean;
  sign_in_link: boolean;
  second_factor: string;
  passkeys: boolean;
  charge_return_fee: boolean;
  auto_pay: boolean;
  auto_pay_notice_days: number;
  auto_pay_retries: number;
  auto_pay_retry_days: number;
  created_at: Date;
  updated_at: Date;
  sepa_creditor_id: string;
};

/** Which parts of the Redsys configuration a tenant has. */
export type RedsysState = {
  redsys_environment: string;
  has_merchant_code: boolean;
  has_terminal: boolean;
  has_key: boolean;
};

/** A sign-in provider of the tenant, its client secret only as set or not. */
export type SignInProviderSummary = {
  provider: string;
  issuer: string;
  client_id: string;
  has_secret: boolean;
};

/**
 * Column values of a tenant write, by column name. The names come from the admin CLI's own table
 * of fields (admin/input.ts), never from input: they are written into the statement as they are.
 */
export type TenantColumns = Record<string, unknown>;

export type SignInMethodsRow = {
  sign_in_link: boolean;
  passkeys: boolean;
  second_factor: TSecondFactorPolicy;
};

/**
 * The tenants module writes `tenants` and `tenant_sign_in_providers` (the admin CLI; the demo seed
 * and the sealing of secrets at start, under db/, are the other writers).
 */
/** A tenant's Redsys merchant as its row stores it (the key sealed). */
export type StoredMerchant = {
  redsys_merchant_code: string | null;
  redsys_terminal: string | null;
  redsys_environment: string;
  redsys_secret_key: string | null;
};

export function createTenantRepository() {
  return {
    async findTenant(sql: SqlQuery, id: string): Promise<TenantRow | undefined> {
      const rows = await sql.query<TenantRow>(
        `SELECT id, company_name, description, primary_color, logo_data IS NOT NULL AS has_logo,
                canonical_url, redsys_environment, test_mode, legal_name, legal_nif, legal_address,
                contact_email, privacy_email, dpo_email, phone, website, opening_hours,
                sign_in_link, second_factor, passkeys, updated_at, auto_pay
           FROM tenants WHERE id = $1`,
        [id],
      );
      return rows[0];
    },
    async findMailInfo(sql: SqlQuery, id: string): Promise<TenantMailRow | undefined> {
      const rows = await sql.query<TenantMailRow>(
        `SELECT company_name, primary_color, canonical_url, mail_from, sign_in_link,
                logo_data IS NOT NULL AS has_logo, updated_at
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
    /** Every tenant's id: a read across tenants, run by the owner (`db.withOwner`). */
    async listIds(sql: SqlQuery): Promise<string[]> {
      const rows = await sql.query<{ id: string }>('SELECT id FROM tenants ORDER BY id');
      return rows.map((r) => r.id);
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

    // ---- The admin CLI (admin/) ----

    /** Whether the tenant of the transaction exists. */
    async exists(sql: SqlQuery): Promise<boolean> {
      const rows = await sql.query(
        "SELECT 1 FROM tenants WHERE id = current_setting('app.tenant_id')",
      );
      return rows.length > 0;
    },
    /** Every tenant: a read across tenants, run by the owner (`db.withOwner`). */
    listAll(sql: SqlQuery): Promise<TenantListRow[]> {
      return sql.query<TenantListRow>(
        `SELECT id, company_name, canonical_url, redsys_environment, test_mode, created_at
           FROM tenants ORDER BY id`,
      );
    },
    /** The tenant of the transaction, every setting. */
    async findDetails(sql: SqlQuery): Promise<TenantDetails | undefined> {
      const [tenant] = await sql.query<TenantDetails>(
        `SELECT id, canonical_url, company_name, description, primary_color, logo_mime,
                octet_length(logo_data) AS logo_bytes, legal_name, legal_nif, legal_address,
                contact_email, privacy_email, dpo_email, phone, website, opening_hours,
                mail_from, bank_iban, bank_beneficiary,
                redsys_environment, test_mode, redsys_merchant_code, redsys_terminal,
                coalesce(redsys_secret_key, '') <> '' AS has_redsys_key,
                redsys_signature_versions, redsys_pay_methods, auto_refund, sign_in_link,
                second_factor, passkeys, charge_return_fee, created_at, updated_at, auto_pay,
                auto_pay_notice_days, auto_pay_retries, auto_pay_retry_days, sepa_creditor_id
           FROM tenants WHERE id = current_setting('app.tenant_id')`,
      );
      return tenant;
    },
    listSignInProviderSummaries(sql: SqlQuery): Promise<SignInProviderSummary[]> {
      return sql.query<SignInProviderSummary>(
        `SELECT provider, issuer, client_id, client_secret <> '' AS has_secret
           FROM tenant_sign_in_providers WHERE tenant_id = current_setting('app.tenant_id')
          ORDER BY provider`,
      );
    },
    /** Creates the tenant `id`; false when the id is taken (nothing written). */
    async insert(sql: Sql, id: string, values: TenantColumns): Promise<boolean> {
      const columns = ['id', ...Object.keys(values)];
      const inserted = await sql.query(
        `INSERT INTO tenants (${columns.join(', ')})
         VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})
         ON CONFLICT (id) DO NOTHING RETURNING id`,
        [id, ...Object.values(values)],
      );
      return inserted.length > 0;
    },
    /** Locks the tenant for an update; answers its signature versions, or undefined when unknown. */
    async lockSignatureVersions(sql: Sql, id: string): Promise<string[] | undefined> {
      const [current] = await sql.query<{ redsys_signature_versions: string[] }>(
        'SELECT redsys_signature_versions FROM tenants WHERE id = $1 FOR UPDATE',
        [id],
      );
      return current?.redsys_signature_versions;
    },
    /** The sign-in methods of the transaction's tenant (the integration API may change them). */
    async findSignInMethods(sql: SqlQuery): Promise<SignInMethodsRow | undefined> {
      const [row] = await sql.query<SignInMethodsRow>(
        `SELECT sign_in_link, passkeys, second_factor FROM tenants
          WHERE id = current_setting('app.tenant_id')`,
      );
      return row;
    },
    async updateSignInMethods(
      sql: Sql,
      values: { link?: boolean; passkeys?: boolean; second_factor?: TSecondFactorPolicy },
    ): Promise<void> {
      await sql.query(
        `UPDATE tenants
            SET sign_in_link = coalesce($1, sign_in_link), passkeys = coalesce($2, passkeys),
                second_factor = coalesce($3, second_factor), updated_at = now()
          WHERE id = current_setting('app.tenant_id')`,
        [values.link ?? null, values.passkeys ?? null, values.second_factor ?? null],
      );
    },
    /** The tenant's Redsys merchant as stored (its key sealed), to compare after an update. */
    async findMerchant(sql: SqlQuery, id: string): Promise<StoredMerchant | undefined> {
      const [row] = await sql.query<StoredMerchant>(
        `SELECT redsys_merchant_code, redsys_terminal, redsys_environment, redsys_secret_key
           FROM tenants WHERE id = $1`,
        [id],
      );
      return row;
    },
    /**
     * Keeps a merchant the tenant no longer uses (migration 032): the checkouts, late
     * authorisations and refunds of its orders are still verified and asked about with it.
     */
    async retireMerchant(
      sql: Sql,
      id: string,
      merchant: { code: string; terminal: string; environment: string; sealedKey: string },
    ): Promise<void> {
      await sql.query(
        `INSERT INTO tenant_retired_merchants
           (tenant_id, merchant_code, terminal, environment, secret_key)
         VALUES ($1, $2, $3, $4, $5)`,
        [id, merchant.code, merchant.terminal, merchant.environment, merchant.sealedKey],
      );
    },
    async update(sql: Sql, id: string, values: TenantColumns): Promise<void> {
      const columns = Object.keys(values);
      await sql.query(
        `UPDATE tenants SET ${columns.map((c, i) => `${c} = $${i + 2}`).join(', ')}, updated_at = now()
          WHERE id = $1`,
        [id, ...Object.values(values)],
      );
    },
    async findRedsysState(sql: SqlQuery, id: string): Promise<RedsysState | undefined> {
      const [state] = await sql.query<RedsysState>(
        `SELECT redsys_environment,
                coalesce(redsys_merchant_code, '') <> '' AS has_merchant_code,
                coalesce(redsys_terminal, '') <> '' AS has_terminal,
                coalesce(redsys_secret_key, '') <> '' AS has_key
           FROM tenants WHERE id = $1`,
        [id],
      );
      return state;
    },
    /** Locks the tenant's configuration of `provider`; answers whether there is one. */
    /** The provider's stored issuer, locked until the transaction ends; undefined: none stored. */
    async lockSignInProvider(sql: Sql, provider: string): Promise<{ issuer: string } | undefined> {
      const before = await sql.query<{ issuer: string }>(
        `SELECT issuer FROM tenant_sign_in_providers
          WHERE tenant_id = current_setting('app.tenant_id') AND provider = $1 FOR UPDATE`,
        [provider],
      );
      return before[0];
    },
    /** Adds or replaces a sign-in provider; a null secret keeps the stored one. */
    async upsertSignInProvider(
      sql: Sql,
      row: { provider: string; issuer: string; clientId: string; sealedSecret: string | null },
    ): Promise<void> {
      await sql.query(
        `INSERT INTO tenant_sign_in_providers (tenant_id, provider, issuer, client_id, client_secret)
         VALUES (current_setting('app.tenant_id'), $1, $2, $3, coalesce($4::text, ''))
         ON CONFLICT (tenant_id, provider) DO UPDATE
            SET issuer = EXCLUDED.issuer, client_id = EXCLUDED.client_id,
                client_secret = coalesce($4::text, tenant_sign_in_providers.client_secret)`,
        [row.provider, row.issuer, row.clientId, row.sealedSecret],
      );
    },
    /** Removes a sign-in provider; answers whether there was one. */
    async deleteSignInProvider(sql: Sql, provider: string): Promise<boolean> {
      const removed = await sql.query(
        `DELETE FROM tenant_sign_in_providers
          WHERE tenant_id = current_setting('app.tenant_id') AND provider = $1 RETURNING provider`,
        [provider],
      );
      return removed.length > 0;
    },
  };
}
