import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { demoEmail } from '../src/db/seed/demo.ts';
import { engines } from './engines.ts';
import { openProviderFixture, type ProviderFixture } from './provider-fixture.ts';

/*
 * Session 37 review of the ingestion input: a batch body that is not UTF-8 (an ERP writing Windows-1252 /
 * Latin-1, the usual encoding of Spanish back offices) is silently decoded with U+FFFD in place
 * of every byte that does not decode, and applied.
 *
 * What was wrong (fixed in session 37): the batch calls read the raw bytes and decode them with
 * `Buffer.toString('utf8')` (apps/api/src/modules/ingestion/parse-batch.ts, parseBody), which
 * never fails: `"FV-é"` sent as Latin-1 (0xE9) becomes `"FV-\uFFFD"`, and so does `"FV-è"` (0xE8).
 *
 * Why it matters: two distinct provider keys become the same key. The second invoice is taken for
 * the first: "unchanged" (or it overwrites the first one's amounts, lines and customer), and one
 * of them is never stored; names, addresses and NIFs are stored with "�" and the answer is a 200,
 * so the provider never learns. JSON between systems must be UTF-8 (RFC 8259 §8.1); the contract
 * already refuses "a broken (lone surrogate) character" in every text.
 *
 * Right behaviour: a body that is not valid UTF-8 is refused like malformed JSON (400
 * `bad_request`, or a 422 on the field) and nothing is written, e.g. decoding with
 * `new TextDecoder('utf-8', { fatal: true })`.
 */
describe.each(engines())('a batch body that is not UTF-8 on $name', (engine) => {
  let fixture: ProviderFixture;
  let app: FastifyInstance;
  let db: Database;

  beforeAll(async () => {
    fixture = await openProviderFixture(engine);
    ({ app, db } = fixture);
  });
  afterAll(async () => fixture.close());

  /** The JSON of `body` in UTF-8, with the byte `byte` where `#` was (a Latin-1 letter). */
  const latin1 = (body: object, byte: number) => {
    const bytes = Buffer.from(JSON.stringify(body), 'utf8');
    bytes[bytes.indexOf('#')] = byte;
    return bytes;
  };
  const put = (path: string, bytes: Buffer) =>
    app.inject({
      method: 'PUT',
      url: `/demo/api/1.0/admin${path}`,
      headers: { authorization: `Bearer ${fixture.apiKey}`, 'content-type': 'application/json' },
      payload: bytes,
    });
  const invoice = (id: string, cents: number) => ({
    id,
    customer_code: fixture.me.user.code,
    invoice_date: '2026-01-01',
    base_cents: cents,
    vat_cents: 0,
    total_cents: cents,
    lines: [{ line_no: 1, concept: 'Cuota', quantity: 1, unit_price_cents: cents, vat_rate: 0 }],
    instalments: [{ seq: 1, due_date: '2026-01-05', amount_cents: cents }],
  });
  const invoicesLike = (prefix: string) =>
    db.withOwner((sql) =>
      sql.query<{ id: string; total_cents: string }>(
        "SELECT id, total_cents::text FROM invoices WHERE tenant_id = 'demo' AND id LIKE $1 ORDER BY id",
        [`${prefix}%`],
      ),
    );

  it('refuses an invoice batch in Latin-1 instead of merging two invoice ids into one', async () => {
    // "REV-UTF-é" (50 €) and then "REV-UTF-è" (70 €), as a Latin-1 ERP writes them.
    const first = await put('/invoices', latin1({ invoices: [invoice('REV-UTF-#', 5000)] }, 0xe9));
    const second = await put('/invoices', latin1({ invoices: [invoice('REV-UTF-#', 7000)] }, 0xe8));
    // Today: 200 {"created":1,...}, then 200 {"created":0,"updated":1,...}: the 70 € invoice
    // overwrote the 50 € one, both stored under the id "REV-UTF-\uFFFD".
    expect([first.statusCode, second.statusCode], `${first.body} ${second.body}`).toEqual([
      400, 400,
    ]);
    expect(await invoicesLike('REV-UTF-')).toEqual([]);
  });

  it('refuses a customer batch in Latin-1 instead of storing "�" in the name', async () => {
    const res = await put(
      '/customers',
      latin1(
        {
          customers: [
            { code: fixture.me.user.code, email: demoEmail, name: 'Ram#n', last_name: 'Soler' },
          ],
        },
        0xf3,
      ),
    );
    const [row] = await db.withOwner((sql) =>
      sql.query<{ name: string }>(
        "SELECT name FROM customers WHERE tenant_id = 'demo' AND code = $1",
        [fixture.me.user.code],
      ),
    );
    // Today: 200, and the customer's name is "Ram\uFFFDn".
    expect(res.statusCode, res.body).toBe(400);
    expect(row?.name).not.toContain('\uFFFD');
  });
});
