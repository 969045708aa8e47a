import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { demoEmail, demoPassword } from '../src/db/seed/demo.ts';
import { generateApiKey, hashApiKey } from '../src/modules/admin/api-keys.ts';
import { startApi, type ApiProcess } from './support/api-process.ts';
import { cloneTemplate, type TestDatabase } from './support/database.ts';
import { authed, send, signIn } from './support/http.ts';

const { logDir, postgres, template } = inject('resilience');

/** An invoice of `lines` lines and one instalment, for the demo tenant's first customer. */
function longInvoice(id: string, lines: number, lineNo = 1) {
  const base = 1_000 * lines;
  return {
    id,
    customer_code: 'DF-000123',
    invoice_date: '2026-03-01',
    base_cents: base,
    vat_cents: base * 0.21,
    total_cents: base * 1.21,
    lines: Array.from({ length: lines }, (_, j) => ({
      line_no: j + lineNo,
      person: `Alumno ${j + 1}`,
      concept: `Actividad ${j + 1}: cuota mensual`,
      quota: 'Marzo 2026',
      quantity: 1,
      unit_price_cents: 1_000,
      vat_rate: 21,
    })),
    instalments: [{ seq: 1, due_date: '2026-03-05', amount_cents: base * 1.21 }],
  };
}

/**
 * Light requests of another tenant, one after another, until `until` settles: how many of them
 * were answered (200) before it did.
 */
async function lightRequestsDuring(
  until: Promise<unknown>,
  light: () => Promise<{ status: number }>,
): Promise<number> {
  let settled = false;
  void until.finally(() => (settled = true));
  let answered = 0;
  while (!settled) {
    const answer = await light();
    if (settled) break;
    expect(answer.status).toBe(200);
    answered += 1;
  }
  return answered;
}

/** A PUT whose promise says when the whole body has been handed to the kernel, then its answer. */
function putLarge(url: string, headers: Record<string, string>, body: string) {
  let sent: () => void = () => {};
  const bodySent = new Promise<void>((resolve) => (sent = resolve));
  const answer = new Promise<number>((resolve, reject) => {
    const req = request(url, { method: 'PUT', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body, () => sent());
  });
  return { bodySent, answer };
}

describe("one tenant's heavy work beside another tenant's requests", () => {
  let db: TestDatabase;
  let api: ApiProcess | undefined;
  let apiKey: string;
  beforeAll(async () => {
    db = await cloneTemplate(postgres, template, 'heavy');
    apiKey = generateApiKey();
    await db.query(
      `INSERT INTO api_keys (tenant_id, name, prefix, key_hash) VALUES ('demo', 'heavy', $1, $2)`,
      [apiKey.slice(0, 12), hashApiKey(apiKey)],
    );
    api = await startApi({ name: 'heavy', logDir, databaseUrl: db.url });
  });
  afterAll(async () => {
    await api?.stop();
    await db?.drop();
  });

  it("answers tenant 1's requests while tenant demo's 500-line PDFs are drawn", async () => {
    const server = api as ApiProcess;
    const admin = { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` };
    const invoices = Array.from({ length: 4 }, (_, i) => longInvoice(`LONG-${i}`, 500));
    const put = await send(`${server.url}/demo/api/1.0/admin/invoices`, {
      method: 'PUT',
      headers: admin,
      body: JSON.stringify({ invoices }),
      timeoutMs: 60_000,
    });
    expect(put.status, put.body).toBe(200);

    const demo = authed(
      server.url,
      'demo',
      await signIn(server.url, 'demo', demoEmail, demoPassword),
    );
    const one = authed(server.url, '1', await signIn(server.url, '1', demoEmail, demoPassword));
    const links: string[] = [];
    for (const { id } of invoices) {
      const link = await demo('POST', '/invoice/pdf', { invoice_id: id });
      expect(link.status, link.body).toBe(200);
      links.push((JSON.parse(link.body) as { url: string }).url);
    }
    const range = { datefrom: '20000101', dateto: '20991231', page: 1 };
    const light = () => one('POST', '/invoices', range);
    expect((await light()).status).toBe(200);

    const pdfs = Promise.all(links.map((url) => send(server.url + url, { timeoutMs: 120_000 })));
    const answered = await lightRequestsDuring(pdfs, light);
    for (const pdf of await pdfs) {
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
    }
    console.log(`${answered} requests of tenant 1 answered while 4 PDFs of 500 lines were drawn`);
    // Drawn on the event loop, each PDF held every request until it was done: one or two light
    // requests got through between two documents. Each takes a few milliseconds alone.
    expect(answered).toBeGreaterThanOrEqual(12);
  });

  it("answers tenant 1's requests while tenant demo's 10,000-invoice batch is parsed and checked", async () => {
    const server = api as ApiProcess;
    const one = authed(server.url, '1', await signIn(server.url, '1', demoEmail, demoPassword));
    const range = { datefrom: '20000101', dateto: '20991231', page: 1 };
    const light = () => one('POST', '/invoices', range);
    expect((await light()).status).toBe(200);
    // Every invoice is refused by the contract (line 0): all the work is parsing and checking
    // ~8 MB of JSON, and the answer is a 422 with 10,000 errors; nothing is written.
    const batch = JSON.stringify({
      invoices: Array.from({ length: 10_000 }, (_, i) => longInvoice(`BAD-${i}`, 5, 0)),
    });
    const { bodySent, answer } = putLarge(
      `${server.url}/demo/api/1.0/admin/invoices`,
      { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
      batch,
    );
    // Counted from when the body has left: the server then only reads its end and checks it.
    await bodySent;
    const answered = await lightRequestsDuring(answer, light);
    expect(await answer).toBe(422);
    console.log(
      `${answered} requests of tenant 1 answered while a 10,000-invoice batch was checked`,
    );
    // Checked on the event loop, the batch held every request until its 422 was sent.
    expect(answered).toBeGreaterThanOrEqual(5);
    expect(
      await db.query<{ n: string }>(`SELECT count(*) AS n FROM invoices WHERE id LIKE 'BAD-%'`),
    ).toEqual([{ n: '0' }]);
  });
});
