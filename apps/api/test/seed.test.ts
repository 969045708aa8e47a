import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { demoEmail, secondEmail } from '../src/db/seed/demo.ts';
import { engines } from './engines.ts';

/** PRODUCT.md "Demo data": what a new user must find on a fresh start. */
describe.each(engines())('demo seed on $name', (engine) => {
  let db: Database;
  beforeAll(async () => {
    db = await engine.open();
  });
  afterAll(async () => db.close());

  it('has two tenants with different branding', async () => {
    const rows = await db.withOwner((sql) =>
      sql.query<{ id: string; company_name: string; primary_color: string; has_logo: boolean }>(
        'SELECT id, company_name, primary_color, logo_data IS NOT NULL AS has_logo FROM tenants ORDER BY id',
      ),
    );
    expect(rows.map((r) => r.id)).toEqual(['1', 'demo']);
    expect(new Set(rows.map((r) => r.company_name)).size).toBe(2);
    expect(new Set(rows.map((r) => r.primary_color)).size).toBe(2);
    expect(rows.every((r) => r.has_logo)).toBe(true);
  });

  it.each(['1', 'demo'])(
    'gives tenant %s the demo customer and a second customer',
    async (tenant) => {
      const rows = await db.withTenant(tenant, (sql) =>
        sql.query<{ email: string; password_hash: string }>(
          'SELECT email, password_hash FROM customers ORDER BY email',
        ),
      );
      expect(rows.map((r) => r.email)).toEqual([demoEmail, secondEmail]);
      expect(rows[0]?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    },
  );

  it.each(['1', 'demo'])(
    'gives the demo customer of %s five years of monthly invoices in every state',
    async (tenant) => {
      const stats = await db.withTenant(tenant, async (sql) => {
        const [row] = await sql.query<Record<string, number>>(
          `WITH me AS (SELECT id FROM customers WHERE email = $1),
                inv AS (
                  SELECT i.id, i.cancelled, i.invoice_date, i.total_cents,
                         count(e.*)::int AS parts,
                         count(e.*) FILTER (WHERE e.status = 'paid')::int AS paid,
                         count(e.*) FILTER (WHERE e.status = 'pending' AND e.due_date < current_date)::int AS overdue,
                         count(e.*) FILTER (WHERE e.status = 'pending' AND e.due_date >= current_date)::int AS pending,
                         sum(e.amount_cents)::int AS instalment_total
                    FROM invoices i JOIN instalments e ON e.tenant_id = i.tenant_id AND e.invoice_id = i.id
                   WHERE i.customer_id = (SELECT id FROM me)
                   GROUP BY i.id, i.cancelled, i.invoice_date, i.total_cents)
           SELECT count(*)::int AS invoices,
                  count(*) FILTER (WHERE paid = parts)::int AS fully_paid,
                  count(*) FILTER (WHERE overdue > 0)::int AS with_overdue,
                  count(*) FILTER (WHERE pending > 0)::int AS with_pending,
                  count(*) FILTER (WHERE parts > 1)::int AS split,
                  count(*) FILTER (WHERE paid > 0 AND paid < parts)::int AS partially_paid,
                  count(*) FILTER (WHERE cancelled)::int AS cancelled,
                  count(*) FILTER (WHERE instalment_total <> total_cents)::int AS mismatched,
                  (max(invoice_date) - min(invoice_date))::int AS span_days
             FROM inv`,
          [demoEmail],
        );
        return row;
      });
      expect(stats).toMatchObject({ invoices: 60, cancelled: 1, mismatched: 0, partially_paid: 1 });
      expect(stats?.span_days).toBeGreaterThan(4 * 365);
      expect(stats?.fully_paid).toBeGreaterThan(50);
      expect(stats?.with_overdue).toBeGreaterThanOrEqual(2);
      expect(stats?.with_pending).toBeGreaterThanOrEqual(1);
      expect(stats?.split).toBeGreaterThanOrEqual(5);
    },
  );

  it('gives the demo customer notifications, a saved card and a bank account', async () => {
    const rows = await db.withTenant('demo', (sql) =>
      sql.query<{ kind: string; card_masked: string | null; iban: string | null }>(
        `SELECT kind, card_masked, iban FROM payment_methods
          WHERE customer_id = (SELECT id FROM customers WHERE email = $1) ORDER BY kind`,
        [demoEmail],
      ),
    );
    expect(rows.map((r) => r.kind)).toEqual(['bank_account', 'card']);
    expect(rows[1]?.card_masked).toBe('454881******0004');
    expect(rows[0]?.iban).toMatch(/^ES\d{22}$/);
    const notes = await db.withTenant('demo', (sql) =>
      sql.query<{ unread: number; total: number }>(
        `SELECT count(*) FILTER (WHERE read_at IS NULL)::int AS unread, count(*)::int AS total
           FROM notifications WHERE customer_id = (SELECT id FROM customers WHERE email = $1)`,
        [demoEmail],
      ),
    );
    expect(notes[0]?.total).toBeGreaterThanOrEqual(4);
    expect(notes[0]?.unread).toBeGreaterThanOrEqual(1);
  });

  it('keeps totals consistent: total = base + VAT, lines sum to the base', async () => {
    const bad = await db.withOwner((sql) =>
      sql.query(
        `SELECT i.id FROM invoices i
           JOIN (SELECT tenant_id, invoice_id, sum(round(quantity * unit_price_cents))::bigint AS base
                   FROM invoice_lines GROUP BY tenant_id, invoice_id) l
             ON l.tenant_id = i.tenant_id AND l.invoice_id = i.id
          WHERE l.base <> i.base_cents`,
      ),
    );
    expect(bad).toEqual([]);
  });
});
