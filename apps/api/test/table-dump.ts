import type { SqlQuery } from '../src/db/database.ts';

/**
 * Every table of the portal's schema, read from the database rather than listed by hand: a test
 * that says "writes nothing" checks the tables added after it was written too. pg-boss keeps its
 * jobs in a schema of its own (`pgboss`), outside this list.
 */
export async function portalTables(sql: SqlQuery): Promise<string[]> {
  const rows = await sql.query<{ name: string }>(
    `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`,
  );
  return rows.map((row) => row.name);
}

/**
 * Each table's whole contents, every tenant's, rows in a stable order: equal when nothing changed.
 * `except` leaves out columns a test does not hold still (by table).
 */
export async function dumpTables(
  sql: SqlQuery,
  except: Readonly<Record<string, readonly string[]>> = {},
): Promise<Record<string, unknown>> {
  const dump: Record<string, unknown> = {};
  for (const table of await portalTables(sql)) {
    const row = (except[table] ?? []).reduce(
      (json, column) => `${json} - '${column}'`,
      'to_jsonb(t)',
    );
    const [result] = await sql.query<{ rows: unknown }>(
      `SELECT coalesce(jsonb_agg(r ORDER BY r::text), '[]'::jsonb) AS rows FROM (SELECT ${row} AS r FROM ${table} t) x`,
    );
    dump[table] = result?.rows;
  }
  return dump;
}
