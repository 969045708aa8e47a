import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { buildTestApp, engines } from './engines.ts';
import { signedIn } from './session.ts';

/*
 * Scenario: a customer adds a bank account for direct debit (the demo tenant has a SEPA creditor
 * id), which signs a SEPA mandate, then downloads the mandate's PDF from the portal: the app asks
 * POST /sepa-mandates/{id}/pdf for a five-minute signed link and opens
 * GET /{tenant}/api/1.0/sepa-mandates/pdf/<token>. Whoever has that path gets the PDF (name,
 * NIF, IBAN, the signature's evidence) without signing in, like the invoice PDF's link.
 * Today: lib/log-redaction.ts redacts only /invoice/pdf/ and /documents/(receipt|statement|
 * invoices-zip)/; the mandate link was added later (issue 23, item 6) and the request's log line
 * keeps the whole path, token included, at info level.
 * Should: `/sepa-mandates/pdf/[redacted]` in the log (add the path to `signedPath`, and to
 * log-redaction.test.ts and access-in-logs.test.ts).
 */
describe.each(engines())('what the server logs of a SEPA mandate PDF link on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  const lines: string[] = [];

  beforeAll(async () => {
    db = await engine.open();
    app = await buildTestApp(db, { LOG_LEVEL: 'info' }, randomBytes(32), {
      write: (line) => void lines.push(line),
    });
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  it('logs no signed mandate PDF link', async () => {
    const me = await signedIn(app, 'demo');
    const added = await app.inject({
      method: 'POST',
      url: '/demo/api/1.0/payment-methods/bank-account',
      headers: { authorization: `Bearer ${me.token}` },
      payload: {
        iban: 'ES91 2100 0418 4502 0005 1332',
        holder: 'Laura García Martín',
        nif: '12345678Z',
        mandate_accepted: true,
        mandate_language: 'es',
      },
      remoteAddress: '198.51.100.23',
    });
    expect(added.statusCode, added.body).toBeLessThan(300);
    const [mandate] = (await me.get('/sepa-mandates')).json<{ mandates: { id: string }[] }>()
      .mandates;
    const link = await app.inject({
      method: 'POST',
      url: `/demo/api/1.0/sepa-mandates/${mandate?.id}/pdf`,
      headers: { authorization: `Bearer ${me.token}` },
      payload: { language: 'es' },
    });
    expect(link.statusCode, link.body).toBe(200);
    const { url } = link.json<{ url: string }>();
    const opened = await app.inject({ method: 'GET', url });
    expect(opened.statusCode).toBe(200);
    expect(opened.headers['content-type']).toBe('application/pdf');

    const token = url.slice(url.lastIndexOf('/') + 1);
    expect(token.length).toBeGreaterThan(20);
    const logged = lines.join('');
    expect(logged).toContain('"msg":"request completed"');
    expect(logged).not.toContain(token);
  });
});
