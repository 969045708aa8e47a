import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { indexStatements, noTransactionHeader } from './migrate.ts';

describe('a migration outside a transaction', () => {
  it('may build and drop indexes concurrently, comments and line breaks aside', () => {
    const script = `${noTransactionHeader}
-- Payments by instalment, without blocking the writes of a large table.
CREATE INDEX CONCURRENTLY IF NOT EXISTS payments_by_day
    ON payments (tenant_id, created_at);
create unique index concurrently if not exists Receipts_Number on receipts (tenant_id, number);
DROP INDEX CONCURRENTLY IF EXISTS payments_old;
`;
    expect(indexStatements('031-x.sql', script)).toEqual([
      {
        text: 'CREATE INDEX CONCURRENTLY IF NOT EXISTS payments_by_day ON payments (tenant_id, created_at)',
        index: 'payments_by_day',
        builds: true,
      },
      {
        text: 'create unique index concurrently if not exists Receipts_Number on receipts (tenant_id, number)',
        index: 'receipts_number',
        builds: true,
      },
      {
        text: 'DROP INDEX CONCURRENTLY IF EXISTS payments_old',
        index: 'payments_old',
        builds: false,
      },
    ]);
  });

  it.each([
    ['a plain index build, which would block writes', 'CREATE INDEX IF NOT EXISTS a ON t (x);'],
    ['a build that is not idempotent', 'CREATE INDEX CONCURRENTLY a ON t (x);'],
    ['a data change, which must not half-apply', 'UPDATE t SET x = 1;'],
    [
      'a second statement hidden after a build',
      'CREATE INDEX CONCURRENTLY IF NOT EXISTS a ON t (x); DELETE FROM t;',
    ],
    ['a quoted name', 'CREATE INDEX CONCURRENTLY IF NOT EXISTS "a b" ON t (x);'],
  ])('refuses %s, before anything runs', (_, statement) => {
    expect(() => indexStatements('031-x.sql', `${noTransactionHeader}\n${statement}\n`)).toThrow(
      /031-x\.sql runs outside a transaction/,
    );
  });

  it('refuses a file with no statement', () => {
    expect(() => indexStatements('031-x.sql', `${noTransactionHeader}\n-- nothing\n`)).toThrow(
      /no statement/,
    );
  });

  it("finds no concurrent build in the release's migrations that run in a transaction", () => {
    const dir = new URL('./migrations/', import.meta.url);
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.sql'))) {
      const script = readFileSync(new URL(file, dir), 'utf8');
      if (script.startsWith(noTransactionHeader))
        expect(indexStatements(file, script)).not.toEqual([]);
      // In a transaction PostgreSQL refuses it (25001): found here, not at a deploy.
      else expect(script.replace(/--.*$/gm, '')).not.toMatch(/\bCONCURRENTLY\b/i);
    }
  });
});
