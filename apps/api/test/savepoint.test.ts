import { describe, expect, it } from 'vitest';
import { inSavepoint } from '../src/db/savepoint.ts';
import { engines } from './engines.ts';

/**
 * The savepoint that keeps a payment when what goes beside it fails (db/savepoint.ts): only the
 * failed part's writes are undone, the transaction goes on, and savepoints nest.
 */
describe.each(engines())('inSavepoint on $name', (engine) => {
  it('undoes only the failed part, keeps the transaction usable after a database error, and nests', async () => {
    const db = await engine.open();
    try {
      const kept = await db.withOwner(async (sql) => {
        await sql.query('CREATE TEMP TABLE sp_probe (x int) ON COMMIT DROP');
        const insert = (x: number) => sql.query('INSERT INTO sp_probe VALUES ($1)', [x]);
        await insert(1);
        const thrown = await inSavepoint(sql, async () => {
          await insert(2);
          throw new Error('a check in JavaScript');
        });
        expect(thrown.ok).toBe(false);
        // A statement the database refuses would abort the whole transaction without the savepoint.
        const refused = await inSavepoint(sql, async () => {
          await insert(3);
          await sql.query('SELECT 1 / 0');
        });
        expect(refused.ok).toBe(false);
        expect(await inSavepoint(sql, async () => (await insert(4), 'done'))).toEqual({
          ok: true,
          value: 'done',
        });
        const outer = await inSavepoint(sql, async () => {
          await insert(5);
          const inner = await inSavepoint(sql, async () => {
            await insert(6);
            throw new Error('inner');
          });
          await insert(7);
          return inner.ok;
        });
        expect(outer).toEqual({ ok: true, value: false });
        const rows = await sql.query<{ x: number }>('SELECT x FROM sp_probe ORDER BY x');
        return rows.map((r) => r.x);
      });
      expect(kept).toEqual([1, 4, 5, 7]);
    } finally {
      await db.close();
    }
  });
});
