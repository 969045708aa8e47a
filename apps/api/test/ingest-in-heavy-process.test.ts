import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { createHeavyWork, type HeavyWork } from '../src/workers/pool.ts';
import { engines } from './engines.ts';

/**
 * Issue 20 (isolation): on PostgreSQL the invoice batch runs whole in a heavy-work process with
 * the process's own connections, and every answer the route gives comes back as data (errors
 * rebuilt in the server: workers/ingest-invoices.ts).
 */
const postgres = engines().filter((engine) => engine.name === 'postgres');

describe.each(postgres)('an invoice batch in a heavy-work process ($name)', (engine) => {
  let db: Database;
  let pool: HeavyWork;
  const invoice = (id: string, customer: string) => ({
    id,
    customer_code: customer,
    invoice_date: '2026-03-01',
    base_cents: 1000,
    vat_cents: 210,
    total_cents: 1210,
    lines: [{ line_no: 1, concept: 'Cuota', quantity: 1, unit_price_cents: 1000, vat_rate: 21 }],
    instalments: [{ seq: 1, due_date: '2026-03-05', amount_cents: 1210 }],
  });
  const body = (invoices: unknown[]) => Buffer.from(JSON.stringify({ invoices }));

  beforeAll(async () => {
    db = await engine.open();
    pool = createHeavyWork({ threads: 1, maxQueue: 4, database: db.postgres });
  });
  afterAll(async () => {
    await pool.close();
    await db.close();
  });

  it("is offered only with PostgreSQL: the embedded database lives in the server's process", async () => {
    expect(pool.ingestInvoices).not.toBeNull();
    const embedded = createHeavyWork({ threads: 1, maxQueue: 1 });
    expect(embedded.ingestInvoices).toBeNull();
    await embedded.close();
  });

  it('writes the batch through its own connections under the tenant, and a replay is unchanged', async () => {
    const ingest = pool.ingestInvoices;
    if (!ingest) throw new Error('no heavy-process path');
    const first = await ingest('1', body([invoice('THREAD-1', 'LE-000123')]));
    expect(first).toEqual({ kind: 'done', result: { created: 1, updated: 0, unchanged: 0 } });
    const again = await ingest('1', body([invoice('THREAD-1', 'LE-000123')]));
    expect(again).toEqual({ kind: 'done', result: { created: 0, updated: 0, unchanged: 1 } });
    const rows = await db.withOwner((sql) =>
      sql.query<{ tenant_id: string; total_cents: number }>(
        `SELECT tenant_id, total_cents FROM invoices WHERE id = 'THREAD-1'`,
      ),
    );
    expect(rows).toEqual([{ tenant_id: '1', total_cents: 1210 }]);
  });

  it('answers a body that is not JSON, a field error and an unknown customer as data', async () => {
    const ingest = pool.ingestInvoices;
    if (!ingest) throw new Error('no heavy-process path');
    expect(await ingest('1', Buffer.from('{"invoices": ['))).toEqual({
      kind: 'refused',
      prepared: { kind: 'malformed' },
    });
    const invalid = await ingest('1', body([{ ...invoice('THREAD-2', 'LE-000123'), id: '' }]));
    expect(invalid.kind).toBe('refused');
    // Known only against what is stored: the heavy process's transaction finds no such customer.
    expect(await ingest('1', body([invoice('THREAD-3', 'NOBODY')]))).toEqual({
      kind: 'fields',
      errors: { 'invoices.0.customer_code': ['unknown_customer'] },
    });
    // Another tenant's customer is unknown here as well (row-level security on the thread too).
    expect(await ingest('demo', body([invoice('THREAD-4', 'LE-000123')]))).toMatchObject({
      kind: 'fields',
    });
  });
});
