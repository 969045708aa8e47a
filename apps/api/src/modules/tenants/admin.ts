import { readFile as readFileFromDisk } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { deriveOrderKey, isSignatureVersion } from '@portal/redsys';
import { friendlyFormatIBAN } from 'ibantools';
import type { Database, Sql, SqlQuery } from '../../db/database.ts';
import { createSecretBox, type SecretBox } from '../../lib/secret-box.ts';
import { createApiKey, listApiKeys, revokeApiKey, type ApiKeyRow } from '../admin/api-keys.ts';
import {
  checkLogo,
  isLocalHost,
  maxLogoBytes,
  microsoftSharedIssuer,
  parseOption,
  tenantFieldOptions,
  tenantFields,
  trimSecret,
  wellKnownIssuers,
  ZApiKeyName,
  ZCanonicalUrl,
  ZClientId,
  ZIssuer,
  ZSignInProvider,
  ZTenantIdOption,
  ZUuid,
  ZRefundId,
  ZResolvedNote,
  type InputProblem,
} from './admin-input.ts';
import { createPaymentRepository, type RefundRow } from '../payments/repository.ts';
import { tenantFromHostname } from './host.ts';
import { tenantModeProblems } from './payment-mode.ts';
import { createTenantRepository } from './repository.ts';

/**
 * The tenant administration CLI (`npm run admin -- ...`, entry point src/admin-cli.ts): creates and
 * updates tenants, their API keys and their OpenID providers. Every input is checked before the
 * database is touched, so a wrong command line writes nothing. Secrets are read from a file or
 * stdin, never from argv (shell history), and sealed (lib/secret-box.ts) before they are written.
 */

export type AdminIo = {
  /** One line of the command's result (stdout): what a script reads. */
  out: (line: string) => void;
  /** One line of errors, warnings and hints (stderr). */
  err: (line: string) => void;
  readFile?: (path: string) => Promise<Uint8Array>;
  readStdin?: () => Promise<string>;
};

export type AdminDeps = AdminIo & {
  db: Database;
  rootSecret: Buffer;
  /**
   * NODE_ENV=production: a tenant change that a production server would refuse to start with
   * (production-checks.ts) is refused, and nothing is written. Elsewhere it is only a note.
   */
  production?: boolean;
};

/** 0 done; 1 the operation failed (unknown tenant, duplicate id, database); 2 wrong command line. */
export const adminExit = { ok: 0, failed: 1, usage: 2 } as const;

/** A command checked and ready to run against the database. */
export type AdminRunner = (context: {
  db: Database;
  box: SecretBox;
  out: AdminIo['out'];
  err: AdminIo['err'];
  production: boolean;
}) => Promise<number>;

/** An expected failure: its message is shown as is, with its exit code. */
class AdminFailure extends Error {
  constructor(
    message: string,
    readonly exitCode: number = adminExit.failed,
  ) {
    super(message);
  }
}

type Values = Record<string, string | boolean | undefined>;
type OptionTypes = Record<string, { type: 'string' | 'boolean' }>;
type Prepared = AdminRunner | InputProblem[];

type CommandSpec = {
  synopsis: string;
  options: OptionTypes;
  required: readonly string[];
  prepare: (values: Values, io: Required<AdminIo>) => Promise<Prepared>;
};

const string = { type: 'string' } as const;
const boolean = { type: 'boolean' } as const;

const tenantWriteOptions: OptionTypes = {
  id: string,
  url: string,
  ...Object.fromEntries(tenantFieldOptions.map((o) => [o, string])),
  logo: string,
  'redsys-key-file': string,
  'redsys-key-stdin': boolean,
  'test-mode': boolean,
  live: boolean,
};

