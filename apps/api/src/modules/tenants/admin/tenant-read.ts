import { friendlyFormatIBAN } from 'ibantools';
import { countApiKeys } from '../../admin/api-keys.ts';
import { createTenantRepository } from '../repository.ts';
import {
  adminExit,
  AdminFailure,
  boolean,
  iso,
  string,
  table,
  type AdminRunner,
  type CommandSpec,
} from './common.ts';
import { parseOption, ZTenantIdOption } from './input.ts';

/** `tenant list` and `tenant show`: what the tenants are set to, secrets only as set or not. */

const repository = createTenantRepository();

export const tenantReadCommands: Record<string, CommandSpec> = {
  'tenant list': {
    synopsis: 'tenant list [--json]',
    options: { json: boolean },
    required: [],
    prepare: async (values) => listTenants(values.json === true),
  },
  'tenant show': {
    synopsis: 'tenant show --id <id> [--json]\n      Secrets show as "set" or "not set".',
    options: { id: string, json: boolean },
    required: ['id'],
    prepare: async (values) => {
      const id = parseOption('id', ZTenantIdOption, values.id);
      return id.ok ? showTenant(id.value, values.json === true) : [id.problem];
    },
  },
};

function listTenants(json: boolean): AdminRunner {
  return async ({ db, out, err }) => {
    // Every tenant: the one read row-level security would not allow (the owner path).
    const rows = await db.withOwner((sql) => repository.listAll(sql));
    if (json) {
      out(
        JSON.stringify(
          rows.map((r) => ({ ...r, created_at: iso(r.created_at) })),
          null,
          2,
        ),
      );
      return adminExit.ok;
    }
    if (rows.length === 0) {
      err('No tenants yet: npm run admin -- tenant create --help');
      return adminExit.ok;
    }
    for (const line of table(
      ['ID', 'URL', 'REDSYS', 'MODE', 'COMPANY'],
      rows.map((r) => [
        r.id,
        r.canonical_url,
        r.redsys_environment,
        r.test_mode ? 'test' : 'live',
        r.company_name,
      ]),
    )) {
      out(line);
    }
    return adminExit.ok;
  };
}

const setOrNot = (isSet: boolean) => (isSet ? 'set' : 'not set');

function showTenant(tenantId: string, json: boolean): AdminRunner {
  return async ({ db, out }) => {
    const { tenant, providers, keys } = await db.withTenant(tenantId, async (sql) => {
      const tenant = await repository.findDetails(sql);
      if (!tenant) throw new AdminFailure(`--id: no tenant ${tenantId} (see tenant list)`);
      const providers = await repository.listSignInProviderSummaries(sql);
      const keys = await countApiKeys(sql);
      return { tenant, providers, keys };
    });

    const { logo_mime, logo_bytes, has_redsys_key, ...fields } = tenant;
    const details = {
      ...fields,
      logo: logo_mime ? { mime: logo_mime, bytes: logo_bytes ?? 0 } : null,
      redsys_secret_key: setOrNot(has_redsys_key),
      sign_in_providers: providers.map(({ has_secret, ...p }) => ({
        ...p,
        client_secret: setOrNot(has_secret),
      })),
      api_keys: keys,
      created_at: iso(tenant.created_at),
      updated_at: iso(tenant.updated_at),
    };
    if (json) {
      out(JSON.stringify(details, null, 2));
      return adminExit.ok;
    }
    const shown = (v: string | null | undefined) => (v ? v : '-');
    const lines: [string, string][] = [
      ['id', tenant.id],
      ['url', tenant.canonical_url],
      ['company-name', tenant.company_name],
      ['description', shown(tenant.description)],
      ['logo', logo_mime ? `${logo_mime}, ${logo_bytes ?? 0} bytes` : 'not set'],
      ['primary-color', `#${tenant.primary_color.replace(/^#/, '')}`],
      ['legal-name', shown(tenant.legal_name)],
      ['legal-nif', shown(tenant.legal_nif)],
      ['legal-address', shown(tenant.legal_address)],
      ['contact-email', shown(tenant.contact_email)],
      ['privacy-email', shown(tenant.privacy_email)],
      ['dpo-email', shown(tenant.dpo_email)],
      ['phone', shown(tenant.phone)],
      ['website', shown(tenant.website)],
      ['opening-hours', shown(tenant.opening_hours)],
      ['mail-from', shown(tenant.mail_from)],
      [
        'bank-iban',
        shown(tenant.bank_iban && (friendlyFormatIBAN(tenant.bank_iban) ?? tenant.bank_iban)),
      ],
      ['bank-beneficiary', shown(tenant.bank_beneficiary)],
      ['redsys-environment', tenant.redsys_environment],
      ['mode', tenant.test_mode ? 'test (payments are not real; the portal says so)' : 'live'],
      ['redsys-merchant-code', shown(tenant.redsys_merchant_code)],
      ['redsys-terminal', shown(tenant.redsys_terminal)],
      ['redsys-key', setOrNot(has_redsys_key)],
      ['redsys-signature-versions', shown(tenant.redsys_signature_versions.join(','))],
      ['redsys-pay-methods', shown(tenant.redsys_pay_methods.join(','))],
      ['auto-refund', tenant.auto_refund ? 'on' : 'off'],
      ['sign-in-link', tenant.sign_in_link ? 'on' : 'off'],
      ['second-factor', tenant.second_factor],
      ['passkeys', tenant.passkeys ? 'on' : 'off'],
      ['charge-return-fee', tenant.charge_return_fee ? 'on' : 'off'],
      [
        'auto-pay',
        tenant.auto_pay
          ? `on (notice ${tenant.auto_pay_notice_days} days, ${tenant.auto_pay_retries} retries every ${tenant.auto_pay_retry_days} days)`
          : 'off',
      ],
      ['sepa-creditor-id', shown(tenant.sepa_creditor_id)],
      ...providers.map((p): [string, string] => [
        `oidc ${p.provider}`,
        `issuer ${p.issuer}, client id ${p.client_id}, client secret ${setOrNot(p.has_secret)}`,
      ]),
      ['api keys', `${keys.active} active, ${keys.revoked} revoked`],
      ['created', details.created_at ?? '-'],
      ['updated', details.updated_at ?? '-'],
    ];
    const width = Math.max(...lines.map(([label]) => label.length));
    for (const [label, value] of lines)
      out(`${label.padEnd(width)}  ${value.replace(/\n/g, '\n' + ' '.repeat(width + 2))}`);
    return adminExit.ok;
  };
}
