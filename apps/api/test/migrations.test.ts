import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgres, type Database } from '../src/db/database.ts';
import { migrate, noTransactionHeader } from '../src/db/migrate.ts';
import { engines, type Engine } from './engines.ts';

/**
 * The migrator on a database of the release (db/migrate.ts): migrations of the tests' own, numbered
 * 9xx after the release's, each set in a folder of its own.
 */
const folders: string[] = [];
function migrations(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'portal-migrations-'));
  folders.push(dir);
  for (const [name, script] of Object.entries(files)) writeFileSync(join(dir, name), script);
  return dir;
}
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

const fast = { lockTimeoutMs: 200, attempts: 3, retryMs: 50 };

const versions = (db: Database) =>
  db.withOwner((sql) =>
    sql.query<{ version: string }>(
      "SELECT version FROM schema_migrations WHERE version LIKE '9%' ORDER BY version",
    ),
  );

const indexState = (db: Database, name: string) =>
  db.withOwner(async (sql) => {
    const [row] = await sql.query<{ valid: boolean }>(
      `SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE c.relname = $1`,
      [name],
    );
    return row ? (row.valid ? 'valid' : 'invalid') : 'absent';
  });

const sampleTable = `CREATE TABLE migration_probe (id int PRIMARY KEY, code int NOT NULL);
INSERT INTO migration_probe SELECT g, g % 50 FROM generate_series(1, 200) g;`;

/** `fn` on a private copy of the release's database with a small table to migrate. */
async function withProbe(engine: Engine | undefined, fn: (db: Database) => Promise<void>) {
  if (!engine) throw new Error('no such engine here');
  const db = await engine.open();
  try {
    await db.withOwner((sql) => sql.exec(sampleTable));
    await fn(db);
  } finally {
    await db.close();
  }
}

describe.each(engines())('migrations on $name', (engine) => {
  it('builds an index concurrently, outside a transaction, and records it once', () =>
    withProbe(engine, async (db) => {
      const dir = migrations({
        '901-probe-by-code.sql': `${noTransactionHeader}
-- Built without blocking the table's writes.
CREATE INDEX CONCURRENTLY IF NOT EXISTS migration_probe_code ON migration_probe (code);
`,
      });
      expect(await migrate(db, { dir, ...fast })).toEqual(['901-probe-by-code.sql']);
      expect(await indexState(db, 'migration_probe_code')).toBe('valid');
      expect(await migrate(db, { dir, ...fast })).toEqual([]);
      expect(await versions(db)).toEqual([{ version: '901' }]);
    }));

  it('drops an index an earlier concurrent build left invalid, and builds it again', () =>
    withProbe(engine, async (db) => {
      // A unique build over duplicates fails half way and leaves its index behind, invalid.
      await expect(
        db.withOwnerSession((sql) =>
          sql.exec(
            'CREATE UNIQUE INDEX CONCURRENTLY migration_probe_code_key ON migration_probe (code)',
          ),
        ),
      ).rejects.toThrow();
      expect(await indexState(db, 'migration_probe_code_key')).toBe('invalid');
      await db.withOwner((sql) => sql.exec('DELETE FROM migration_probe WHERE id > 50'));
      const dir = migrations({
        '902-probe-code-unique.sql': `${noTransactionHeader}
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS migration_probe_code_key ON migration_probe (code);
`,
      });
      expect(await migrate(db, { dir, ...fast })).toEqual(['902-probe-code-unique.sql']);
      expect(await indexState(db, 'migration_probe_code_key')).toBe('valid');
      // The rebuilt index is the real one: a duplicate is refused now.
      await expect(
        db.withOwner((sql) => sql.exec('INSERT INTO migration_probe VALUES (1000, 7)')),
      ).rejects.toThrow(/duplicate key/);
    }));

  it('refuses a migration outside a transaction that does more than indexes, running none of it', () =>
    withProbe(engine, async (db) => {
      const dir = migrations({
        '903-mixed.sql': `${noTransactionHeader}
CREATE INDEX CONCURRENTLY IF NOT EXISTS migration_probe_code ON migration_probe (code);
UPDATE migration_probe SET code = 0;
`,
      });
      await expect(migrate(db, { dir, ...fast })).rejects.toThrow(
        /903-mixed\.sql runs outside a transaction.*UPDATE migration_probe/,
      );
      expect(await indexState(db, 'migration_probe_code')).toBe('absent');
      expect(await versions(db)).toEqual([]);
    }));
});

const postgres = engines().find((e) => e.name === 'postgres');

