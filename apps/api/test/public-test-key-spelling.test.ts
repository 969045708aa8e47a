import { randomBytes } from 'node:crypto';
import { PUBLIC_TEST_MERCHANT, sign } from '@portal/redsys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { tenantModeProblems } from '../src/modules/tenants/payment-mode.ts';
import type { TenantPaymentMode } from '../src/modules/tenants/repository.ts';
import { adminCommand } from './admin-run.ts';
import { engines } from './engines.ts';

/**
 * README "Run in production" / docs/admin-cli.md: a production server refuses to start, and the CLI
 * run with NODE_ENV=production refuses the change, while a live tenant "uses the public test
 * merchant or its key". The key is compared as a string (payment-mode.ts), but the gateway code
 * reads it as loose base64 (padding optional): `<public key>=` and `<public key>==` are the public
 * test key byte for byte (they sign every notification the same way), and passed both refusals
 * until session 36 (ops review). What the key signs with is compared now.
 */
const publicKey = PUBLIC_TEST_MERCHANT.secretKey;
const respellings = [`${publicKey}=`, `${publicKey}==`];

const liveTenant = (id: string): TenantPaymentMode =>
  ({
    id,
    test_mode: false,
    redsys_environment: 'production',
    redsys_merchant_code: '123456789',
    redsys_secret_key: 'sealed',
  }) as unknown as TenantPaymentMode;

describe('the public Redsys test key, spelled with base64 padding', () => {
  it.each(respellings)('is a start-up problem of a live tenant in production: %s', (key) => {
    // The same key: it signs exactly as the public one, in both signature versions.
    const params = Buffer.from(JSON.stringify({ Ds_Order: '0000TEST0001' })).toString('base64');
    for (const version of PUBLIC_TEST_MERCHANT.allowedVersions)
      expect(sign(version, key, '0000TEST0001', params)).toBe(
        sign(version, publicKey, '0000TEST0001', params),
      );
    expect(tenantModeProblems(liveTenant('acme'), key)).toEqual([
      expect.stringMatching(/^tenant acme: live with Redsys' public test key/),
    ]);
  });
});

describe.each(engines())('the CLI with NODE_ENV=production ($name)', (engine) => {
  let db: Database;
  beforeAll(async () => {
    db = await engine.open();
  });
  afterAll(async () => {
    await db.close();
  });

  it("refuses a live tenant given the public test key with a '=' after it, writing nothing", async () => {
    const admin = adminCommand(db, randomBytes(32), {
      production: true,
      readStdin: async () => `${publicKey}=\n`,
    });
    const run = await admin(
      ...['tenant', 'create', '--id', 'vivo-padded', '--url', 'https://vivo-padded.portal.example'],
      ...['--company-name', 'Club Vivo', '--live', '--redsys-environment', 'production'],
      ...['--redsys-merchant-code', '123456789', '--redsys-terminal', '1', '--redsys-key-stdin'],
    );
    expect(run.err).toContain("tenant vivo-padded: live with Redsys' public test key");
    expect(run.code).toBe(1);
    const rows = await db.withOwner((sql) =>
      sql.query("SELECT id FROM tenants WHERE id = 'vivo-padded'"),
    );
    expect(rows).toEqual([]);
  });
});
