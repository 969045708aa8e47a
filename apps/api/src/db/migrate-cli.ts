import { loadConfig } from '../config.ts';
import { migrate } from './migrate.ts';
import { openDatabase } from './open.ts';

/** `npm run db:migrate`: applies pending migrations to DATABASE_URL (or the embedded database). */
async function main() {
  const config = loadConfig();
  const db = await openDatabase(config);
  try {
    const applied = await migrate(db);
    console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'The database is up to date.');
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
