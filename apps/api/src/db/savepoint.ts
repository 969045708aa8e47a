import type { SqlQuery } from './database.ts';

/**
 * Runs `fn` inside a savepoint of the caller's transaction: when it fails (a statement refused by
 * the database, or a check in JavaScript), only its own writes are undone and the error is handed
 * back, so that the transaction goes on and commits the rest. For work that must never undo what
 * the transaction is for: the message to a customer, the card saved beside a payment, never the
 * payment itself.
 */
export async function inSavepoint<T>(
  sql: SqlQuery,
  fn: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  // One name for all: PostgreSQL keeps a reused name's older savepoint and RELEASE or ROLLBACK TO
  // reach the newest, which is the right one for savepoints that nest.
  await sql.query('SAVEPOINT portal_side_effect');
  try {
    const value = await fn();
    await sql.query('RELEASE SAVEPOINT portal_side_effect');
    return { ok: true, value };
  } catch (error) {
    await sql.query('ROLLBACK TO SAVEPOINT portal_side_effect');
    return { ok: false, error };
  }
}
