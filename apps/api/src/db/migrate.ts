import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Database } from './database.ts';

const migrationsDir = fileURLToPath(new URL('./migrations/', import.meta.url));

/** Applies the numbered plain-SQL migrations not applied yet, each in its own transaction. */
export async function migrate(db: Database): Promise<string[]> {
  const files = (await readdir(migrationsDir)).filter((f) => /^\d{3}-[\w-]+\.sql$/.test(f)).sort();
  const applied: string[] = [];
  for (const file of files) {
    const version = file.slice(0, 3);
    const script = await readFile(migrationsDir + file, 'utf8');
    const done = await db.withOwner(async (sql) => {
      // Several API instances may start at once against one server: one migrates, the others wait.
      await sql.query('SELECT pg_advisory_xact_lock(7001001)');
      await sql.exec(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const rows = await sql.query('SELECT 1 FROM schema_migrations WHERE version = $1', [version]);
      if (rows.length > 0) return false;
      await sql.exec(script);
      await sql.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        version,
        file,
      ]);
      return true;
    });
    if (done) applied.push(file);
  }
  return applied;
}
