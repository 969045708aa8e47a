import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRole, type Database, type Sql } from '../src/db/database.ts';
import { engines } from './engines.ts';

/**
 * Row-level security, proved on both engines as the application role (on PGlite, whose session
 * is a superuser, by switching to that role): a forgotten filter returns nothing, never another
 * tenant's rows.
 */
describe.each(engines())('row-level security on $name', (engine) => {
  let db: Database;
  let tenantTables: string[];
  beforeAll(async () => {
    db = await engine.open();
    tenantTables = await db.withOwner(async (sql) =>
      (
        await sql.query<{ table_name: string }>(
          `SELECT table_name FROM information_schema.columns
            WHERE table_schema = 'public' AND column_name = 'tenant_id' ORDER BY table_name`,
        )
      ).map((r) => r.table_name),
    );
  });
  afterAll(async () => db.close());

  const asAppRole = <T>(fn: (sql: Sql) => Promise<T>) =>
    db.withOwner(async (sql) => {
      await sql.query(`SELECT set_config('role', '${appRole}', true)`);
      return fn(sql);
    });

  it('covers every table that has a tenant_id, and the tenants table', async () => {
    expect(tenantTables).toContain('invoices');
    const rows = await db.withOwner((sql) =>
      sql.query<{ relname: string; relrowsecurity: boolean; policies: number }>(
        `SELECT c.relname, c.relrowsecurity,
                (SELECT count(*)::int FROM pg_policy p WHERE p.polrelid = c.oid) AS policies
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = 'public' AND c.relname = ANY($1)`,
        [[...tenantTables, 'tenants']],
      ),
    );
    expect(rows).toHaveLength(tenantTables.length + 1);
    for (const row of rows) {
      expect(row, row.relname).toMatchObject({ relrowsecurity: true });
      expect(row.policies, row.relname).toBeGreaterThan(0);
    }
  });

  it('is not bypassed by the application role (not owner, not superuser, no BYPASSRLS)', async () => {
    const rows = await db.withOwner((sql) =>
      sql.query<{ rolsuper: boolean; rolbypassrls: boolean; owns: number }>(
        `SELECT rolsuper, rolbypassrls,
                (SELECT count(*)::int FROM pg_class WHERE relowner = r.oid) AS owns
           FROM pg_roles r WHERE rolname = $1`,
        [appRole],
      ),
    );
    expect(rows[0]).toEqual({ rolsuper: false, rolbypassrls: false, owns: 0 });
  });

  it('returns zero rows from every tenant table when no tenant is set', async () => {
    const counts = await asAppRole(async (sql) => {
      const result: Record<string, number> = {};
      for (const table of [...tenantTables, 'tenants']) {
        const rows = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
        result[table] = rows[0]?.n ?? -1;
      }
      return result;
    });
    for (const [table, n] of Object.entries(counts)) expect(n, table).toBe(0);
    // ...while the owner sees the seeded rows, so the zeros above are not an empty database.
    const owned = await db.withOwner((sql) =>
      sql.query<{ n: number }>('SELECT count(DISTINCT tenant_id)::int AS n FROM invoices'),
    );
    expect(owned[0]?.n).toBe(2);
  });

  it('shows a tenant only its own rows, even with no filter in the query', async () => {
    for (const tenant of ['1', 'demo']) {
      const rows = await db.withTenant(tenant, (sql) =>
        sql.query<{ tenant_id: string; n: number }>(
          'SELECT tenant_id, count(*)::int AS n FROM invoices GROUP BY tenant_id',
        ),
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]?.tenant_id).toBe(tenant);
      const tenants = await db.withTenant(tenant, (sql) =>
        sql.query<{ id: string }>('SELECT id FROM tenants'),
      );
      expect(tenants).toEqual([{ id: tenant }]);
    }
  });

  it("cannot read another tenant's row by its key", async () => {
    const [demoCustomer] = await db.withTenant('demo', (sql) =>
      sql.query<{ id: string }>('SELECT id FROM customers LIMIT 1'),
    );
    const seen = await db.withTenant('1', (sql) =>
      sql.query('SELECT id FROM customers WHERE id = $1', [demoCustomer?.id]),
    );
    expect(seen).toEqual([]);
  });

  it('refuses to write a row into another tenant', async () => {
    await expect(
      db.withTenant('1', (sql) =>
        sql.query(
          `INSERT INTO contact_messages (tenant_id, name, company, subject, message)
           VALUES ('demo', 'x', 'x', 'x', 'x')`,
        ),
      ),
    ).rejects.toThrow(/row-level security/);
    const updated = await db.withTenant('1', (sql) =>
      sql.query("UPDATE notifications SET title = 'x' WHERE tenant_id = 'demo' RETURNING id"),
    );
    expect(updated).toEqual([]);
  });

  it('keeps the tenant setting local to its transaction', async () => {
    await db.withTenant('1', (sql) => sql.query('SELECT 1'));
    const rows = await asAppRole((sql) => sql.query('SELECT id FROM tenants'));
    expect(rows).toEqual([]);
  });

  describe('readTenant (one statement, one round trip on PostgreSQL)', () => {
    it('shows a tenant only its own rows and binds values exactly as parameters do', async () => {
      for (const tenant of ['1', 'demo']) {
        const rows = await db.readTenant(tenant, (sql) =>
          sql.query<{ tenant_id: string; n: number }>(
            `SELECT tenant_id, count(*)::int AS n FROM invoices
              WHERE invoice_date BETWEEN $1::date AND $2 AND tenant_id = ANY($3::text[])
              GROUP BY tenant_id LIMIT $4`,
            ['2000-01-01', '2100-12-31', ['1', 'demo', 'it\'s \\ "odd"'], 5],
          ),
        );
        expect(rows).toHaveLength(1);
        expect(rows[0]?.tenant_id).toBe(tenant);
      }
    });

    it('returns a value with quotes and backslashes unchanged (no injection)', async () => {
      const nasty = "x'); DROP TABLE invoices; -- \\' $1 \"";
      const rows = await db.readTenant('1', (sql) =>
        sql.query<{ v: string; n: null }>('SELECT $1::text AS v, $2::text AS n', [nasty, null]),
      );
      expect(rows).toEqual([{ v: nasty, n: null }]);
      const still = await db.withOwner((sql) =>
        sql.query<{ n: number }>('SELECT count(*)::int AS n FROM invoices'),
      );
      expect(still[0]?.n).toBeGreaterThan(0);
    });

    it("cannot read another tenant's row by its key, and leaves no setting behind", async () => {
      const [demoCustomer] = await db.withTenant('demo', (sql) =>
        sql.query<{ id: string }>('SELECT id FROM customers LIMIT 1'),
      );
      const seen = await db.readTenant('1', (sql) =>
        sql.query('SELECT id FROM customers WHERE id = $1', [demoCustomer?.id]),
      );
      expect(seen).toEqual([]);
      const rows = await asAppRole((sql) => sql.query('SELECT id FROM tenants'));
      expect(rows).toEqual([]);
    });

    it('prepares a read once per connection and runs it for each tenant with its own rows', async () => {
      const text = `SELECT (SELECT count(*)::int FROM pg_prepared_statements
                             WHERE statement LIKE '%prepared-read-marker%') AS prepared,
                          (SELECT count(*)::int FROM invoices WHERE invoice_date >= $1) AS invoices`;
      const counts = new Map<string, number>();
      for (let round = 0; round < 8; round++) {
        for (const tenant of ['1', 'demo']) {
          const [row] = await db.readTenant(tenant, (sql) =>
            sql.query<{ prepared: number; invoices: number }>(`${text} -- prepared-read-marker`, [
              '2000-01-01',
            ]),
          );
          // The statement itself is the one prepared: once on this connection, never twice. Its text
          // ends in a comment, which must not swallow what the message sends after it.
          expect(row?.prepared).toBe(engine.name === 'postgres' ? 1 : 0);
          if (round > 0) expect(row?.invoices).toBe(counts.get(tenant));
          counts.set(tenant, row?.invoices ?? -1);
        }
      }
      const owner = await db.withOwner((sql) =>
        sql.query<{ tenant_id: string; n: number }>(
          `SELECT tenant_id, count(*)::int AS n FROM invoices WHERE invoice_date >= '2000-01-01'
            GROUP BY tenant_id`,
        ),
      );
      for (const tenant of ['1', 'demo']) {
        expect(counts.get(tenant)).toBe(owner.find((r) => r.tenant_id === tenant)?.n);
      }
    });

    // PREPARE refuses `$1 IS NULL` (nothing gives $1 a type), as every parameterised query does (PGlite
    // too); the reads of PostgreSQL, which inline their values, read the literal as text instead.
    it.skipIf(engine.name !== 'postgres')(
      'reads a statement that cannot be prepared (an untyped parameter) with its values inlined',
      async () => {
        for (const [value, missing] of [
          [null, true],
          ["it's", false],
          [null, true],
        ] as const) {
          const rows = await db.readTenant('1', (sql) =>
            sql.query<{ missing: boolean }>('SELECT $1 IS NULL AS missing', [value]),
          );
          expect(rows).toEqual([{ missing }]);
        }
      },
    );

    it('prepares a read again on a connection that lost its prepared statements', async () => {
      const text = 'SELECT 7 * $1::int AS x';
      for (const [step, factor] of [1, 2, 3].entries()) {
        // The pool hands back the connection released last, the one that prepared the read.
        if (step > 0) await db.withOwner((sql) => sql.exec('DEALLOCATE ALL'));
        const rows = await db.readTenant('1', (sql) => sql.query<{ x: number }>(text, [factor]));
        expect(rows).toEqual([{ x: 7 * factor }]);
      }
    });

    it('uses again a statement prepared by a read that failed', async () => {
      const text = 'SELECT 10 / $1::int AS x';
      await expect(db.readTenant('1', (sql) => sql.query(text, [0]))).rejects.toThrow(
        /division by zero/,
      );
      for (const divisor of [2, 5]) {
        const rows = await db.readTenant('1', (sql) => sql.query<{ x: number }>(text, [divisor]));
        expect(rows).toEqual([{ x: 10 / divisor }]);
      }
    });

    it('reads again after a read whose statement does not parse', async () => {
      // On PostgreSQL the failing message prepared the tenant's statement before the read's Parse
      // failed: the read remembers it, and a read that did not would meet 42P05 and take it as
      // prepared. With neither, the next read on that connection fails ("already exists").
      for (let round = 0; round < 2; round++) {
        await expect(
          db.readTenant('1', (sql) => sql.query(`SELEC ${round} AS broken_${round}`)),
        ).rejects.toThrow(/syntax error/);
        const rows = await db.readTenant('1', (sql) =>
          sql.query<{ n: number }>('SELECT count(*)::int AS n FROM customers WHERE $1::int > 0', [
            round + 1,
          ]),
        );
        expect(rows[0]?.n).toBeGreaterThan(0);
      }
    });

    it('reports an SQL error and stays usable; a second statement is refused', async () => {
      await expect(
        db.readTenant('1', (sql) => sql.query('SELECT 1 / $1::int AS x', [0])),
      ).rejects.toThrow(/division by zero/);
      await expect(
        db.readTenant('1', async (sql) => {
          await sql.query('SELECT 1');
          return sql.query('SELECT 2');
        }),
      ).rejects.toThrow(/one statement/);
      const ok = await db.readTenant('1', (sql) => sql.query<{ x: number }>('SELECT 1 AS x'));
      expect(ok).toEqual([{ x: 1 }]);
    });
  });
});
