import { appPaths } from '@portal/contract/app-paths';
import { createTenantRepository } from '../repository.ts';
import {
  adminExit,
  AdminFailure,
  boolean,
  problemsOf,
  readSecretOption,
  requireTenant,
  string,
  type AdminIo,
  type AdminRunner,
  type CommandSpec,
  type Prepared,
  type Values,
} from './common.ts';
import {
  microsoftSharedIssuer,
  parseOption,
  wellKnownIssuers,
  ZClientId,
  ZIssuer,
  ZSignInProvider,
  ZTenantIdOption,
} from './input.ts';

/** `oidc set|remove`: a tenant's OpenID sign-in providers, client secrets sealed at rest. */

const repository = createTenantRepository();

/** Keyed by command, like the other subjects' tables (cli.ts lists `oidc remove` last). */
export const oidcCommands = {
  'oidc set': {
    synopsis:
      'oidc set --tenant <id> --provider google|apple|microsoft --issuer <url> --client-id <id>\n' +
      '         [--client-secret-file <path> | --client-secret-stdin]\n' +
      '      Adds or replaces a sign-in provider; without a secret option the stored secret stays\n' +
      '      (a new issuer needs its own secret).',
    options: {
      tenant: string,
      provider: string,
      issuer: string,
      'client-id': string,
      'client-secret-file': string,
      'client-secret-stdin': boolean,
    },
    required: ['tenant', 'provider', 'issuer', 'client-id'],
    prepare: prepareOidcSet,
  },
  'oidc remove': {
    synopsis: 'oidc remove --tenant <id> --provider google|apple|microsoft',
    options: { tenant: string, provider: string },
    required: ['tenant', 'provider'],
    prepare: async (values) => {
      const tenant = parseOption('tenant', ZTenantIdOption, values.tenant);
      const provider = parseOption('provider', ZSignInProvider, values.provider);
      if (!tenant.ok || !provider.ok) return problemsOf(tenant, provider);
      return removeProvider(tenant.value, provider.value);
    },
  },
} satisfies Record<string, CommandSpec>;

async function prepareOidcSet(values: Values, io: Required<AdminIo>): Promise<Prepared> {
  const tenant = parseOption('tenant', ZTenantIdOption, values.tenant);
  const provider = parseOption('provider', ZSignInProvider, values.provider);
  const issuer = parseOption('issuer', ZIssuer, values.issuer);
  const clientId = parseOption('client-id', ZClientId, values['client-id']);
  const problems = problemsOf(tenant, provider, issuer, clientId);
  const secret = await readSecretOption('client-secret', values, io);
  if (secret.problem) problems.push(secret.problem);
  const warnings: string[] = [];
  if (provider.ok && issuer.ok) {
    if (provider.value === 'microsoft' && microsoftSharedIssuer.test(issuer.value)) {
      problems.push({
        option: 'issuer',
        message:
          "Microsoft needs the directory's own issuer, https://login.microsoftonline.com/<directory id>/v2.0 " +
          '(common, organizations and consumers do not pin who may sign in)',
      });
    }
    const expected = wellKnownIssuers[provider.value];
    if (expected && issuer.value.replace(/\/$/, '') !== expected) {
      warnings.push(
        `warning: ${provider.value} signs in with the issuer ${expected}, not ${issuer.value}`,
      );
    }
  }
  if (problems.length > 0 || !tenant.ok || !provider.ok || !issuer.ok || !clientId.ok) {
    return problems;
  }
  const tenantId = tenant.value;
  return async ({ db, box, out, err }) => {
    const sealed =
      secret.secret === undefined
        ? null
        : box.seal(secret.secret, { tenantId, field: 'oidc_client_secret' });
    const existed = await db.withTenant(tenantId, async (sql) => {
      await requireTenant(sql, tenantId);
      const existed = await repository.lockSignInProvider(sql, provider.value);
      // A client secret is the issuer's: kept for another issuer, it would be sent to that other
      // party's token endpoint at the next sign-in.
      if (existed && !sealed && !sameIssuer(existed.issuer, issuer.value))
        throw new AdminFailure(
          `--issuer: ${provider.value} had the issuer ${existed.issuer}; a new issuer needs its own ` +
            'client secret (--client-secret-file or --client-secret-stdin)',
          adminExit.usage,
        );
      await repository.upsertSignInProvider(sql, {
        provider: provider.value,
        issuer: issuer.value,
        clientId: clientId.value,
        sealedSecret: sealed,
      });
      return existed;
    });
    out(
      `${existed ? 'Updated' : 'Added'} ${provider.value} sign-in for tenant ${tenantId}` +
        `${sealed ? ' (client secret sealed)' : existed ? ' (client secret unchanged)' : ''}.`,
    );
    for (const w of warnings) err(w);
    err(
      `The provider must allow the redirect URI <tenant url>${appPaths.authCallback.href(provider.value)} ` +
        '(see tenant show for the url).',
    );
    return adminExit.ok;
  };
}

/** Two issuers are the same but for a trailing slash. */
const sameIssuer = (a: string, b: string): boolean => a.replace(/\/$/, '') === b.replace(/\/$/, '');

function removeProvider(tenantId: string, provider: string): AdminRunner {
  return async ({ db, out }) => {
    const removed = await db.withTenant(tenantId, async (sql) => {
      await requireTenant(sql, tenantId);
      return repository.deleteSignInProvider(sql, provider);
    });
    if (!removed) {
      throw new AdminFailure(`--provider: tenant ${tenantId} has no ${provider} sign-in`);
    }
    out(`Removed ${provider} sign-in from tenant ${tenantId}.`);
    return adminExit.ok;
  };
}