describe.skipIf(!postgres)('migrations beside a busy PostgreSQL', () => {
  /**
   * A long transaction of another client: it has read the table (its lock stays until it ends)
   * and keeps its snapshot, which a concurrent index build waits for.
   */
  async function openReader(db: Database) {
    const client = new pg.Client({ connectionString: db.postgres?.connectionString });
    // The test's database is dropped with its connections: that is not an error of the test.
    client.on('error', () => {});
    await client.connect();
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    await client.query('SELECT count(*) FROM migration_probe');
    return {
      async end() {
        await client.query('COMMIT');
        await client.end();
      },
    };
  }
  /** Polls until a statement starting with `prefix` waits for a lock. */
  async function waitingOnLock(db: Database, prefix: string) {
    for (let i = 0; i < 200; i++) {
      const rows = await db.withOwner((sql) =>
        sql.query(
          `SELECT 1 FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE $1`,
          [`${prefix}%`],
        ),
      );
      if (rows.length > 0) return;
      await sleep(25);
    }
    throw new Error(`no statement ${prefix}… waited for a lock`);
  }

  it('lets writes through while an index builds concurrently', () =>
    withProbe(postgres, async (db) => {
      const reader = await openReader(db);
      const dir = migrations({
        '904-probe-by-code.sql': `${noTransactionHeader}
CREATE INDEX CONCURRENTLY IF NOT EXISTS migration_probe_code ON migration_probe (code);
`,
      });
      const migrating = migrate(db, { dir, ...fast });
      // The build waits for the open transaction to end, as a concurrent build does...
      await waitingOnLock(db, 'CREATE INDEX CONCURRENTLY');
      // ...and meanwhile the table takes writes: a plain CREATE INDEX would hold this insert.
      await db.withOwner(async (sql) => {
        await sql.exec("SET LOCAL lock_timeout = '2s'");
        await sql.query('INSERT INTO migration_probe VALUES (500, 1)');
      });
      await reader.end();
      expect(await migrating).toEqual(['904-probe-by-code.sql']);
      expect(await indexState(db, 'migration_probe_code')).toBe('valid');
    }));

  it('gives up a migration that waits behind a long transaction, applies none of it, and applies it later', () =>
    withProbe(postgres, async (db) => {
      const reader = await openReader(db);
      const dir = migrations({
        '905-probe-note.sql': 'ALTER TABLE migration_probe ADD COLUMN note text;\n',
      });
      // Waiting for its lock, the ALTER would queue every later read of the table behind it:
      // it waits 200 ms at a time, three times, then the run fails saying why.
      await expect(migrate(db, { dir, ...fast })).rejects.toThrow(
        /905-probe-note\.sql waited 200 ms for a table lock 3 times/,
      );
      expect(await versions(db)).toEqual([]);
      await reader.end();
      expect(await migrate(db, { dir, ...fast })).toEqual(['905-probe-note.sql']);
      await db.withOwner((sql) => sql.query('SELECT note FROM migration_probe LIMIT 1'));
    }));

  it('runs two migrators at once without a deadlock while one builds an index concurrently', () =>
    withProbe(postgres, async (db) => {
      const other = openPostgres({ connectionString: db.postgres?.connectionString ?? '', max: 2 });
      try {
        const reader = await openReader(db);
        const building = migrate(db, {
          dir: migrations({
            '906-probe-by-code.sql': `${noTransactionHeader}
CREATE INDEX CONCURRENTLY IF NOT EXISTS migration_probe_code ON migration_probe (code);
`,
          }),
          ...fast,
        });
        await waitingOnLock(db, 'CREATE INDEX CONCURRENTLY');
        // The second migrator's migration runs in a transaction. Waiting for the migrators' lock
        // inside it, it would hold up the build, which waits for every older transaction: it tries
        // the lock again instead, each try a moment long.
        const altering = migrate(other, {
          dir: migrations({
            '907-probe-note.sql': 'ALTER TABLE migration_probe ADD COLUMN note text;\n',
          }),
          ...fast,
          attempts: 20,
        });
        await sleep(300);
        await reader.end();
        expect(await building).toEqual(['906-probe-by-code.sql']);
        expect(await altering).toEqual(['907-probe-note.sql']);
        expect(await versions(db)).toEqual([{ version: '906' }, { version: '907' }]);
      } finally {
        await other.close();
      }
    }));

  it("waits for the migrators' lock outside any transaction, so no index build waits for it", () =>
    withProbe(postgres, async (db) => {
      const holder = new pg.Client({ connectionString: db.postgres?.connectionString });
      holder.on('error', () => {});
      try {
        await holder.connect();
        // Another migrator has the lock (the key of db/migrate.ts).
        await holder.query('SELECT pg_advisory_lock(7001001)');
        const altering = migrate(db, {
          dir: migrations({
            '909-probe-note.sql': 'ALTER TABLE migration_probe ADD COLUMN note text;\n',
          }),
          ...fast,
        });
        for (let i = 0; i < 8; i++) {
          await sleep(50);
          // Waiting inside a transaction would show as a wait for an advisory lock, or a
          // transaction open for longer than one try.
          const waiting = await db.withOwner((sql) =>
            sql.query(
              `SELECT wait_event, state FROM pg_stat_activity
              WHERE datname = current_database() AND pid <> pg_backend_pid()
                AND (wait_event = 'advisory' OR xact_start < now() - interval '100 ms')`,
            ),
          );
          expect(waiting).toEqual([]);
        }
        expect(await versions(db)).toEqual([]);
        await holder.query('SELECT pg_advisory_unlock(7001001)');
        expect(await altering).toEqual(['909-probe-note.sql']);
      } finally {
        await holder.end();
      }
    }));

  it('refuses a concurrent build through a pooler in transaction mode, which has no session', () =>
    withProbe(postgres, async (db) => {
      const pooled = openPostgres({
        connectionString: db.postgres?.connectionString ?? '',
        max: 1,
        preparedStatements: false,
      });
      try {
        const dir = migrations({
          '908-probe-by-code.sql': `${noTransactionHeader}
CREATE INDEX CONCURRENTLY IF NOT EXISTS migration_probe_code ON migration_probe (code);
`,
        });
        await expect(migrate(pooled, { dir, ...fast })).rejects.toThrow(
          /908-probe-by-code\.sql builds indexes outside a transaction.*reaches PostgreSQL directly/,
        );
        expect(await indexState(db, 'migration_probe_code')).toBe('absent');
      } finally {
        await pooled.close();
      }
    }));
});
