import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { demoEmail } from '../src/db/seed/demo.ts';
import { paymentsPageSql } from '../src/modules/invoices/repository.ts';
import { engines } from './engines.ts';

type PlanNode = {
  'Node Type': string;
  'Parent Relationship'?: string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
};

/** Every node of a plan, and the nodes of its main path (subplans and init plans left out). */
function walk(node: PlanNode, mainOnly: boolean): PlanNode[] {
  const children = (node.Plans ?? []).filter(
    (child) => !mainOnly || !['SubPlan', 'InitPlan'].includes(child['Parent Relationship'] ?? ''),
  );
  return [node, ...children.flatMap((child) => walk(child, mainOnly))];
}

/**
 * "Mis pagos" reads a page of a customer's instalments (invoices/repository.ts paymentsPageSql).
 * Its cost must not grow with the customer's history nor with the tenant's payments (issue 22,
 * 10,000,000 invoices): the page comes in the order of the (tenant, customer, due date) index, with
 * no sort of the whole range (an ORDER BY on the output's to_char text had made one), and each
 * paid row finds its receipt through the payment items' index by instalment (migration 030; the
 * primary key served it by tenant alone). Sequential scans are off, and the tenant gets thousands
 * of payment items, so that the test data plans as a large table does.
 */
describe.each(engines())('the Mis pagos page query on $name', (engine) => {
  let db: Database;
  let customerId = '';

  beforeAll(async () => {
    db = await engine.open();
    const [row] = await db.withOwner((sql) =>
      sql.query<{ id: string }>(
        `SELECT id FROM customers WHERE tenant_id = 'demo' AND email = $1`,
        [demoEmail],
      ),
    );
    customerId = row?.id ?? '';
    // Enough paid items in the tenant (40 payments of every instalment) that the planner weighs
    // a read of all of them against the index, as with a real tenant's history.
    await db.withOwner(async (sql) => {
      await sql.query(
        `INSERT INTO payment_attempts (tenant_id, customer_id, order_number, merchant_code, terminal, amount_cents, kind, status)
         SELECT 'demo', $1, '9999' || lpad(g::text, 8, '0'), '999008881', '1', 100, 'payment', 'paid'
           FROM generate_series(1, 40) g`,
        [customerId],
      );
      await sql.query(
        `INSERT INTO payment_attempt_items (tenant_id, attempt_id, instalment_id, amount_cents, active)
         SELECT 'demo', a.id, e.id, e.amount_cents, false
           FROM payment_attempts a CROSS JOIN instalments e
          WHERE a.tenant_id = 'demo' AND a.order_number LIKE '9999%' AND e.tenant_id = 'demo'`,
      );
      await sql.query('ANALYZE payment_attempt_items');
      await sql.query('ANALYZE payment_attempts');
    });
  });
  afterAll(() => db.close());

  const plan = (dir: 'ASC' | 'DESC') =>
    db.withTenant('demo', async (sql) => {
      await sql.query('SET LOCAL enable_seqscan = off');
      const [row] = await sql.query<{ 'QUERY PLAN': unknown }>(
        `EXPLAIN (FORMAT JSON) ${paymentsPageSql(`current_setting('app.tenant_id')`, 'AND $4::date IS NOT NULL', dir)}`,
        [customerId, '2000-01-01', '2100-01-01', '2026-11-27', 21, 0],
      );
      const raw = row?.['QUERY PLAN'];
      const parsed = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: PlanNode }];
      return parsed[0].Plan;
    });

  it.each(['DESC', 'ASC'] as const)(
    'reads the page in index order, %s, without sorting the range',
    async (dir) => {
      const main = walk(await plan(dir), true);
      expect(customerId).not.toBe('');
      expect(main.map((n) => n['Node Type'])).not.toContain('Sort');
      expect(main.find((n) => n['Relation Name'] === 'instalments')?.['Index Name']).toBe(
        'instalments_customer_due',
      );
    },
  );

  it("finds each paid row's receipt through the payment items' index by instalment", async () => {
    const items = walk(await plan('DESC'), false).filter(
      (n) => n['Relation Name'] === 'payment_attempt_items',
    );
    expect(items.length).toBeGreaterThan(0);
    // An index scan names its index; a bitmap heap scan, the bitmap index scans under it.
    for (const node of items) {
      const indexes = walk(node, false)
        .map((n) => n['Index Name'])
        .filter(Boolean);
      expect(indexes).toEqual(['payment_attempt_items_instalment']);
    }
  });
});
