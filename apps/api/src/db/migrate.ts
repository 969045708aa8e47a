import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Database } from './database.ts';
import { installQueue, queueNeedsMigration } from './job-queue.ts';

const migrationsDir = fileURLToPath(new URL('./migrations/', import.meta.url));

/** The release's migrations: read once, they do not change under a running process. */
let files: Promise<string[]> | null = null;
const migrationFiles = (): Promise<string[]> =>
  (files ??= readdir(migrationsDir).then((all) =>
    all.filter((f) => /^\d{3}-[\w-]+\.sql$/.test(f)).sort(),
  ));

/**
 * The migrations of this build that the database has not applied (readiness: an instance whose
 * schema is behind its code is not ready). No table yet: all of them.
 */
export async function pendingMigrations(db: Database): Promise<string[]> {
  const files = await migrationFiles();
  const applied = await db.withOwner(async (sql) => {
    const [table] = await sql.query<{ name: string | null }>(
      `SELECT to_regclass('schema_migrations')::text AS name`,
    );
    if (!table?.name) return new Set<string>();
    const rows = await sql.query<{ version: string }>('SELECT version FROM schema_migrations');
    return new Set(rows.map((r) => r.version));
  });
  const pending = files.filter((f) => !applied.has(f.slice(0, 3)));
  if (await queueNeedsMigration(db)) pending.push(queueMigrationName);
  return pending;
}

/** How a missing or outdated job-queue schema (pg-boss, db/job-queue.ts) is listed as pending. */
export const queueMigrationName = 'pg-boss job queue schema';

/**
 * Applies the numbered plain-SQL migrations not applied yet, each in its own transaction, then
 * installs or migrates the job queue's schema.
 */
export async function migrate(db: Database): Promise<string[]> {
  const files = await migrationFiles();
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
  // The job queue's tables (pg-boss's own versioned schema), after the portal's.
  if (await queueNeedsMigration(db)) {
    await installQueue(db);
    applied.push(queueMigrationName);
  }
  return applied;
}
