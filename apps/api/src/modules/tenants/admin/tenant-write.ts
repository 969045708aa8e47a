import { deriveOrderKey, isSignatureVersion } from '@portal/redsys';
import { tenantFromHostname } from '../host.ts';
import { tenantModeProblems } from '../payment-mode.ts';
import { createTenantRepository, type StoredMerchant, type TenantColumns } from '../repository.ts';
import type { SecretBox } from '../../../lib/secret-box.ts';
import {
  adminExit,
  AdminFailure,
  boolean,
  errorCode,
  readSecretOption,
  string,
  type AdminIo,
  type CommandSpec,
  type OptionTypes,
  type Prepared,
  type Values,
} from './common.ts';
import {
  checkLogo,
  isLocalHost,
  maxLogoBytes,
  parseOption,
  tenantFieldOptions,
  tenantFields,
  ZCanonicalUrl,
  ZTenantIdOption,
  type InputProblem,
} from './input.ts';

/** `tenant create` and `tenant update`: every field checked before the database is touched. */

const repository = createTenantRepository();

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

export const tenantWriteCommands: Record<string, CommandSpec> = {
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
};

export const fieldHelp = `Fields of tenant create and update (an empty value clears an optional field):
  --company-name <text>              --description <text>
  --logo <file>                      SVG, PNG, JPEG or WebP, at most ${maxLogoBytes / 1024} KiB ('' removes it)
  --primary-color <RRGGBB|#RRGGBB>
  --legal-name <text>                --legal-nif <NIF, NIE or CIF>      --legal-address <text>
  --contact-email <address>          --privacy-email <address>          --dpo-email <address>
  --phone <number>                   --website <https://...>            --opening-hours <text>
                                     how customers reach the organisation (company dialog, contact)
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
                                     them for the operator (overpayments list)
  --sign-in-link on|off              offer sign-in by a link sent by e-mail on the sign-in screen
                                     (on, the default); off also stops the links already sent
  --second-factor off|optional|required
                                     a code from an authenticator app after the password or link:
                                     not offered, each customer's choice (the default), or required
  --passkeys on|off                  offer passkeys on the sign-in screen and the profile (on, the
                                     default); off also refuses the passkeys already added
  --charge-return-fee on|off         a returned direct debit's bank fee is added to what the customer
                                     pays for that instalment (on) or not (off, the default)
  --auto-pay on|off                  let customers have a saved card pay each instalment on its due
                                     date (off, the default; needs Redsys' MIT exemption on the
                                     terminal); off stops every charge not yet sent
  --auto-pay-notice-days <0-30>      e-mail the customer this many days before a charge (3)
  --auto-pay-retries <0-10>          charges retried after a decline (2), every
  --auto-pay-retry-days <1-30>       this many days (2); then the instalment is paid by hand
  --sepa-creditor-id <id>            the SEPA creditor identifier (ES11ZZZB12345674, check digits
                                     verified): customers sign a direct-debit mandate when they add a
                                     bank account; '' turns portal mandates off`;

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

async function prepareTenantWrite(
  mode: 'create' | 'update',
  values: Values,
  io: Required<AdminIo>,
): Promise<Prepared> {
  const problems: InputProblem[] = [];
  const row: TenantColumns = {};
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
        if (!(await repository.insert(sql, tenantId, row))) {
          throw new AdminFailure(`--id: tenant ${tenantId} already exists (use tenant update)`);
        }
      } else {
        const current = await repository.lockSignatureVersions(sql, tenantId);
        if (!current) throw new AdminFailure(`--id: no tenant ${tenantId} (see tenant list)`);
        if (secret !== undefined && !versions) {
          const problem = redsysKeyProblem(secret, current);
          if (problem) {
            throw new AdminFailure(
              `--${keyOption}: ${problem}. Nothing was written.`,
              adminExit.usage,
            );
          }
        }
        const before = await repository.findMerchant(sql, tenantId);
        await repository.update(sql, tenantId, row);
        const after = await repository.findMerchant(sql, tenantId);
        // The merchant it used until now answers for the orders started under it (migration 032).
        const retired = before && after && replacedMerchant(before, after, box, tenantId);
        if (retired) {
          await repository.retireMerchant(sql, tenantId, retired);
          warnings.push(
            `note: the previous Redsys merchant (${retired.code}, terminal ${retired.terminal}) is kept ` +
              'for the payments and refunds of the orders started under it.',
          );
        }
      }
      // What a production server would refuse to start with: refused here in production (the
      // transaction rolls back), a note elsewhere.
      const paymentMode = await repository.findPaymentMode(sql, tenantId);
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
      const state = await repository.findRedsysState(sql, tenantId);
      if (!state) throw new Error(`tenant ${tenantId} vanished`);
      return state;
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

/**
 * The merchant an update replaced, when it had one (code and key) and the update changed its code,
 * terminal, host or key; undefined when it is still the same merchant.
 */
function replacedMerchant(
  before: StoredMerchant,
  after: StoredMerchant,
  box: SecretBox,
  tenantId: string,
): { code: string; terminal: string; environment: string; sealedKey: string } | undefined {
  const { redsys_merchant_code: code, redsys_secret_key: sealedKey } = before;
  if (!code || !sealedKey) return undefined;
  const open = (sealed: string | null) =>
    sealed ? box.open(sealed, { tenantId, field: 'redsys_secret_key' }) : null;
  const same =
    after.redsys_merchant_code === code &&
    after.redsys_terminal === before.redsys_terminal &&
    after.redsys_environment === before.redsys_environment &&
    (after.redsys_secret_key === sealedKey || open(after.redsys_secret_key) === open(sealedKey));
  if (same) return undefined;
  return {
    code,
    terminal: before.redsys_terminal ?? '',
    environment: before.redsys_environment,
    sealedKey,
  };
}
