import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { createApiKey } from '../src/modules/admin/api-keys.ts';
import { buildTestApp, engines } from './engines.ts';

/**
 * Two instances given the same 3,000 new invoices at once, in opposite orders: each invoice is
 * created once and announced once, and neither answers a 500 (session 33's review: both answered
 * `created: 3000` with 6,000 notices, or one deadlocked into a 500). One batch of a tenant runs at
 * a time (ingestion repository `lockTenantBatches`).
 */
describe.each(engines().filter((e) => e.name === 'postgres'))(
  'batches of one tenant on two instances at once, on $name',
  (engine) => {
    let db: Database;
    let one: FastifyInstance;
    let two: FastifyInstance;
    let key: string;
    const lines: string[] = [];
    beforeAll(async () => {
      db = await engine.open();
      const logs = { write: (line: string) => void lines.push(line) };
      one = await buildTestApp(db, { LOG_LEVEL: 'error' }, undefined, logs);
      two = await buildTestApp(db, { LOG_LEVEL: 'error' }, undefined, logs);
      key = (await db.withTenant('demo', (sql) => createApiKey(sql, 'review'))).key;
    });
    afterAll(async () => {
      await one.close();
      await two.close();
      await db.close();
    });
    it('creates overlapping batches sent at once to two instances once, without a 500', async () => {
      const put = (app: FastifyInstance, path: string, payload: object) =>
        app.inject({
          method: 'PUT',
          url: `/demo/api/1.0/admin${path}`,
          payload,
          headers: { authorization: `Bearer ${key}` },
        });
      expect(
        (
          await put(one, '/customers', {
            customers: [{ code: 'DL-1', email: 'dl1@review.test', send_invitation: false }],
          })
        ).statusCode,
      ).toBe(200);
      const invoice = (id: string) => ({
        id,
        customer_code: 'DL-1',
        invoice_date: '2026-03-01',
        base_cents: 100,
        vat_cents: 0,
        total_cents: 100,
        instalments: [{ seq: 1, due_date: '2099-01-01', amount_cents: 100 }],
      });
      const invoices = Array.from({ length: 3000 }, (_, i) =>
        invoice(`DL-${String(i).padStart(5, '0')}`),
      );
      const warm = (n: string) => [invoice(`DL-W-${n}`)];
      expect((await put(one, '/invoices', { invoices: warm('1') })).statusCode).toBe(200);
      expect((await put(two, '/invoices', { invoices: warm('2') })).statusCode).toBe(200);
      const [a, b] = await Promise.all([
        put(one, '/invoices', { invoices }),
        put(two, '/invoices', { invoices: [...invoices].reverse() }),
      ]);
      console.info(a.statusCode, a.body, b.statusCode, b.body);
      const codes = lines.map((l) => /"code":"(\w+)"/.exec(l)?.[1]).filter(Boolean);
      console.info('logged error codes', codes);
      const [told] = await db.withOwner((sql) =>
        sql.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM notifications
          WHERE tenant_id = 'demo' AND type = 'invoice_new' AND params->>'invoice_id' LIKE 'DL-0%'`,
        ),
      );
      const created = [a, b]
        .filter((r) => r.statusCode === 200)
        .reduce((s, r) => s + r.json<{ created: number }>().created, 0);
      // Whichever way they interleave: no 5xx (in some runs a 40P01 deadlock -> 500 internal_error),
      // and the 3,000 invoices created once (in the other runs both batches answer created: 3000).
      expect({
        statuses: [a.statusCode, b.statusCode].map((s) => (s < 500 ? 'ok' : s)),
        created,
        told: told?.n,
      }).toEqual({ statuses: ['ok', 'ok'], created: 3000, told: 3000 });
    }, 90_000);
  },
);
