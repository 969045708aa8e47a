import type { Sql } from './database.ts';

/**
 * Inserts rows with multi-row `INSERT ... VALUES` statements of at most `chunk` rows, keeping under
 * PostgreSQL's 65,535 parameters per statement. Used by the seed and the load generator.
 */
export async function insertRows(
  sql: Sql,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
  chunk = Math.floor(60_000 / columns.length),
): Promise<void> {
  for (let start = 0; start < rows.length; start += chunk) {
    const slice = rows.slice(start, start + chunk);
    const params: unknown[] = [];
    const tuples = slice.map((row) => {
      const marks = row.map((value) => {
        params.push(value);
        return `$${params.length}`;
      });
      return `(${marks.join(',')})`;
    });
    await sql.query(
      `INSERT INTO ${table} (${columns.join(',')}) VALUES ${tuples.join(',')}`,
      params,
    );
  }
}
