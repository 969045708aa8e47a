import { apiPrefix, type TVisualConfig } from '@portal/contract';
import type { TSignInMethods } from '@portal/contract/admin-sign-in';
import type { Database } from '../../db/database.ts';
import {
  createTenantRepository,
  type TenantLogo,
  type TenantMailRow,
  type TenantRow,
} from './repository.ts';

/** The tenant's logo, under its API prefix (an image: outside the contract's call table). */
export const logoPath = '/logo';

/** The logo's address as the e-mails and the visual configuration link it (`base`: an origin, or ''). */
export const tenantLogoUrl = (base: string, tenantId: string): string =>
  `${base}${apiPrefix(tenantId)}${logoPath}`;

/**
 * The logo of a tenant's e-mails, at an address that changes when the tenant does (as the web
 * app's): served cached for a day, a replaced logo stayed the old one in new e-mails (session 39).
 */
export const mailLogoUrl = (
  base: string,
  tenantId: string,
  tenant: TenantMailRow,
): string | null =>
  tenant.has_logo ? `${tenantLogoUrl(base, tenantId)}?v=${tenant.updated_at.getTime()}` : null;

/** Loads what an e-mail of a tenant needs: its branding, its sender and its canonical URL. */
export async function loadTenantMailInfo(db: Database, tenantId: string): Promise<TenantMailRow> {
  const row = await db.withTenant(tenantId, (sql) =>
    createTenantRepository().findMailInfo(sql, tenantId),
  );
  if (!row) throw new Error(`tenant ${tenantId} vanished`);
  return row;
}

export function createTenantService(db: Database) {
  const repository = createTenantRepository();
  return {
    async getVisualConfig(tenant: TenantRow, logoUrl: string): Promise<TVisualConfig> {
      const providers = await db.withTenant(tenant.id, (sql) =>
        repository.listSignInProviders(sql),
      );
      return {
        logo_url: tenant.has_logo ? `${logoUrl}?v=${tenant.updated_at.getTime()}` : null,
        primary_color: tenant.primary_color,
        company_name: tenant.company_name,
        description: tenant.description,
        sign_in_providers: providers as TVisualConfig['sign_in_providers'],
        sign_in_link: tenant.sign_in_link,
        second_factor: tenant.second_factor,
        passkeys: tenant.passkeys,
        testing_mode: tenant.redsys_environment === 'simulator',
        test_mode: tenant.test_mode || tenant.redsys_environment !== 'production',
        legal: {
          name: tenant.legal_name,
          tax_id: tenant.legal_nif,
          address: tenant.legal_address,
          contact_email: tenant.contact_email,
          privacy_email: tenant.privacy_email,
          dpo_email: tenant.dpo_email,
          phone: tenant.phone,
          website: tenant.website,
          opening_hours: tenant.opening_hours,
        },
        auto_pay: tenant.auto_pay,
      };
    },
    /** The sign-in methods besides the password (integration API, issue 24). */
    async getSignInMethods(tenantId: string): Promise<TSignInMethods> {
      const row = await db.withTenant(tenantId, (sql) => repository.findSignInMethods(sql));
      if (!row) throw new Error(`tenant ${tenantId} vanished`);
      return { link: row.sign_in_link, passkeys: row.passkeys, second_factor: row.second_factor };
    },
    async putSignInMethods(
      tenantId: string,
      values: Partial<TSignInMethods>,
    ): Promise<TSignInMethods> {
      await db.withTenant(tenantId, (sql) => repository.updateSignInMethods(sql, values));
      return this.getSignInMethods(tenantId);
    },
    getLogo(tenantId: string): Promise<TenantLogo | undefined> {
      return db.withTenant(tenantId, (sql) => repository.findLogo(sql, tenantId));
    },
  };
}
