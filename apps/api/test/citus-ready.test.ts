import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { engines } from './engines.ts';

/**
 * docs/scaling.md "Citus, with tenant_id as the distribution column" sorts every table into
 * reference, distributed and local, and says the schema meets what Citus asks of co-located
 * distributed tables. This test holds the document to the migrated schema: a new table must be
 * sorted there, and a distributed one must keep `tenant_id` first in its primary key, in every
 * unique index and in every foreign key to another distributed table.
 */
const scaling = readFileSync(new URL('../../../docs/scaling.md', import.meta.url), 'utf8');

/** The backquoted names of the document's table row that starts with `kind`. */
function tablesOfKind(markdown: string, kind: string): string[] {
  const row = markdown.split('\n').find((line) => line.startsWith(`| ${kind}`));
  if (!row) return [];
  const cells = row.split('|');
  return [...(cells[2] ?? '').matchAll(/`([a-z_]+)`/g)].map((m) => m[1] as string);
}

const reference = tablesOfKind(scaling, 'Reference');
const distributed = tablesOfKind(scaling, 'Distributed');
const local = tablesOfKind(scaling, 'Local');

describe('docs/scaling.md sorts tables', () => {
  it('reads the three rows of its table, each table once', () => {
    expect(reference).toEqual(['tenants']);
    expect(distributed.length).toBeGreaterThan(30);
    expect(local).toContain('schema_migrations');
    const all = [...reference, ...distributed, ...local];
    expect(new Set(all).size).toBe(all.length);
  });

  it('finds no names where a row is missing', () => {
    expect(tablesOfKind('| Kind | Tables |\n|---|---|', 'Reference')).toEqual([]);
    expect(tablesOfKind('| Distributed by x | `a_b`, `c` |', 'Distributed')).toEqual(['a_b', 'c']);
  });
});

describe.each(engines())('the migrated schema on $name is what docs/scaling.md says', (engine) => {
  it('has every table sorted, and distributed ones keyed by tenant_id first', async () => {
    const db = await engine.open();
    try {
      const tables = await db.withOwner((sql) =>
        sql.query<{ name: string; pk: string[]; has_tenant: boolean }>(
          `SELECT c.relname AS name,
                  ARRAY(SELECT a.attname::text
                          FROM pg_constraint p
                          CROSS JOIN LATERAL unnest(p.conkey) WITH ORDINALITY k(att, ord)
                          JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.att
                         WHERE p.conrelid = c.oid AND p.contype = 'p'
                         ORDER BY k.ord) AS pk,
                  EXISTS (SELECT 1 FROM pg_attribute a
                           WHERE a.attrelid = c.oid AND a.attname = 'tenant_id') AS has_tenant
             FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
            ORDER BY 1`,
        ),
      );
      const names = tables.map((t) => t.name);
      expect([...reference, ...distributed, ...local].sort()).toEqual(names);
      for (const table of tables) {
        if (distributed.includes(table.name)) expect(table.pk[0], table.name).toBe('tenant_id');
        else expect(table.has_tenant, `${table.name} has tenant_id: distribute it`).toBe(false);
      }
    } finally {
      await db.close();
    }
  });

  it('has tenant_id in every unique index and every foreign key between distributed tables', async () => {
    const db = await engine.open();
    try {
      const uniques = await db.withOwner((sql) =>
        sql.query<{ table: string; index: string; with_tenant: boolean }>(
          `SELECT t.relname AS table, i.relname AS index,
                  EXISTS (SELECT 1 FROM unnest(x.indkey::int2[]) k
                            JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k
                           WHERE a.attname = 'tenant_id') AS with_tenant
             FROM pg_index x
             JOIN pg_class i ON i.oid = x.indexrelid
             JOIN pg_class t ON t.oid = x.indrelid
             JOIN pg_namespace n ON n.oid = t.relnamespace
            WHERE n.nspname = 'public' AND x.indisunique`,
        ),
      );
      const distributedUniques = uniques.filter((u) => distributed.includes(u.table));
      expect(distributedUniques.length).toBeGreaterThan(distributed.length);
      expect(distributedUniques.filter((u) => !u.with_tenant).map((u) => u.index)).toEqual([]);

      const keys = await db.withOwner((sql) =>
        sql.query<{ name: string; from: string; to: string; both: boolean }>(
          `SELECT c.conname AS name, f.relname AS from, r.relname AS to,
                  EXISTS (SELECT 1 FROM unnest(c.conkey) WITH ORDINALITY k(att, ord)
                            JOIN unnest(c.confkey) WITH ORDINALITY rk(att, ord) ON rk.ord = k.ord
                            JOIN pg_attribute fa ON fa.attrelid = c.conrelid AND fa.attnum = k.att
                            JOIN pg_attribute ra ON ra.attrelid = c.confrelid AND ra.attnum = rk.att
                           WHERE fa.attname = 'tenant_id' AND ra.attname = 'tenant_id') AS both
             FROM pg_constraint c
             JOIN pg_class f ON f.oid = c.conrelid
             JOIN pg_class r ON r.oid = c.confrelid
             JOIN pg_namespace n ON n.oid = c.connamespace
            WHERE n.nspname = 'public' AND c.contype = 'f'`,
        ),
      );
      const between = keys.filter(
        (k) => distributed.includes(k.from) && distributed.includes(k.to),
      );
      expect(between.length).toBeGreaterThan(20);
      expect(between.filter((k) => !k.both).map((k) => k.name)).toEqual([]);
      // The others point at the reference table (the tenant itself).
      const others = keys.filter((k) => !between.includes(k));
      expect(others.filter((k) => !reference.includes(k.to)).map((k) => k.name)).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
