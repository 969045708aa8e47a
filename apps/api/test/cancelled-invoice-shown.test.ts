import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { engines } from './engines.ts';
import { openProviderFixture, type ProviderFixture } from './provider-fixture.ts';
import type { signedIn } from './session.ts';

/*
 * Money review 2: what the customer is shown of an invoice the provider CANCELLED
 * (PUT /admin/invoices with `cancelled: true`; the batch leaves its instalments `pending`, as the
 * contract says: states change only through POST /admin/instalments/status).
 *
 * The balance ("what you owe", GET /balance), the summary and the money paths (session 34) treat
 * such an invoice as owed by nobody, and paying it is a 422 `not_payable`. But "Mis pagos"
 * (POST /payments) and the invoice's detail read the instalment's own state only:
 * - "Mis pagos" lists the instalment under the "pending/overdue" filters as `overdue`, with the
 *   row's "Pagar" (the web app shows it for every unpaid status), which then answers 422;
 * - the invoice's detail (state `cancelled`) lists its instalment `overdue` ("Vencido").
 * Today: the home says the customer owes nothing while "Mis pagos" and the invoice say 43.21 €
 * overdue. Should: an instalment of a cancelled invoice is `cancelled` wherever it is shown, is left
 * out of the unpaid filters, and the invoice has nothing to pay (as `repository.ts` of payments
 * already does with `statusUnlessCancelled`).
 */

describe.each(engines())('a cancelled invoice as the customer sees it on $name', (engine) => {
  let db: Database;
  let me: Awaited<ReturnType<typeof signedIn>>;

  let fixture: ProviderFixture;
  beforeAll(async () => {
    fixture = await openProviderFixture(engine, { PUBLIC_URL: 'http://localhost:3000' });
    ({ db, me } = fixture);
  });
  afterAll(async () => fixture.close());

  const putInvoice = (id: string, cents: number, cancelled: boolean) =>
    fixture.putInvoice(id, cents, { cancelled });

  it('shows it owed by nobody: not among the unpaid payments, its instalment cancelled', async () => {
    expect((await putInvoice('REV2M-CXL-SEEN', 4321, false)).statusCode).toBe(200);
    // The provider cancels it (issued in error).
    expect((await putInvoice('REV2M-CXL-SEEN', 4321, true)).statusCode).toBe(200);
    const [item] = await db.withOwner((sql) =>
      sql.query<{ id: string }>(
        "SELECT id::text FROM instalments WHERE tenant_id = 'demo' AND invoice_id = 'REV2M-CXL-SEEN'",
      ),
    );
    if (!item) throw new Error('no instalment');

    // Control: the home's balance says it is owed by nobody, and paying it is refused.
    const balance = (await me.get('/balance')).json<{ pay: { payment_ids: string[] } }>();
    expect(balance.pay.payment_ids).not.toContain(item.id);
    const pay = await me.post('/redsys/init-payment', { amount: 43.21, payment_ids: [item.id] });
    expect(pay.statusCode).toBe(422);

    type Row = { payment_id: string; status: string; amount: number };
    const list = async (filters: object) =>
      (
        await me.post('/payments', {
          datefrom: '20000101',
          dateto: '20991231',
          page: '1',
          ...filters,
        })
      ).json<{ payments: Row[] }>().payments;
    const unpaid = (await list({ pending: true, overdue: true })).filter(
      (p) => p.payment_id === item.id,
    );
    const listedAll = (await list({})).filter((p) => p.payment_id === item.id);
    const { invoice: detail } = (await me.post('/invoice', { invoice_id: 'REV2M-CXL-SEEN' })).json<{
      invoice: { state: string; payments: { payment_id: string; status: string }[] };
    }>();
    // Today: the unpaid filter lists it `overdue` (the web app adds "Pagar", which answers 422),
    // the plain list says `overdue`, and the cancelled invoice's detail shows its instalment
    // `overdue` ("Vencido").
    expect({
      unpaid: unpaid.map((p) => p.status),
      listed: listedAll.map((p) => p.status),
      invoice: { state: detail.state, instalments: detail.payments.map((p) => p.status) },
    }).toEqual({
      unpaid: [],
      listed: ['cancelled'],
      invoice: { state: 'cancelled', instalments: ['cancelled'] },
    });
  });
});