const commands: Record<string, CommandSpec> = {
  'tenant create': {
    synopsis:
      'tenant create --id <id> --url <https://host> --company-name <name> [fields]\n' +
      '      Creates a tenant. --url is where its portal lives (links in e-mails are built from it).',
    options: tenantWriteOptions,
    required: ['id', 'url', 'company-name'],
    prepare: (values, io) => prepareTenantWrite('create', values, io),
  },
  'tenant update': {
    synopsis:
      'tenant update --id <id> [--url <https://host>] [fields]\n' +
      '      Changes only the fields given.',
    options: tenantWriteOptions,
    required: ['id'],
    prepare: (values, io) => prepareTenantWrite('update', values, io),
  },
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
  'oidc set': {
    synopsis:
      'oidc set --tenant <id> --provider google|apple|microsoft --issuer <url> --client-id <id>\n' +
      '         [--client-secret-file <path> | --client-secret-stdin]\n' +
      '      Adds or replaces a sign-in provider; without a secret option the stored secret stays.',
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
  'overpayments list': {
    synopsis:
      'overpayments list --tenant <id> [--all] [--json]\n' +
      '      Payments that charged for instalments already paid and wait for the operator (automatic\n' +
      '      refunds off, or Redsys refused); --all lists every overpayment and its refund.',
    options: { tenant: string, all: boolean, json: boolean },
    required: ['tenant'],
    prepare: async (values) => {
      const tenant = parseOption('tenant', ZTenantIdOption, values.tenant);
      return tenant.ok
        ? listOverpayments(tenant.value, values.all === true, values.json === true)
        : [tenant.problem];
    },
  },
  'overpayments resolve': {
    synopsis:
      'overpayments resolve --tenant <id> --id <overpayment id> [--note <text>]\n' +
      '      Marks an overpayment waiting for the operator as dealt with (refunded by hand...).',
    options: { tenant: string, id: string, note: string },
    required: ['tenant', 'id'],
    prepare: async (values) => {
      const tenant = parseOption('tenant', ZTenantIdOption, values.tenant);
      const id = parseOption('id', ZRefundId, values.id);
      const note = parseOption('note', ZResolvedNote, values.note ?? '');
      if (!tenant.ok || !id.ok || !note.ok) return problemsOf(tenant, id, note);
      return changeOverpayment('resolve', tenant.value, id.value, note.value);
    },
  },
  'overpayments retry': {
    synopsis:
      'overpayments retry --tenant <id> --id <overpayment id>\n' +
      '      Sends an overpayment waiting for the operator back to Redsys as an automatic refund.',
    options: { tenant: string, id: string },
    required: ['tenant', 'id'],
    prepare: async (values) => {
      const tenant = parseOption('tenant', ZTenantIdOption, values.tenant);
      const id = parseOption('id', ZRefundId, values.id);
      if (!tenant.ok || !id.ok) return problemsOf(tenant, id);
      return changeOverpayment('retry', tenant.value, id.value, '');
    },
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
};

const fieldHelp = `Fields of tenant create and update (an empty value clears an optional field):
  --company-name <text>              --description <text>
  --logo <file>                      SVG, PNG, JPEG or WebP, at most ${maxLogoBytes / 1024} KiB ('' removes it)
  --primary-color <RRGGBB|#RRGGBB>
  --legal-name <text>                --legal-nif <NIF, NIE or CIF>      --legal-address <text>
  --contact-email <address>          --privacy-email <address>          --dpo-email <address>
  --mail-from <"Name <address>">     the sender of the tenant's e-mails
  --bank-iban <IBAN>                 --bank-beneficiary <text>          (for bank transfers)
  --redsys-environment simulator|test|production
  --redsys-merchant-code <9 digits>  --redsys-terminal <1-3 digits>
  --redsys-key-file <path> | --redsys-key-stdin   the merchant's secret key (never on the command line)
  --redsys-signature-versions <HMAC_SHA256_V1,HMAC_SHA512_V2>
  --redsys-pay-methods <codes>       comma-separated Ds_Merchant_PayMethods codes ('' for all)
  --test-mode | --live               test mode: payments go to the simulator or Redsys' test host and
                                     every screen says they are not real; live: Redsys' production
                                     host with the merchant's own code and key. A new tenant is live
                                     unless --test-mode; NODE_ENV=production refuses a tenant whose
                                     mode does not match its gateway.
  --auto-refund on|off               refund overpayments through Redsys (on, the default) or list
                                     them for the operator (overpayments list)`;

const generalUsage = `Tenant administration of the portal.

${Object.values(commands)
  .map((c) => `  npm run admin -- ${c.synopsis}`)
  .join('\n')}
  npm run admin -- help [command]

${fieldHelp}

Exit status: 0 done, 1 failed (nothing changed), 2 wrong command line (nothing written).
The database is DATABASE_URL, or without it the embedded one in DATA_DIR (stop the server first).
See docs/admin-cli.md.`;

const commandUsage = (name: string, spec: CommandSpec): string =>
  `Usage: npm run admin -- ${spec.synopsis}${name.startsWith('tenant create') || name.startsWith('tenant update') ? `\n\n${fieldHelp}` : ''}`;

const helpFlags = new Set(['--help', '-h']);

/** The plain option a secret must never be given as (it would stay in the shell history). */
const secretOnArgv = /^--(redsys-key|redsys-secret-key|client-secret)(=|$)/;

/**
 * Reads and checks the command line (and any file or stdin it names) without touching the
 * database: answers the exit code when there is nothing to run (help, a wrong command line),
 * otherwise the command ready to run.
 */
export async function prepareAdmin(
  argv: readonly string[],
  io: AdminIo,
): Promise<number | AdminRunner> {
  const fullIo: Required<AdminIo> = {
    out: io.out,
    err: io.err,
    readFile: io.readFile ?? readFileFromDisk,
    readStdin: io.readStdin ?? readProcessStdin,
  };
  const [group = '', action = ''] = argv;
  const name = `${group} ${action}`;
  const spec = commands[name];
  const wantsHelp = argv.some((a) => helpFlags.has(a));

  if (group === 'help' || (wantsHelp && !spec)) {
    const topic = group === 'help' ? argv.slice(1, 3).join(' ') : '';
    const about = commands[topic];
    io.out(about ? commandUsage(topic, about) : generalUsage);
    return adminExit.ok;
  }
  if (!spec) {
    io.err(group ? `error: unknown command "${argv.slice(0, 2).join(' ')}"` : 'error: no command');
    io.err('');
    io.err(generalUsage);
    return adminExit.usage;
  }
  if (wantsHelp) {
    io.out(commandUsage(name, spec));
    return adminExit.ok;
  }

  const args = argv.slice(2);
  const secretArg = args.find((a) => secretOnArgv.test(a));
  if (secretArg) {
    const base = secretArg.startsWith('--client') ? 'client-secret' : 'redsys-key';
    io.err(
      `error: ${secretArg.split('=')[0]} is not accepted: a secret on the command line stays in the ` +
        `shell history. Use --${base}-file <path> or --${base}-stdin.`,
    );
    return adminExit.usage;
  }

  let values: Values;
  try {
    values = parseArgs({ args: [...args], options: spec.options, strict: true }).values as Values;
  } catch (error) {
    // Node's messages name the option; their advice about positionals does not apply here.
    const message = error instanceof Error ? (error.message.split('. ')[0] ?? '') : String(error);
    io.err(`error: ${message.replace(/\.$/, '')}`);
    io.err('');
    io.err(commandUsage(name, spec));
    return adminExit.usage;
  }

  const missing = spec.required.filter((o) => values[o] === undefined);
  if (missing.length > 0) {
    for (const o of missing) io.err(`error: --${o} is required`);
    io.err('');
    io.err(commandUsage(name, spec));
    return adminExit.usage;
  }

  const prepared = await spec.prepare(values, fullIo);
  if (typeof prepared === 'function') return prepared;
  for (const p of prepared)
    io.err(p.option ? `error: --${p.option}: ${p.message}` : `error: ${p.message}`);
  io.err('Nothing was written.');
  return adminExit.usage;
}

/** `npm run admin -- <argv>` against `db`: answers the exit code. */
export async function runAdmin(argv: string[], deps: AdminDeps): Promise<number> {
  const prepared = await prepareAdmin(argv, deps);
  return typeof prepared === 'number' ? prepared : runPrepared(prepared, deps);
}

/** Runs a prepared command; a failure is reported on `err` and answered as its exit code. */
export async function runPrepared(run: AdminRunner, deps: AdminDeps): Promise<number> {
  try {
    return await run({
      db: deps.db,
      box: createSecretBox(deps.rootSecret),
      out: deps.out,
      err: deps.err,
      production: deps.production ?? false,
    });
  } catch (error) {
    deps.err(`error: ${error instanceof Error ? error.message : String(error)}`);
    return error instanceof AdminFailure ? error.exitCode : adminExit.failed;
  }
}

async function readProcessStdin(): Promise<string> {
  if (process.stdin.isTTY) {
    process.stderr.write('Paste the secret, then press Enter and Ctrl-D:\n');
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) {
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  }
  return Buffer.concat(chunks).toString('utf8');
}

function problemsOf(
  ...results: ({ ok: true } | { ok: false; problem: InputProblem })[]
): InputProblem[] {
  return results.flatMap((r) => (r.ok ? [] : [r.problem]));
}

/** `--<base>-file <path>` or `--<base>-stdin`: the secret, or what is wrong with it. */
async function readSecretOption(
  base: 'redsys-key' | 'client-secret',
  values: Values,
  io: Required<AdminIo>,
): Promise<{ secret?: string; problem?: InputProblem }> {
  const file = values[`${base}-file`];
  const fromStdin = values[`${base}-stdin`] === true;
  if (typeof file === 'string' && fromStdin) {
    return {
      problem: {
        option: `${base}-file`,
        message: `give --${base}-file or --${base}-stdin, not both`,
      },
    };
  }
  let option: string;
  let raw: string;
  if (typeof file === 'string') {
    option = `${base}-file`;
    try {
      raw = Buffer.from(await io.readFile(file)).toString('utf8');
    } catch (error) {
      return { problem: { option, message: `cannot read ${file} (${errorCode(error)})` } };
    }
  } else if (fromStdin) {
    option = `${base}-stdin`;
    raw = await io.readStdin();
  } else {
    return {};
  }
  const secret = trimSecret(raw);
  if (!secret) return { problem: { option, message: 'the secret is empty' } };
  if (/\s/.test(secret)) {
    return {
      problem: { option, message: 'the secret contains spaces or line breaks: give it alone' },
    };
  }
  return { secret };
}

const errorCode = (error: unknown): string =>
  (error as { code?: unknown }).code ? String((error as { code: unknown }).code) : String(error);

/** Why `key` cannot sign with one of `versions` (Redsys' V1 key is base64 of 24 bytes). */
function redsysKeyProblem(key: string, versions: readonly string[]): string | undefined {
  for (const version of versions) {
    if (!isSignatureVersion(version)) continue;
    try {
      deriveOrderKey(version, key, '0000TEST0000');
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return `the key cannot sign with ${version}: ${reason}`;
    }
  }
  return undefined;
}

type TenantValues = Record<string, unknown>;

async function prepareTenantWrite(
  mode: 'create' | 'update',
  values: Values,
  io: Required<AdminIo>,
): Promise<Prepared> {
  const problems: InputProblem[] = [];
  const row: TenantValues = {};
  const changed: string[] = [];
  const warnings: string[] = [];

  const id = parseOption('id', ZTenantIdOption, values.id);
  if (!id.ok) problems.push(id.problem);

  if (typeof values.url === 'string') {
    const url = parseOption('url', ZCanonicalUrl, values.url);
    if (!url.ok) problems.push(url.problem);
    else {
      row.canonical_url = url.value;
      changed.push('url');
      const hostname = new URL(url.value).hostname;
      const served = tenantFromHostname(new URL(url.value).host);
      if (id.ok && hostname !== 'localhost' && served !== id.value) {
        warnings.push(
          `warning: --url ${url.value} is not tenant ${id.value}'s address: the portal takes the ` +
            `tenant from the first label of the host name, so that address shows tenant "${served}".`,
        );
      }
      if (isLocalHost(hostname)) {
        warnings.push(`warning: --url ${url.value} is a local address: fine for a trial only.`);
      }
    }
  }

  for (const option of tenantFieldOptions) {
    const value = values[option];
    if (typeof value !== 'string') continue;
    const field = tenantFields[option];
    const parsed = parseOption<unknown>(option, field.schema, value);
    if (!parsed.ok) problems.push(parsed.problem);
    else {
      row[field.column] = parsed.value;
      changed.push(option);
    }
  }

  if (typeof values.logo === 'string') {
    changed.push('logo');
    if (values.logo === '') {
      row.logo_mime = null;
      row.logo_data = null;
    } else {
      try {
        const bytes = await io.readFile(values.logo);
        const logo = checkLogo(values.logo, bytes);
        if (!logo.ok) problems.push({ option: 'logo', message: logo.message });
        else {
          row.logo_mime = logo.mime;
          row.logo_data = Buffer.from(bytes);
        }
      } catch (error) {
        problems.push({
          option: 'logo',
          message: `cannot read ${values.logo} (${errorCode(error)})`,
        });
      }
    }
  }

  const key = await readSecretOption('redsys-key', values, io);
  if (key.problem) problems.push(key.problem);
  const versions = row.redsys_signature_versions as string[] | undefined;
  const keyOption =
    typeof values['redsys-key-file'] === 'string' ? 'redsys-key-file' : 'redsys-key-stdin';
  if (key.secret !== undefined) {
    changed.push('redsys-key');
    // A new tenant signs with the column's default (HMAC_SHA256_V1) unless told otherwise; an
    // update without versions is checked against the stored ones when it runs.
    const against = versions ?? (mode === 'create' ? ['HMAC_SHA256_V1'] : undefined);
    const problem = against && redsysKeyProblem(key.secret, against);
    if (problem) problems.push({ option: keyOption, message: problem });
  }

  if (values['test-mode'] === true && values.live === true) {
    problems.push({ option: 'test-mode', message: 'give --test-mode or --live, not both' });
  } else if (values['test-mode'] === true || values.live === true) {
    row.test_mode = values['test-mode'] === true;
    changed.push(row.test_mode ? 'test-mode' : 'live');
  }

  if (mode === 'update' && changed.length === 0 && problems.length === 0) {
    problems.push({ message: 'nothing to change: give at least one field (see --help)' });
  }
  if (problems.length > 0 || !id.ok) return problems;

  const tenantId = id.value;
  const secret = key.secret;
  return async ({ db, box, out, err, production }) => {
    if (secret !== undefined) {
      row.redsys_secret_key = box.seal(secret, { tenantId, field: 'redsys_secret_key' });
    }
    const state = await db.withOwner(async (sql) => {
      if (mode === 'create') {
        const columns = ['id', ...Object.keys(row)];
        const inserted = await sql.query(
          `INSERT INTO tenants (${columns.join(', ')})
           VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})
           ON CONFLICT (id) DO NOTHING RETURNING id`,
          [tenantId, ...Object.values(row)],
        );
        if (inserted.length === 0) {
          throw new AdminFailure(`--id: tenant ${tenantId} already exists (use tenant update)`);
        }
      } else {
        const [current] = await sql.query<{ redsys_signature_versions: string[] }>(
          'SELECT redsys_signature_versions FROM tenants WHERE id = $1 FOR UPDATE',
          [tenantId],
        );
        if (!current) throw new AdminFailure(`--id: no tenant ${tenantId} (see tenant list)`);
        if (secret !== undefined && !versions) {
          const problem = redsysKeyProblem(secret, current.redsys_signature_versions);
          if (problem) {
            throw new AdminFailure(
              `--${keyOption}: ${problem}. Nothing was written.`,
              adminExit.usage,
            );
          }
        }
        const columns = Object.keys(row);
        await sql.query(
          `UPDATE tenants SET ${columns.map((c, i) => `${c} = $${i + 2}`).join(', ')}, updated_at = now()
            WHERE id = $1`,
          [tenantId, ...Object.values(row)],
        );
      }
      // What a production server would refuse to start with: refused here in production (the
      // transaction rolls back), a note elsewhere.
      const paymentMode = await createTenantRepository().findPaymentMode(sql, tenantId);
      if (!paymentMode) throw new Error(`tenant ${tenantId} vanished`);
      const key = paymentMode.redsys_secret_key
        ? box.open(paymentMode.redsys_secret_key, { tenantId, field: 'redsys_secret_key' })
        : null;
      const modeProblems = tenantModeProblems(paymentMode, key);
      if (production && modeProblems.length > 0) {
        throw new AdminFailure(
          [
            ...modeProblems.map((p) => `refused (NODE_ENV=production): ${p}`),
            'Nothing was written.',
          ].join('\n'),
        );
      }
      for (const p of modeProblems)
        warnings.push(`note: a production server refuses to start: ${p}`);
      return readRedsysState(sql, tenantId);
    });

    out(
      mode === 'create'
        ? `Created tenant ${tenantId} at ${String(row.canonical_url)}.`
        : `Updated tenant ${tenantId}: ${changed.join(', ')}.`,
    );
    for (const w of warnings) err(w);
    const parts = [state.has_merchant_code, state.has_terminal, state.has_key];
    const complete = parts.every(Boolean);
    if (!complete && (parts.some(Boolean) || state.redsys_environment !== 'simulator')) {
      err(
        `note: card payments stay off for tenant ${tenantId} until --redsys-merchant-code, ` +
          '--redsys-terminal and the Redsys key (--redsys-key-file) are all set.',
      );
    }
    if (mode === 'create' && state.redsys_environment === 'simulator') {
      err(
        'note: payments go to the local Redsys simulator (the default --redsys-environment); ' +
          'set test or production for Redsys.',
      );
    }
    if (mode === 'update') {
      err('The server caches tenant settings for up to 30 seconds.');
    }
    return adminExit.ok;
  };
}

type RedsysState = {
  redsys_environment: string;
  has_merchant_code: boolean;
  has_terminal: boolean;
  has_key: boolean;
};

async function readRedsysState(sql: SqlQuery, tenantId: string): Promise<RedsysState> {
  const [state] = await sql.query<RedsysState>(
    `SELECT redsys_environment,
            coalesce(redsys_merchant_code, '') <> '' AS has_merchant_code,
            coalesce(redsys_terminal, '') <> '' AS has_terminal,
            coalesce(redsys_secret_key, '') <> '' AS has_key
       FROM tenants WHERE id = $1`,
    [tenantId],
  );
  if (!state) throw new Error(`tenant ${tenantId} vanished`);
  return state;
}

const iso = (value: Date | string | null): string | null =>
  value === null ? null : new Date(value).toISOString();

/** Rows as aligned columns under a header. */
function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

function listTenants(json: boolean): AdminRunner {
  return async ({ db, out, err }) => {
    // Every tenant: the one read row-level security would not allow (the owner path).
    const rows = await db.withOwner((sql) =>
      sql.query<{
        id: string;
        company_name: string;
        canonical_url: string;
        redsys_environment: string;
        test_mode: boolean;
        created_at: Date;
      }>(
        `SELECT id, company_name, canonical_url, redsys_environment, test_mode, created_at
           FROM tenants ORDER BY id`,
      ),
    );
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

/** Fails unless the tenant of the transaction exists. */
async function requireTenant(sql: SqlQuery, tenantId: string): Promise<void> {
  const rows = await sql.query("SELECT 1 FROM tenants WHERE id = current_setting('app.tenant_id')");
  if (rows.length === 0)
    throw new AdminFailure(`--tenant: no tenant ${tenantId} (see tenant list)`);
}

type TenantDetails = {
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
  created_at: Date;
  updated_at: Date;
};

const setOrNot = (isSet: boolean) => (isSet ? 'set' : 'not set');

function showTenant(tenantId: string, json: boolean): AdminRunner {
  return async ({ db, out }) => {
    const { tenant, providers, keys } = await db.withTenant(tenantId, async (sql: Sql) => {
      const [tenant] = await sql.query<TenantDetails>(
        `SELECT id, canonical_url, company_name, description, primary_color, logo_mime,
                octet_length(logo_data) AS logo_bytes, legal_name, legal_nif, legal_address,
                contact_email, privacy_email, dpo_email, mail_from, bank_iban, bank_beneficiary,
                redsys_environment, test_mode, redsys_merchant_code, redsys_terminal,
                coalesce(redsys_secret_key, '') <> '' AS has_redsys_key,
                redsys_signature_versions, redsys_pay_methods, auto_refund, created_at, updated_at
           FROM tenants WHERE id = current_setting('app.tenant_id')`,
      );
      if (!tenant) throw new AdminFailure(`--id: no tenant ${tenantId} (see tenant list)`);
      const providers = await sql.query<{
        provider: string;
        issuer: string;
        client_id: string;
        has_secret: boolean;
      }>(
        `SELECT provider, issuer, client_id, client_secret <> '' AS has_secret
           FROM tenant_sign_in_providers WHERE tenant_id = current_setting('app.tenant_id')
          ORDER BY provider`,
      );
      const [keys] = await sql.query<{ active: number; revoked: number }>(
        `SELECT count(*) FILTER (WHERE revoked_at IS NULL)::int AS active,
                count(*) FILTER (WHERE revoked_at IS NOT NULL)::int AS revoked
           FROM api_keys WHERE tenant_id = current_setting('app.tenant_id')`,
      );
      return { tenant, providers, keys: keys ?? { active: 0, revoked: 0 } };
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
    err(`It authenticates /${tenantId}/api/1.0/admin/... as "Authorization: Bearer <key>".`);
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

const euros = (cents: number): string => (cents / 100).toFixed(2);

const overpaymentJson = (r: RefundRow) => ({
  id: r.id,
  payment_id: r.attempt_id,
  order_number: r.order_number,
  customer_code: r.customer_code,
  paid_cents: r.paid_cents,
  refund_cents: r.amount_cents,
  status: r.status,
  review_reason: r.review_reason,
  attempts: r.attempts,
  last_code: r.last_code,
  authorisation_code: r.ds_authorisation_code,
  resolved_note: r.resolved_note,
  created_at: iso(r.created_at),
  refunded_at: iso(r.refunded_at),
  resolved_at: iso(r.resolved_at),
});

function listOverpayments(tenantId: string, all: boolean, json: boolean): AdminRunner {
  return async ({ db, box, out, err }) => {
    const repository = createPaymentRepository(box);
    const rows = await db.withTenant(tenantId, async (sql) => {
      await requireTenant(sql, tenantId);
      return repository.listRefunds(sql, { all, limit: 1000 });
    });
    if (json) {
      out(JSON.stringify(rows.map(overpaymentJson), null, 2));
      return adminExit.ok;
    }
    if (rows.length === 0) {
      err(
        all
          ? `Tenant ${tenantId} has no overpayments.`
          : `No overpayment of tenant ${tenantId} waits for the operator (--all lists every one).`,
      );
      return adminExit.ok;
    }
    for (const line of table(
      ['ID', 'CREATED', 'ORDER', 'CUSTOMER', 'PAID', 'REFUND', 'STATUS', 'TRIES', 'WHY'],
      rows.map((r) => [
        r.id,
        iso(r.created_at) ?? '-',
        r.order_number,
        r.customer_code,
        euros(r.paid_cents),
        euros(r.amount_cents),
        r.status,
        String(r.attempts),
        [r.review_reason, r.last_code].filter(Boolean).join(' ') || '-',
      ]),
    )) {
      out(line);
    }
    if (!all) {
      err(
        'Refund each one in the Redsys back office (or `overpayments retry` to send it again), ' +
          'then `overpayments resolve`.',
      );
    }
    return adminExit.ok;
  };
}

function changeOverpayment(
  action: 'resolve' | 'retry',
  tenantId: string,
  id: string,
  note: string,
): AdminRunner {
  return async ({ db, box, out }) => {
    const repository = createPaymentRepository(box);
    const row = await db.withTenant(tenantId, async (sql) => {
      await requireTenant(sql, tenantId);
      return action === 'resolve'
        ? repository.resolveRefund(sql, id, note)
        : repository.retryRefund(sql, id);
    });
    if (!row) {
      throw new AdminFailure(
        `--id: tenant ${tenantId} has no overpayment ${id} waiting for the operator (see overpayments list)`,
      );
    }
    out(
      action === 'resolve'
        ? `Resolved overpayment ${id} (order ${row.order_number}, ${euros(row.amount_cents)} EUR).`
        : `Overpayment ${id} (order ${row.order_number}, ${euros(row.amount_cents)} EUR) will be refunded through Redsys.`,
    );
    return adminExit.ok;
  };
}

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
      const before = await sql.query(
        `SELECT 1 FROM tenant_sign_in_providers
          WHERE tenant_id = current_setting('app.tenant_id') AND provider = $1 FOR UPDATE`,
        [provider.value],
      );
      await sql.query(
        `INSERT INTO tenant_sign_in_providers (tenant_id, provider, issuer, client_id, client_secret)
         VALUES (current_setting('app.tenant_id'), $1, $2, $3, coalesce($4::text, ''))
         ON CONFLICT (tenant_id, provider) DO UPDATE
            SET issuer = EXCLUDED.issuer, client_id = EXCLUDED.client_id,
                client_secret = coalesce($4::text, tenant_sign_in_providers.client_secret)`,
        [provider.value, issuer.value, clientId.value, sealed],
      );
      return before.length > 0;
    });
    out(
      `${existed ? 'Updated' : 'Added'} ${provider.value} sign-in for tenant ${tenantId}` +
        `${sealed ? ' (client secret sealed)' : existed ? ' (client secret unchanged)' : ''}.`,
    );
    for (const w of warnings) err(w);
    err(
      `The provider must allow the redirect URI <tenant url>/auth/${provider.value}/callback ` +
        '(see tenant show for the url).',
    );
    return adminExit.ok;
  };
}

function removeProvider(tenantId: string, provider: string): AdminRunner {
  return async ({ db, out }) => {
    const removed = await db.withTenant(tenantId, async (sql) => {
      await requireTenant(sql, tenantId);
      return sql.query(
        `DELETE FROM tenant_sign_in_providers
          WHERE tenant_id = current_setting('app.tenant_id') AND provider = $1 RETURNING provider`,
        [provider],
      );
    });
    if (removed.length === 0) {
      throw new AdminFailure(`--provider: tenant ${tenantId} has no ${provider} sign-in`);
    }
    out(`Removed ${provider} sign-in from tenant ${tenantId}.`);
    return adminExit.ok;
  };
}
