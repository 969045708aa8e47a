import type { Database } from '../database.ts';
import { seedDemo, type DemoSignInProviders } from './demo.ts';

/** Fills an empty database with the demo data; a database with any tenant is left alone. */
export async function seedIfEmpty(
  db: Database,
  publicUrl: string,
  signInProviders: DemoSignInProviders = {},
): Promise<boolean> {
  return db.withOwner(async (sql) => {
    await sql.query('SELECT pg_advisory_xact_lock(7001002)');
    const rows = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM tenants');
    if ((rows[0]?.n ?? 0) > 0) return false;
    await seedDemo(sql, { publicUrl, signInProviders });
    return true;
  });
}
