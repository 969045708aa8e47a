import type { Database } from '../src/db/database.ts';

/**
 * For the race tests on PostgreSQL: how many sessions of the test's database wait for a lock
 * (pg_stat_activity), and a wait until `n` of them do, so that requests queued behind a lock the
 * test holds are known to be queued, in order, before it lets go.
 */
export async function lockWaits(db: Pick<Database, 'withOwner'>): Promise<number> {
  const [row] = await db.withOwner((sql) =>
    sql.query<{ n: string }>(
      `SELECT count(*) AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    ),
  );
  return Number(row?.n ?? 0);
}

/** Waits (up to 15 s, then fails naming `what`) until at least `n` sessions wait for a lock. */
export async function untilLockWaits(
  db: Pick<Database, 'withOwner'>,
  n: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + 15_000;
  while ((await lockWaits(db)) < n) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * A third transaction runs `lockingQuery` (a SELECT ... FOR UPDATE) and keeps its locks until the
 * answered function is called; that function lets go and waits for the transaction to end.
 */
export async function holdLock(
  db: Pick<Database, 'withOwner'>,
  lockingQuery: string,
  params: readonly unknown[],
): Promise<() => Promise<void>> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked = () => {};
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const holder = db.withOwner(async (sql) => {
    await sql.query(lockingQuery, params);
    locked();
    await released;
  });
  await Promise.race([isLocked, holder]);
  return async () => {
    release();
    await holder;
  };
}

/**
 * A Database whose transactions run their statements and then wait before their COMMIT until
 * `release()`: `ranStatements` resolves once one has, so a test can run other work against the
 * uncommitted change (a batch held open while the outbox or a request runs).
 */
export function holdingCommit(db: Database) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let written!: () => void;
  const ranStatements = new Promise<void>((resolve) => (written = resolve));
  const held: Database = {
    ...db,
    withTenant: (tenantId, fn) =>
      db.withTenant(tenantId, async (sql) => {
        const result = await fn(sql);
        written();
        await gate;
        return result;
      }),
  };
  return { held, ranStatements, release };
}
