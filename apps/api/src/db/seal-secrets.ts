import type { SecretBox } from '../lib/secret-box.ts';
import { isSealed } from '../lib/secret-box.ts';
import type { Database } from './database.ts';

/**
 * Seals every secret still stored in clear (the demo seed, the load generator, rows written by
 * hand or before sealing existed). Runs at start after the migrations; idempotent.
 */
export async function sealPlaintextSecrets(db: Database, box: SecretBox): Promise<number> {
  return db.withOwner(async (sql) => {
    let sealed = 0;
    const tenants = await sql.query<{ id: string; redsys_secret_key: string }>(
      `SELECT id, redsys_secret_key FROM tenants
        WHERE redsys_secret_key IS NOT NULL AND redsys_secret_key <> '' AND redsys_secret_key NOT LIKE 'enc:v1:%'`,
    );
    for (const t of tenants) {
      if (isSealed(t.redsys_secret_key)) continue;
      await sql.query('UPDATE tenants SET redsys_secret_key = $2 WHERE id = $1', [
        t.id,
        box.seal(t.redsys_secret_key, { tenantId: t.id, field: 'redsys_secret_key' }),
      ]);
      sealed += 1;
    }
    const providers = await sql.query<{
      tenant_id: string;
      provider: string;
      client_secret: string;
    }>(
      `SELECT tenant_id, provider, client_secret FROM tenant_sign_in_providers
        WHERE client_secret <> '' AND client_secret NOT LIKE 'enc:v1:%'`,
    );
    for (const p of providers) {
      await sql.query(
        'UPDATE tenant_sign_in_providers SET client_secret = $3 WHERE tenant_id = $1 AND provider = $2',
        [
          p.tenant_id,
          p.provider,
          box.seal(p.client_secret, { tenantId: p.tenant_id, field: 'oidc_client_secret' }),
        ],
      );
      sealed += 1;
    }
    return sealed;
  });
}
