import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import type { SecretBox } from './lib/secret-box.ts';
import { tenantModeProblems } from './modules/tenants/payment-mode.ts';
import { createTenantRepository, type TenantPaymentMode } from './modules/tenants/repository.ts';

/**
 * Production mode (`NODE_ENV=production`) only ADDS refusals: the server does not start while the
 * set-up could lose money or accounts, and says why, one line per problem, all of them at once.
 * Nothing here turns a protection on or off; those hold in every mode.
 */

/** `openssl rand -base64 32`: what every APP_SECRET line suggests. */
const generate = 'generate one with `openssl rand -base64 32`';

/**
 * APP_SECRET values published in this repository (the benchmark's servers use this one): anyone
 * who read them could sign sessions and open the sealed secrets.
 */
export const publishedAppSecrets: readonly string[] = [
  Buffer.from('portal-bench-app-secret-not-for-production!').toString('base64'),
];

const base64 =
  /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;

/**
 * Why APP_SECRET cannot be production's root secret, or null. Beyond the format and the length, a
 * secret is refused when it is a published value, or is not random: every byte the same (all
 * zeros), few distinct bytes (a repeated pattern), or only printable characters (a pass phrase,
 * base64-encoded). 32 random bytes are all printable with a probability of about 1e-14.
 */
export function appSecretProblem(value: string | undefined): string | null {
  if (!value) return `APP_SECRET is not set: ${generate}.`;
  if (!base64.test(value)) return `APP_SECRET is not base64: ${generate}.`;
  const bytes = Buffer.from(value, 'base64');
  if (bytes.length < 32) {
    return `APP_SECRET holds ${bytes.length} bytes, at least 32 are needed: ${generate}.`;
  }
  if (publishedAppSecrets.includes(value)) {
    return `APP_SECRET is a value published in this repository (the benchmark's): ${generate}.`;
  }
  if (new Set(bytes).size < 16) {
    return `APP_SECRET is not random (the same few bytes repeated): ${generate}.`;
  }
  if (bytes.every((b) => b >= 0x20 && b < 0x7f)) {
    return `APP_SECRET is readable text, not random bytes: ${generate}.`;
  }
  return null;
}

/** A host on this machine only (a trial of production mode: tests, `docker compose up` locally). */
function isLoopback(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    /^127(?:\.\d{1,3}){3}$/.test(hostname) ||
    hostname === '[::1]'
  );
}

/**
 * Why PUBLIC_URL cannot be production's address, or null. Customers' links, the gateway's
 * notifications (NOTIFICATION_URL's default) and the Secure flag of the session cookies come from
 * it: unset, they pointed at http://localhost and the cookies went without Secure; plain http on a
 * public host sends the refresh cookie in clear. A loopback host (a trial on this machine) may be
 * http (session 37).
 */
export function publicUrlProblem(value: string | undefined): string | null {
  if (!value)
    return 'PUBLIC_URL is not set: production needs the https:// address customers and Redsys reach (links in e-mails, payment notifications and Secure cookies come from it).';
  const url = new URL(value);
  if (url.protocol !== 'https:' && !isLoopback(url.hostname))
    return `PUBLIC_URL is ${url.protocol}//${url.host}: production is served over https (the session cookies are Secure only then); only a loopback host may be http.`;
  return null;
}

/** What the environment lacks or holds that production must not run with; one line each. */
export function configProblems(config: Config): string[] {
  const problems: string[] = [];
  if (!config.DATABASE_URL) {
    problems.push(
      'DATABASE_URL is not set: production runs on PostgreSQL (the embedded database is for the demo and development).',
    );
  }
  const secret = appSecretProblem(config.APP_SECRET);
  if (secret) problems.push(secret);
  const publicUrl = publicUrlProblem(config.PUBLIC_URL);
  if (publicUrl) problems.push(publicUrl);
  if (!config.SMTP_URL) {
    problems.push(
      "SMTP_URL is not set: production sends e-mail through an SMTP server (the local outbox folder reaches nobody's inbox).",
    );
  }
  if (config.SEED_DEMO === true) {
    problems.push('SEED_DEMO=true: the demo data (known passwords) is never loaded in production.');
  }
  if (config.REDSYS_SIMULATOR === true) {
    problems.push(
      "REDSYS_SIMULATOR=true: the local Redsys simulator does not run in production (a tenant in test mode uses Redsys' test host).",
    );
  }
  if (Object.keys(config.DEMO_SIGN_IN_PROVIDERS).length > 0) {
    problems.push(
      'DEMO_SIGN_IN_PROVIDERS is set: it configures the demo seed only (production sets providers with `npm run admin -- oidc set`).',
    );
  }
  return problems;
}

/** The tenant's Redsys key in clear, or why it cannot be read (without a box it is not read). */
function openKey(
  tenant: TenantPaymentMode,
  box: SecretBox | null,
): { key: string | null } | { problem: string } {
  if (!tenant.redsys_secret_key || !box) return { key: null };
  try {
    return {
      key: box.open(tenant.redsys_secret_key, { tenantId: tenant.id, field: 'redsys_secret_key' }),
    };
  } catch (error) {
    return { problem: `tenant ${tenant.id}: ${error instanceof Error ? error.message : error}.` };
  }
}

/**
 * Every tenant's problems (a read across tenants, by the owner: see `listPaymentModes`). Without
 * `box` (APP_SECRET unusable, already a problem of its own) the keys are not compared.
 */
export async function tenantProblems(db: Database, box: SecretBox | null): Promise<string[]> {
  const repository = createTenantRepository();
  const tenants = await db.withOwner((sql) => repository.listPaymentModes(sql));
  return tenants.flatMap((tenant) => {
    const opened = openKey(tenant, box);
    return 'problem' in opened
      ? [opened.problem, ...tenantModeProblems(tenant, null)]
      : tenantModeProblems(tenant, opened.key);
  });
}

/** The refusal as the operator reads it: a heading, then one line per problem. */
export function refusalText(problems: readonly string[]): string {
  return [
    `The server refuses to start in production (NODE_ENV=production): ${problems.length} problem${problems.length === 1 ? '' : 's'}.`,
    ...problems.map((p) => `  - ${p}`),
    'See "Run in production" in README.md.',
  ].join('\n');
}
