/**
 * Input review (session 35): `zipEntryName` turns every character of an
 * invoice id outside `[A-Za-z0-9_.-]` into `_`, so distinct ids the ingestion accepts (ZKey takes any
 * 1-64 characters) become the same file name inside the customer's invoice archive.
 *
 * Scenario: the provider numbers invoices by series as Spanish software does (`FV/2026/7`), and
 * also has `FV_2026_7` (or `FV-Ñ7` / `FV-Ç7`, which both become `FV-_7`). The customer selects
 * both invoices and downloads the ZIP (`POST /documents/invoices-zip` then the signed link).
 *
 * Today: the ZIP holds two entries both named `FV_2026_7.pdf`; every unzip tool keeps one (or
 * asks to overwrite), so the customer silently loses an invoice from the archive (here
 * `unzipSync` answers one file for two invoices).
 * Should: one entry per invoice, with a distinct name (e.g. add a suffix `-2` or a short digest
 * of the id when the sanitised name was already used, in `zipEntryName`/the route's `entries`).
 */
import type { FastifyInstance } from 'fastify';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { createApiKey } from '../src/modules/admin/api-keys.ts';
import { engines, openTestApp } from './engines.ts';
import { signedIn } from './session.ts';

const invoice = (id: string, customer_code: string) => ({
  id,
  customer_code,
  invoice_date: '2026-03-01',
  base_cents: 1000,
  vat_cents: 210,
  total_cents: 1210,
  lines: [{ line_no: 1, concept: 'Cuota', quantity: 1, unit_price_cents: 1000, vat_rate: 21 }],
  instalments: [{ seq: 1, due_date: '2026-03-05', amount_cents: 1210 }],
});

describe.each(engines())('invoice archive entry names on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, app, close } = await openTestApp(engine, { PUBLIC_URL: 'http://localhost:3000' }));
  });
  afterAll(async () => close());

  it('gives each selected invoice its own file in the ZIP', async () => {
    const me = await signedIn(app, 'demo');
    const key = (await db.withTenant('demo', (sql) => createApiKey(sql, 'review'))).key;
    const ids = ['FV/2026/7', 'FV_2026_7'];
    const put = await app.inject({
      method: 'PUT',
      url: '/demo/api/1.0/admin/invoices',
      headers: { authorization: `Bearer ${key}` },
      payload: { invoices: ids.map((id) => invoice(id, me.user.code)) },
    });
    expect(put.statusCode, put.body).toBe(200);

    const link = await me.post('/documents/invoices-zip', { invoice_ids: ids });
    expect(link.statusCode, link.body).toBe(200);
    expect(link.json()).toMatchObject({ count: 2 });
    const res = await app.inject({ method: 'GET', url: link.json<{ url: string }>().url });
    expect(res.statusCode).toBe(200);
    const files = unzipSync(new Uint8Array(res.rawPayload));
    expect(Object.keys(files)).toHaveLength(2);
  });
});
