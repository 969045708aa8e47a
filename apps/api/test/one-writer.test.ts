import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { engines } from './engines.ts';

/**
 * CONVENTIONS.md "one writer per table": `notifications` is written only by the notifications
 * module's repository (through its service), `webhook_events` only by the webhooks module's
 * (through events.ts, which other modules call in the transaction of their change). A second
 * writer (a trigger in a new migration, an INSERT in another module, a tool) would store texts or
 * types the web app cannot word, or events the webhooks module does not know it sends.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const scanned = ['apps', 'packages', 'tools', 'bench'];
const skippedDirs = new Set(['node_modules', 'dist', 'build', 'coverage', '.vite', 'test', 'e2e']);

const writesTo = (table: string) =>
  new RegExp(
    `\\b(?:insert\\s+into|update|delete\\s+from|copy|truncate(?:\\s+table)?)\\s+(?:public\\.)?${table}\\b|insertRows\\(\\s*\\w+\\s*,\\s*['"]${table}['"]`,
    'i',
  );

const tables = [
  {
    table: 'notifications',
    writes: writesTo('notifications'),
    /** Who may write, and why. */
    allowed: {
      'apps/api/src/modules/notifications/repository.ts': 'the owner',
      // Sample history loaded into every table at once, like its invoices (never at run time).
      'apps/api/src/db/seed/demo.ts': 'the demo seed',
    } as Record<string, string>,
    /** Migrations up to 011 are history: 005's triggers were dropped by 011. */
    lastHistoricalMigration: 11,
  },
  {
    table: 'webhook_events',
    writes: writesTo('webhook_events'),
    allowed: { 'apps/api/src/modules/webhooks/repository.ts': 'the owner' } as Record<
      string,
      string
    >,
    /** Migrations up to 018 are history: the triggers of 006, 007 and 010 were dropped by 018. */
    lastHistoricalMigration: 18,
  },
  // Conversations about invoices (issue 23, item 7): the invoice-threads module alone.
  ...['invoice_threads', 'invoice_thread_messages', 'invoice_thread_reads'].map((table) => ({
    table,
    writes: writesTo(table),
    allowed: { 'apps/api/src/modules/invoice-threads/repository.ts': 'the owner' } as Record<
      string,
      string
    >,
    lastHistoricalMigration: 0,
  })),
  {
    // Issue 23, item 6: signed mandates are evidence; only the mandates module writes them.
    table: 'sepa_mandates',
    writes: writesTo('sepa_mandates'),
    allowed: { 'apps/api/src/modules/mandates/repository.ts': 'the owner' } as Record<
      string,
      string
    >,
    lastHistoricalMigration: 0,
  },
];

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!skippedDirs.has(entry.name) && !entry.name.startsWith('.'))
        yield* sourceFiles(join(dir, entry.name));
    } else if (
      /\.(?:ts|tsx|mts|js|mjs|cjs|sql)$/.test(entry.name) &&
      !/\.test\./.test(entry.name)
    ) {
      yield join(dir, entry.name);
    }
  }
}

function isHistoricalMigration(path: string, last: number): boolean {
  const match = /apps\/api\/src\/db\/migrations\/(\d+)-[^/]+\.sql$/.exec(path);
  return match !== null && Number(match[1]) <= last;
}

describe.each(tables)(
  '$table has one writer',
  ({ table, writes, allowed, lastHistoricalMigration }) => {
    it(`finds statements writing ${table} only in its module`, () => {
      const writers: string[] = [];
      let read = 0;
      for (const top of scanned) {
        for (const file of sourceFiles(join(root, top))) {
          read += 1;
          const path = relative(root, file).split('\\').join('/');
          if (path in allowed || isHistoricalMigration(path, lastHistoricalMigration)) continue;
          if (writes.test(readFileSync(file, 'utf8'))) writers.push(path);
        }
      }
      expect(read).toBeGreaterThan(200);
      expect(writers).toEqual([]);
    });

    it('would catch a second writer', () => {
      for (const text of [
        `INSERT INTO ${table} (tenant_id) VALUES ($1)`,
        `insert into public.${table} select 1`,
        `UPDATE ${table} SET title = $1`,
        `await insertRows(sql, '${table}', [])`,
      ]) {
        expect(writes.test(text), text).toBe(true);
      }
      expect(writes.test(`INSERT INTO ${table}_receipts (x)`)).toBe(false);
      expect(writes.test(`SELECT * FROM ${table}`)).toBe(false);
    });
  },
);

describe.each(engines())('the migrated schema on $name', (engine) => {
  it('has no trigger: every table is written by its module alone, never by another on its behalf', async () => {
    const db = await engine.open();
    try {
      const triggers = await db.withOwner((sql) =>
        sql.query<{ relname: string; tgname: string }>(
          `SELECT c.relname, t.tgname FROM pg_trigger t
             JOIN pg_class c ON c.oid = t.tgrelid
             JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = 'public' AND NOT t.tgisinternal
            ORDER BY 1, 2`,
        ),
      );
      expect(triggers).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
