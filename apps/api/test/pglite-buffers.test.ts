import { describe, expect, inject, it } from 'vitest';
import { openPglite } from '../src/db/database.ts';

/** The test engine's copies start with a small buffer pool (engines.ts); the demo keeps PGlite's. */
describe('openPglite', () => {
  it('starts with the buffer pool it is given, and PGlite’s own without one', async () => {
    for (const [sharedBuffers, shown] of [
      ['16MB', '16MB'],
      [undefined, '128MB'],
    ] as const) {
      const loadDataDir = new Blob([Buffer.from(inject('pgliteDump'), 'base64')]);
      const db = await openPglite({ loadDataDir, ...(sharedBuffers ? { sharedBuffers } : {}) });
      try {
        const rows = await db.withOwner((sql) =>
          sql.query<{ shared_buffers: string }>('SHOW shared_buffers'),
        );
        expect(rows[0]?.shared_buffers).toBe(shown);
        // The other start settings are PGlite's own still (its public schema first).
        const path = await db.withOwner((sql) =>
          sql.query<{ search_path: string }>('SHOW search_path'),
        );
        expect(path[0]?.search_path).toBe('public');
      } finally {
        await db.close();
      }
    }
  }, 60_000);
});
