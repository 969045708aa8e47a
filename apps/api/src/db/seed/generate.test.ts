import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, engines } from '../../../test/engines.ts';
import { signedIn } from '../../../test/session.ts';
import { hashPassword } from '../../modules/auth/passwords.ts';
import type { Database } from '../database.ts';
import {
  defaultLoadShape,
  generateLoad,
  loadCustomerEmail,
  loadPassword,
  loadRows,
  loadTables,
  loadTenantId,
  loadUuid,
  type LoadShape,
} from './generate.ts';

const shape: LoadShape = {
  ...defaultLoadShape,
  tenants: 2,
  customersPerTenant: 3,
  invoicesPerCustomer: 7,
};

describe('generated rows', () => {
  it('name rows with distinct, well-formed UUIDs', () => {
    const ids = [
      loadUuid(1, 0, 0),
      loadUuid(1, 0, 1),
      loadUuid(1, 1, 0),
      loadUuid(2, 0, 0, 0, 1),
      loadUuid(2, 0, 0, 1, 1),
      loadUuid(2, 98, 99_999, 9_999, 3),
    ];
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('are the same whatever the batches', () => {
    const whole = loadRows(shape, 1, 0, 3, 'hash');
    const first = loadRows(shape, 1, 0, 1, 'hash');
    const rest = loadRows(shape, 1, 1, 3, 'hash');
    expect(loadRows(shape, 1, 0, 3, 'hash')).toEqual(whole);
    for (const table of Object.keys(loadTables) as (keyof typeof loadTables)[]) {
      expect([...first[table], ...rest[table]]).toEqual(whole[table]);
      for (const row of whole[table])
        expect(row).toHaveLength(Object.keys(loadTables[table]).length);
    }
    expect(loadRows({ ...shape, seed: 2 }, 1, 0, 3, 'hash')).not.toEqual(whole);
  });

  it('add up: instalments pay exactly each invoice total', () => {
    const rows = loadRows(shape, 0, 0, 3, 'hash');
    expect(rows.customers).toHaveLength(3);
    expect(rows.invoices).toHaveLength(21);
    const owed = new Map<unknown, number>();
    for (const e of rows.instalments) owed.set(e[2], (owed.get(e[2]) ?? 0) + Number(e[6]));
    for (const [, id, , , base, vat, total] of rows.invoices) {
      expect(Number(base) + Number(vat)).toBe(total);
      expect(owed.get(id)).toBe(total);
    }
  });
});

describe.each(engines())('generateLoad on $name', (engine) => {
  let db: Database;
  let passwordHash: string;
  beforeAll(async () => {
    db = await engine.open();
    passwordHash = await hashPassword(loadPassword);
  });
  afterAll(async () => db.close());

  it('fills the shape asked for, next to the existing data', async () => {
    const result = await generateLoad(db, { shape, passwordHash, batchCustomers: 2 });
    expect(result).toMatchObject({ tenants: 2, customers: 6, invoices: 42 });
    const counts = await db.withOwner(async (sql) => {
      const [row] = await sql.query<Record<string, number>>(
        `SELECT (SELECT count(*)::int FROM tenants WHERE id LIKE 'load%') AS tenants,
                (SELECT count(*)::int FROM invoices WHERE tenant_id LIKE 'load%') AS invoices,
                (SELECT count(*)::int FROM invoice_lines WHERE tenant_id LIKE 'load%') AS lines,
                (SELECT count(*)::int FROM instalments WHERE tenant_id LIKE 'load%') AS instalments`,
      );
      return row;
    });
    expect(counts).toEqual({
      tenants: 2,
      invoices: 42,
      lines: result.lines,
      instalments: result.instalments,
    });
  });

  it('gives tenants the API serves and customers who sign in with the known password', async () => {
    const app = await buildTestApp(db);
    try {
      const config = await app.inject({ url: `/${loadTenantId(1)}/api/1.0/visual-config` });
      expect(config.statusCode).toBe(200);
      const customer = await signedIn(app, loadTenantId(1), loadCustomerEmail(2), loadPassword);
      const res = await customer.post('/invoices', {
        datefrom: '20000101',
        dateto: '20991231',
        page: 1,
      });
      expect(res.statusCode).toBe(200);
      const { invoices } = res.json<{ invoices: { invoice_id: string; invoice_date: string }[] }>();
      expect(invoices).toHaveLength(7);
      expect(invoices[0]?.invoice_date).toBe('20261103');
      const dates = invoices.map((i) => i.invoice_date);
      expect(dates).toEqual([...dates].sort().reverse());
    } finally {
      await app.close();
    }
  });

  it('refuses to generate the same tenants twice', async () => {
    await expect(generateLoad(db, { shape, passwordHash })).rejects.toThrow(/already exist/);
  });
});
