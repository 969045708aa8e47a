import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * CONVENTIONS.md "one writer per table": `notifications` is written only by the notifications
 * module's repository (through its service). A second writer (a trigger in a new migration, an
 * INSERT in another module, a tool) would store texts or types the web app cannot word.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const scanned = ['apps', 'packages', 'tools', 'bench'];
const skippedDirs = new Set(['node_modules', 'dist', 'build', 'coverage', '.vite', 'test', 'e2e']);

/** Who may write, and why. */
const allowed: Record<string, string> = {
  'apps/api/src/modules/notifications/repository.ts': 'the owner',
  // Sample history loaded into every table at once, like its invoices (never at run time).
  'apps/api/src/db/seed/demo.ts': 'the demo seed',
};
/** Migrations up to 011 are history: 005's triggers were dropped by 011. */
const lastHistoricalMigration = 11;

const writes =
  /\b(?:insert\s+into|update|delete\s+from|copy|truncate(?:\s+table)?)\s+(?:public\.)?notifications\b|insertRows\(\s*\w+\s*,\s*['"]notifications['"]/i;

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

function isHistoricalMigration(path: string): boolean {
  const match = /apps\/api\/src\/db\/migrations\/(\d+)-[^/]+\.sql$/.exec(path);
  return match !== null && Number(match[1]) <= lastHistoricalMigration;
}

describe('notifications have one writer', () => {
  it('finds statements writing the table only in the notifications module', () => {
    const writers: string[] = [];
    let read = 0;
    for (const top of scanned) {
      for (const file of sourceFiles(join(root, top))) {
        read += 1;
        const path = relative(root, file).split('\\').join('/');
        if (path in allowed || isHistoricalMigration(path)) continue;
        if (writes.test(readFileSync(file, 'utf8'))) writers.push(path);
      }
    }
    expect(read).toBeGreaterThan(200);
    expect(writers).toEqual([]);
  });

  it('would catch a second writer', () => {
    for (const text of [
      'INSERT INTO notifications (tenant_id) VALUES ($1)',
      'insert into public.notifications select 1',
      'UPDATE notifications SET title = $1',
      "await insertRows(sql, 'notifications', [])",
    ]) {
      expect(writes.test(text), text).toBe(true);
    }
    expect(writes.test('INSERT INTO notification_receipts (x)')).toBe(false);
    expect(writes.test('SELECT * FROM notifications')).toBe(false);
  });
});
