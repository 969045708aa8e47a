import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { Database } from './database.ts';
import { installQueue, queueNeedsMigration } from './job-queue.ts';

const migrationsDir = fileURLToPath(new URL('./migrations/', import.meta.url));

/** The numbered migrations of a folder, in the order they apply. */
const migrationsIn = async (dir: string): Promise<string[]> =>
  (await readdir(dir)).filter((f) => /^\d{3}-[\w-]+\.sql$/.test(f)).sort();

/** The release's migrations: read once, they do not change under a running process. */
let files: Promise<string[]> | null = null;
const migrationFiles = (): Promise<string[]> => (files ??= migrationsIn(migrationsDir));

/** The versions of the migrations the database has, none before the first. */
async function appliedVersions(db: Database): Promise<Set<string>> {
  return db.withOwner(async (sql) => {
    const [table] = await sql.query<{ name: string | null }>(
      `SELECT to_regclass('schema_migrations')::text AS name`,
    );
    if (!table?.name) return new Set<string>();
    const rows = await sql.query<{ version: string }>('SELECT version FROM schema_migrations');
    return new Set(rows.map((r) => r.version));
  });
}

/**
 * The migrations of this build that the database has not applied (readiness: an instance whose
 * schema is behind its code is not ready). No table yet: all of them.
 */
export async function pendingMigrations(db: Database): Promise<string[]> {
  const files = await migrationFiles();
  const applied = await appliedVersions(db);
  const pending = files.filter((f) => !applied.has(f.slice(0, 3)));
  if (await queueNeedsMigration(db)) pending.push(queueMigrationName);
  return pending;
}

/** How a missing or outdated job-queue schema (pg-boss, db/job-queue.ts) is listed as pending. */
export const queueMigrationName = 'pg-boss job queue schema';

export type MigrateOptions = {
  /** The folder of the migrations: the release's own unless a test gives another. */
  dir?: string;
  /** How long a statement of a migration waits for a table's lock before the attempt ends. */
  lockTimeoutMs?: number;
  /** Attempts of a migration whose lock was not granted in time, before the run fails. */
  attempts?: number;
  /** The pause between two tries of the migrators' lock, and after an attempt that timed out. */
  retryMs?: number;
};

/** The first line of a migration that runs outside a transaction (concurrent index builds). */
export const noTransactionHeader = '-- migrate: no-transaction';

/** The one advisory lock every migrator takes, whichever kind of migration it runs. */
const migrationLock = 7001001;
/** PostgreSQL's lock_not_available: `lock_timeout` ran out. */
const lockNotAvailable = '55P03';

const createIndexConcurrently =
  /^CREATE\s+(?:UNIQUE\s+)?INDEX\s+CONCURRENTLY\s+IF\s+NOT\s+EXISTS\s+([a-z_][a-z0-9_]*)\s+ON\s/i;
const dropIndexConcurrently = /^DROP\s+INDEX\s+CONCURRENTLY\s+IF\s+EXISTS\s+([a-z_][a-z0-9_]*)$/i;

type IndexStatement = { text: string; index: string; builds: boolean };

/**
 * The statements of a migration that runs outside a transaction. Only concurrent index builds and
 * drops, each idempotent (`IF NOT EXISTS`, `IF EXISTS`), may: a statement that commits on its own
 * and fails half way must be safe to run again. Anything else is refused before one runs.
 */
export function indexStatements(file: string, script: string): IndexStatement[] {
  const text = script
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('--'))
    .join('\n');
  const statements = text
    .split(';')
    .map((t) => t.trim().replace(/\s+/g, ' '))
    .filter(Boolean);
  if (statements.length === 0) throw new Error(`${file}: no statement`);
  return statements.map((statement) => {
    const build = createIndexConcurrently.exec(statement);
    const drop = dropIndexConcurrently.exec(statement);
    const index = build?.[1] ?? drop?.[1];
    if (!index)
      throw new Error(
        `${file} runs outside a transaction (${noTransactionHeader}), where only ` +
          `CREATE INDEX CONCURRENTLY IF NOT EXISTS and DROP INDEX CONCURRENTLY IF EXISTS may stand; ` +
          `this may not: ${statement.slice(0, 80)}`,
      );
    return { text: statement, index: index.toLowerCase(), builds: Boolean(build) };
  });
}

const ensureTable =
  'CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())';

/**
 * Applies the numbered plain-SQL migrations not applied yet, then installs or migrates the job
 * queue's schema. Several migrators (instances starting together, a deploy's step) take turns
 * through one advisory lock, taken by trying again rather than by waiting for it inside a
 * transaction: a waiting transaction would hold up a concurrent index build of the migrator that
 * has the lock, which waits for every older transaction (a deadlock).
 *
 * - A migration runs in its own transaction, which waits at most `lockTimeoutMs` for each lock it
 *   needs: a migration queued behind a long transaction would otherwise make every read of its
 *   table queue behind it. It is tried again `attempts` times, then the run fails saying so. Its
 *   statements have no time limit (an index built the plain way takes as long as it takes).
 * - A migration that starts with `-- migrate: no-transaction` builds or drops indexes
 *   CONCURRENTLY, on a connection of its own: writes go on meanwhile. An index left invalid by an
 *   earlier build that failed is dropped and built again.
 */
