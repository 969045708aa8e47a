import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { engines } from './engines.ts';
import { openProviderFixture, type ProviderFixture } from './provider-fixture.ts';
import type { signedIn } from './session.ts';

/*
 * Returned direct debits (review of documents / returned-debits): a return is recorded, and the
 * customer told to pay it (with the bank's fee), on an instalment of an invoice the provider
 * cancelled.
 *
 * What was wrong (fixed in session 37): docs/ingestion.md says a `cancelled` instalment cannot be returned
 * (`invalid_value` on `returns.N`): it is owed by nobody. The report (returned-debits/service.ts
 * `report`, and ingestion's status route) checks only `instalments.status = 'cancelled'`. An
 * instalment of a cancelled invoice keeps its own status (`pending`), though every screen shows it
 * `cancelled` and nothing of it is owed (invoices/repository.ts `invoiceCancelled`, the balance's
 * `NOT i.cancelled`). So the return is taken (`created: 1`), the instalment becomes `returned`,
 * and the customer gets the `debit_returned` notification and e-mail: "your direct debit was
 * returned, pay it (and the fee)", with a "Pagar" link to a payment the portal then refuses.
 *
 * Why it matters: the organisation's portal tells a customer they owe money (and a bank fee) on
 * an invoice it cancelled; they cannot pay it, and the statement and balance say nothing is owed.
 *
 * Right behaviour: an instalment of a cancelled invoice is treated as cancelled: the report is a
 * 422 `invalid_value` on `returns.0`, nothing is written and nobody is told.
 */

describe.each(engines())('a returned debit of a cancelled invoice on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let fixture: ProviderFixture;

  beforeAll(async () => {
    fixture = await openProviderFixture(engine, { PUBLIC_URL: 'http://localhost:3000' });
    ({ db, app, me } = fixture);
  });
  afterAll(async () => fixture.close());

  const noticesOf = (invoiceId: string) =>
    db.withOwner((sql) =>
      sql.query<{ type: string }>(
        `SELECT type FROM notifications
          WHERE tenant_id = 'demo' AND type = 'debit_returned' AND params->>'invoice_id' = $1`,
        [invoiceId],
      ),
    );

  it('refuses the return of an instalment of a cancelled invoice and tells nobody', async () => {
    const id = 'REVD-RET-CANCELLED';
    const put = await fixture.putInvoice(id, 3025, { method: 'Domiciliación' });
    expect(put.statusCode, put.body).toBe(200);
    const cancel = await fixture.putInvoice(id, 3025, { method: 'Domiciliación', cancelled: true });
    expect(cancel.statusCode, cancel.body).toBe(200);
    // Control: the customer's screens say the instalment is cancelled, nothing owed.
    const detail = (await me.post('/invoice', { invoice_id: id })).json<{
      invoice: { payments: { status: string }[] };
    }>().invoice;
    expect(detail.payments.map((p) => p.status)).toEqual(['cancelled']);

    const returned = await app.inject({
      method: 'POST',
      url: '/demo/api/1.0/admin/instalments/returns',
      headers: { authorization: `Bearer ${fixture.apiKey}` },
      payload: {
        returns: [
          {
            invoice_id: id,
            seq: 1,
            return_date: '2026-01-09',
            reason_code: 'AM04',
            fee_cents: 350,
          },
        ],
      },
    });
    // Today: 200 {"created":1,...}, the instalment `returned` and a debit_returned notice.
    expect(returned.statusCode, returned.body).toBe(422);
    expect(returned.json()).toMatchObject({ errors: { 'returns.0': ['invalid_value'] } });
    expect(await noticesOf(id)).toEqual([]);
    expect((await fixture.instalmentOf(id))?.status).toBe('pending');
  });
});
