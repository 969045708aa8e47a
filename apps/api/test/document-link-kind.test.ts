/**
 * Review (input → 500): the three document links (receipt, statement, invoice archive) are signed
 * with ONE key (`deriveKey(rootSecret, 'documents')`) and carry no claim saying which kind of
 * document they open. The statement route only checks the signature and the tenant, then reads
 * `claims.f` / `claims.u` and hands them to `apiToIso`.
 *
 * Scenario: a customer asks for an archive of a selection of invoices (`POST
 * /documents/invoices-zip` with `invoice_ids`: its token carries `h`, no `f`/`u`) and pastes the
 * token into the statement URL (`/documents/statement/<token>`), a tampering of a genuine signed
 * link that any customer can do.
 *
 * Today: `service.statement(actor, undefined, undefined)` → `apiToIso(undefined)` throws a
 * TypeError → 500 `internal` (and an "unhandled error" in the log).
 * Should: a link of another kind is "expired or invalid", the documented 404, like a bad signature.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, openTestApp } from './engines.ts';
import { signedIn } from './session.ts';

const range = { datefrom: '20000101', dateto: '20991231' };

describe.each(engines())('document links used as another kind of document on $name', (engine) => {
  let app: FastifyInstance;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ app, close } = await openTestApp(engine, { PUBLIC_URL: 'http://localhost:3000' }));
  });
  afterAll(async () => close());

  it('answers 404, not 500, to an invoice-archive token opened as a statement', async () => {
    const me = await signedIn(app, 'demo');
    const invoices = (await me.post('/invoices', { ...range, page: '1' })).json<{
      invoices: { invoice_id: string }[];
    }>().invoices;
    const first = invoices[0]?.invoice_id;
    expect(first).toBeTruthy();
    const link = await me.post('/documents/invoices-zip', { invoice_ids: [first] });
    expect(link.statusCode).toBe(200);
    const { url } = link.json<{ url: string }>();
    const token = new URL(url, 'http://x').pathname.split('/').at(-1) ?? '';

    const res = await app.inject({
      method: 'GET',
      url: `/demo/api/1.0/documents/statement/${token}`,
    });
    expect(res.statusCode).toBe(404);
  });
});
