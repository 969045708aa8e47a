import type { Database } from '../src/db/database.ts';
import { refreshReuseSeconds } from '../src/modules/auth/repository.ts';

/**
 * Moves every rotation of the tenant's refresh tokens back past the reuse window
 * (`refreshReuseSeconds`): from then on a rotated token that comes back is a stolen copy.
 */
export async function pastReuseWindow(db: Database, tenantId: string): Promise<void> {
  await db.withTenant(tenantId, (sql) =>
    sql.query(
      `UPDATE refresh_tokens SET rotated_at = rotated_at - make_interval(secs => $1)
        WHERE tenant_id = current_setting('app.tenant_id') AND rotated_at IS NOT NULL`,
      [refreshReuseSeconds + 1],
    ),
  );
}
