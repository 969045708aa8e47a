import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.ts';
import { openPglite, openPostgres, type Database } from './database.ts';

/** The configured database: PostgreSQL when DATABASE_URL is set, else PGlite in the data folder. */
export async function openDatabase(config: Config): Promise<Database> {
  if (config.DATABASE_URL) {
    return openPostgres({
      connectionString: config.DATABASE_URL,
      max: config.DATABASE_POOL_SIZE,
      preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
    });
  }
  mkdirSync(config.DATA_DIR, { recursive: true });
  return openPglite({ dataDir: join(config.DATA_DIR, 'pglite') });
}
