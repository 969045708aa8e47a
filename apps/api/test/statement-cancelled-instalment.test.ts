import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from './engines.ts';
import { statementCsv as statementOf } from './statement-csv.ts';
import { openProviderFixture, type ProviderFixture } from './provider-fixture.ts';
import type { signedIn } from './session.ts';

/*
 * Money documents (session 36's review): the statement does not count an instalment the provider
 * cancelled as owed.
 *
 * The provider may cancel one instalment of an invoice (`POST /admin/instalments/status`,
 * `cancelled`) without cancelling the invoice: the customer owes it no more. "Mis pagos" shows it
 * `cancelled`, with nothing to pay, and the balance (`GET /balance`) leaves it out.
 *
 * Before session 36 the statement (documents/repository.ts `statement`) charged every invoice that
 * is not cancelled at its whole `total_cents`, and credited only the instalments `paid`: an
 * invoice of 100 € whose second instalment of 40 € was cancelled left 100 € owed on the statement
 * of its month. An invoice now charges its total but its cancelled instalments: 60 €, what
 * /payments and /balance say.
 */

describe.each(engines())('a cancelled instalment on the statement on $name', (engine) => {
  let app: FastifyInstance;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let fixture: ProviderFixture;

  beforeAll(async () => {
    fixture = await openProviderFixture(engine, { PUBLIC_URL: 'http://localhost:3000' });
    ({ app, me } = fixture);
  });
  afterAll(async () => fixture.close());

  const admin = (method: 'PUT' | 'POST', path: string, payload: object) =>
    app.inject({
      method,
      url: `/demo/api/1.0/admin${path}`,
      headers: { authorization: `Bearer ${fixture.apiKey}` },
      payload,
    });

  const statementCsv = (datefrom: string, dateto: string) => statementOf(app, me, datefrom, dateto);

  it('owes on the statement only what is still owed: not the cancelled instalment', async () => {
    const id = 'REVM-STMT-CANC';
    const put = await admin('PUT', '/invoices', {
      invoices: [
        {
          id,
          customer_code: me.user.code,
          // A month of its own, long before the demo data: the statement's movements are this invoice.
          invoice_date: '2012-06-15',
          base_cents: 10000,
          vat_cents: 0,
          total_cents: 10000,
          lines: [
            { line_no: 1, concept: 'Curso', quantity: 1, unit_price_cents: 10000, vat_rate: 0 },
          ],
          instalments: [
            { seq: 1, due_date: '2012-06-20', amount_cents: 6000, method: 'Tarjeta' },
            { seq: 2, due_date: '2012-07-20', amount_cents: 4000, method: 'Tarjeta' },
          ],
        },
      ],
    });
    expect(put.statusCode, put.body).toBe(200);
    const cancel = await admin('POST', '/instalments/status', {
      changes: [{ invoice_id: id, seq: 2, status: 'cancelled' }],
    });
    expect(cancel.statusCode, cancel.body).toBe(200);

    // Control: the customer's own screens say 60 € is owed of it, 40 € cancelled.
    const detail = (await me.post('/invoice', { invoice_id: id })).json<{
      invoice: { pending: number; payments: { status: string; import: number }[] };
    }>().invoice;
    expect(detail.pending).toBe(60);
    expect(detail.payments.map((p) => p.status)).toEqual(['overdue', 'cancelled']);

    const june = await statementCsv('20120601', '20120630');
    // Today: 10000 (the cancelled 40 € is still owed on the statement).
    expect(june.closing - june.opening).toBe(6000);
  });
});