export async function migrate(db: Database, options: MigrateOptions = {}): Promise<string[]> {
  const settings = {
    lockTimeoutMs: options.lockTimeoutMs ?? 5_000,
    attempts: options.attempts ?? 5,
    retryMs: options.retryMs ?? 200,
  };
  const dir = options.dir ?? migrationsDir;
  const files = options.dir ? await migrationsIn(dir) : await migrationFiles();
  // A migration the database already has is never undone: only the others are tried, each under
  // the lock, where whether it is applied is asked again. A start on an up-to-date database asks
  // once instead of opening a locked transaction per migration (30 of them: ~180 round trips,
  // 150-200 ms of the start).
  const had = await appliedVersions(db);
  const applied: string[] = [];
  for (const file of files.filter((f) => !had.has(f.slice(0, 3)))) {
    const script = await readFile(join(dir, file), 'utf8');
    const done = script.startsWith(noTransactionHeader)
      ? await migrateOutsideTransaction(db, file, indexStatements(file, script), settings)
      : await migrateInTransaction(db, file, script, settings);
    if (done) applied.push(file);
  }
  // The job queue's tables (pg-boss's own versioned schema), after the portal's.
  if (await queueNeedsMigration(db)) {
    await installQueue(db);
    applied.push(queueMigrationName);
  }
  return applied;
}

type Settings = Required<Omit<MigrateOptions, 'dir'>>;

/** One transactional migration: true when this call applied it, false when it was already. */
async function migrateInTransaction(
  db: Database,
  file: string,
  script: string,
  { lockTimeoutMs, attempts, retryMs }: Settings,
): Promise<boolean> {
  const version = file.slice(0, 3);
  for (let attempt = 1; ; attempt++) {
    try {
      const outcome = await db.withOwner(async (sql) => {
        const [lock] = await sql.query<{ ok: boolean }>(
          'SELECT pg_try_advisory_xact_lock($1) AS ok',
          [migrationLock],
        );
        if (!lock?.ok) return 'busy' as const;
        await sql.exec(
          `SET LOCAL lock_timeout = ${Math.round(lockTimeoutMs)}; SET LOCAL statement_timeout = 0`,
        );
        await sql.exec(ensureTable);
        const rows = await sql.query('SELECT 1 FROM schema_migrations WHERE version = $1', [
          version,
        ]);
        if (rows.length > 0) return 'skipped' as const;
        await sql.exec(script);
        await sql.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
          version,
          file,
        ]);
        return 'applied' as const;
      });
      if (outcome !== 'busy') return outcome === 'applied';
      // Another migrator has the lock: try again shortly (this try held no lock and no snapshot).
      attempt -= 1;
    } catch (error) {
      if ((error as { code?: unknown }).code !== lockNotAvailable) throw error;
      if (attempt >= attempts)
        throw new Error(
          `${file} waited ${lockTimeoutMs} ms for a table lock ${attempts} times: a long ` +
            'transaction holds it. Nothing of it was applied; run the migrations again once it ends.',
          { cause: error },
        );
    }
    await sleep(retryMs);
  }
}

/**
 * One migration of concurrent index builds, outside any transaction, on a connection of its own
 * that holds the migrators' lock as a session lock while it runs (and is closed after it).
 */
async function migrateOutsideTransaction(
  db: Database,
  file: string,
  statements: IndexStatement[],
  { retryMs }: Settings,
): Promise<boolean> {
  if (db.postgres?.preparedStatements === false)
    throw new Error(
      `${file} builds indexes outside a transaction, which needs a connection of its own: run ` +
        'the migrations with a DATABASE_URL that reaches PostgreSQL directly, not a pooler in ' +
        'transaction mode.',
    );
  const version = file.slice(0, 3);
  return db.withOwnerSession(async (sql) => {
    // An index build takes as long as it takes; it blocks no reads and no writes.
    await sql.exec('SET statement_timeout = 0');
    for (;;) {
      const [lock] = await sql.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [
        migrationLock,
      ]);
      if (lock?.ok) break;
      await sleep(retryMs);
    }
    try {
      await sql.exec(ensureTable);
      const rows = await sql.query('SELECT 1 FROM schema_migrations WHERE version = $1', [version]);
      if (rows.length > 0) return false;
      for (const statement of statements) {
        if (statement.builds) {
          // A concurrent build that failed (or was cancelled) leaves its index invalid, and
          // IF NOT EXISTS would then keep it: it goes, and is built again.
          const [left] = await sql.query<{ valid: boolean }>(
            `SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
              WHERE c.relname = $1 AND c.relnamespace = current_schema()::regnamespace`,
            [statement.index],
          );
          if (left && !left.valid)
            await sql.exec(`DROP INDEX CONCURRENTLY IF EXISTS ${statement.index}`);
        }
        await sql.exec(statement.text);
      }
      await sql.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        version,
        file,
      ]);
      return true;
    } finally {
      await sql.query('SELECT pg_advisory_unlock($1)', [migrationLock]);
    }
  });
}
