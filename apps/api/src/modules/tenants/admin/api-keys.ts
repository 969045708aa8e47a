import { createApiKey, listApiKeys, revokeApiKey, type ApiKeyRow } from '../../admin/api-keys.ts';
import { apiPrefix } from '@portal/contract';
import {
  adminExit,
  AdminFailure,
  boolean,
  iso,
  problemsOf,
  requireTenant,
  string,
  table,
  type AdminRunner,
  type CommandSpec,
} from './common.ts';
import { parseOption, ZApiKeyName, ZTenantIdOption, ZUuid } from './input.ts';

/** `api-key create|list|revoke`: the keys of a tenant's provider integration (`/admin/...`). */

export const apiKeyCommands: Record<string, CommandSpec> = {
  'api-key create': {
    synopsis:
      'api-key create --tenant <id> --name <name>\n' +
      '      Prints the new key alone on stdout, the only time it is shown.',
    options: { tenant: string, name: string },
    required: ['tenant', 'name'],
    prepare: async (values) => {
      const tenant = parseOption('tenant', ZTenantIdOption, values.tenant);
      const name = parseOption('name', ZApiKeyName, values.name);
      if (!tenant.ok || !name.ok) return problemsOf(tenant, name);
      return createKey(tenant.value, name.value);
    },
  },
  'api-key list': {
    synopsis: 'api-key list --tenant <id> [--json]',
    options: { tenant: string, json: boolean },
    required: ['tenant'],
    prepare: async (values) => {
      const tenant = parseOption('tenant', ZTenantIdOption, values.tenant);
      return tenant.ok ? listKeys(tenant.value, values.json === true) : [tenant.problem];
    },
  },
  'api-key revoke': {
    synopsis: 'api-key revoke --tenant <id> --id <key id>',
    options: { tenant: string, id: string },
    required: ['tenant', 'id'],
    prepare: async (values) => {
      const tenant = parseOption('tenant', ZTenantIdOption, values.tenant);
      const id = parseOption('id', ZUuid, values.id);
      if (!tenant.ok || !id.ok) return problemsOf(tenant, id);
      return revokeKey(tenant.value, id.value);
    },
  },
};

function createKey(tenantId: string, name: string): AdminRunner {
  return async ({ db, out, err }) => {
    const { key, row } = await db.withTenant(tenantId, async (sql) => {
      await requireTenant(sql, tenantId);
      return createApiKey(sql, name);
    });
    // stdout carries the key alone, so that `$(npm run -s admin -- api-key create ...)` captures it.
    out(key);
    err(`API key ${row.id} "${row.name}" created for tenant ${tenantId}.`);
    err("It is shown only now (only its hash is stored): keep it in the provider's software.");
    err(`It authenticates ${apiPrefix(tenantId)}/admin/... as "Authorization: Bearer <key>".`);
    return adminExit.ok;
  };
}

const keyJson = (k: ApiKeyRow) => ({
  ...k,
  created_at: iso(k.created_at),
  last_used_at: iso(k.last_used_at),
  revoked_at: iso(k.revoked_at),
});

function listKeys(tenantId: string, json: boolean): AdminRunner {
  return async ({ db, out, err }) => {
    const keys = await db.withTenant(tenantId, async (sql) => {
      await requireTenant(sql, tenantId);
      return listApiKeys(sql);
    });
    if (json) {
      out(JSON.stringify(keys.map(keyJson), null, 2));
      return adminExit.ok;
    }
    if (keys.length === 0) {
      err(`Tenant ${tenantId} has no API keys: npm run admin -- api-key create --help`);
      return adminExit.ok;
    }
    const j = keys.map(keyJson);
    for (const line of table(
      ['ID', 'PREFIX', 'CREATED', 'LAST USED', 'STATUS', 'NAME'],
      j.map((k) => [
        k.id,
        `${k.prefix}...`,
        k.created_at ?? '-',
        k.last_used_at ?? 'never',
        k.revoked_at ? `revoked ${k.revoked_at}` : 'active',
        k.name,
      ]),
    )) {
      out(line);
    }
    return adminExit.ok;
  };
}

function revokeKey(tenantId: string, keyId: string): AdminRunner {
  return async ({ db, out }) => {
    const revoked = await db.withTenant(tenantId, async (sql) => {
      await requireTenant(sql, tenantId);
      return revokeApiKey(sql, keyId);
    });
    if (!revoked) {
      throw new AdminFailure(
        `--id: tenant ${tenantId} has no live API key ${keyId} (see api-key list)`,
      );
    }
    out(`Revoked API key ${keyId} of tenant ${tenantId}: it no longer authenticates.`);
    return adminExit.ok;
  };
}
