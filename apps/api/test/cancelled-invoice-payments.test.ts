import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { todayIso } from '../src/lib/dates.ts';
import { createApiKey } from '../src/modules/admin/api-keys.ts';
import { createDeclineMailSender } from '../src/modules/auto-pay/declines.ts';
import { createAutoPayMailer } from '../src/modules/auto-pay/mail.ts';
import { createAutoPayCharger, type AutoPayJob } from '../src/modules/auto-pay/service.ts';
import type { Mailer } from '../src/modules/mail/mailer.ts';
import { createRedsysClient } from '../src/modules/payments/redsys-client.ts';
import { engines } from './engines.ts';
import {
  openAutoPayFixture,
  resetAutoPay,
  turnOnAutoPay,
  type AutoPayFixture,
} from './auto-pay-fixture.ts';
import type { signedIn } from './session.ts';
import { quiet, testPaymentService } from './lost-notifications.ts';

/*
 * Session 34's money review: an invoice the provider CANCELLED (PUT /admin/invoices with `cancelled: true`).
 * The batch leaves its instalments' states alone (the contract: "an existing instalment's state
 * changes only through POST /admin/instalments/status"), so they stay `pending`. The portal itself
 * says such an invoice is owed by nobody (balance, summary and lists skip `i.cancelled`), and the
 * checkout's contract says a cancelled target is a 422 `not_payable`. But the money paths read the
 * instalment's state only: auto-pay charges the customer's card for it, and a start (a stale tab)
 * takes the customer's money for it, recorded as paid with no refund.
 */

describe.each(engines())('a cancelled invoice on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let simUrl: string;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let apiKey: string;
  let cardId: string;
  const today = todayIso();
  const mailer: Mailer = { send: async () => {} };

  let fixture: AutoPayFixture;
  beforeAll(async () => {
    fixture = await openAutoPayFixture(engine);
    ({ db, app, simUrl, me, cardId } = fixture);
    apiKey = (await db.withTenant('demo', (sql) => createApiKey(sql, 'review2'))).key;
    // The saved card is one the simulator authorises merchant-initiated charges of.
    await db.withOwner((sql) =>
      sql.query("UPDATE payment_methods SET redsys_reference = 'demook0002' WHERE id = $1", [
        cardId,
      ]),
    );
  });
  afterAll(async () => fixture.close());
  beforeEach(async () => resetAutoPay(db));

  /** The provider's ERP sends invoice `id` (one instalment, paid by card, due today). */
  const putInvoice = async (id: string, cents: number, cancelled: boolean) => {
    const res = await app.inject({
      method: 'PUT',
      url: '/demo/api/1.0/admin/invoices',
      headers: { authorization: `Bearer ${apiKey}` },
      payload: {
        invoices: [
          {
            id,
            customer_code: me.user.code,
            invoice_date: today,
            base_cents: cents,
            vat_cents: 0,
            total_cents: cents,
            cancelled,
            lines: [
              { line_no: 1, concept: 'Cuota', quantity: 1, unit_price_cents: cents, vat_rate: 0 },
            ],
            instalments: [{ seq: 1, due_date: today, amount_cents: cents, method: 'Tarjeta' }],
          },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const instalmentOf = async (invoiceId: string) =>
    (
      await db.withOwner((sql) =>
        sql.query<{ id: string; status: string }>(
          "SELECT id::text, status FROM instalments WHERE tenant_id = 'demo' AND invoice_id = $1",
          [invoiceId],
        ),
      )
    )[0];
  const charger = () => {
    const mail = createAutoPayMailer(db, mailer);
    return createAutoPayCharger({
      db,
      payments: testPaymentService(db, simUrl),
      send: (gateway, input) =>
        createRedsysClient({ simulatorUrl: simUrl }).mitCharge(gateway, input),
      mail,
      declineMails: createDeclineMailSender({ db, mail, log: quiet }),
      log: quiet,
    });
  };

  it('auto-pay does not charge the card for an invoice the provider cancelled', async () => {
    await putInvoice('REV2-CXL-1', 4321, false);
    // The provider cancels it (an invoice issued in error): the batch says so.
    await putInvoice('REV2-CXL-1', 4321, true);
    const item = await instalmentOf('REV2-CXL-1');
    if (!item) throw new Error('no instalment');
    // Control: the portal itself says the customer owes nothing for it.
    const balance = (await me.get('/balance')).json<{ pay: { payment_ids: string[] } }>();
    expect(balance.pay.payment_ids).not.toContain(item.id);

    await turnOnAutoPay(app, me, cardId);
    const run = charger();
    const jobs: AutoPayJob[] = [];
    await run.sweep(async (job) => {
      jobs.push(job);
    });
    const outcomes = await Promise.all(jobs.map((job) => run.charge(job)));
    const charged = await db.withOwner((sql) =>
      sql.query<{ amount_cents: number; status: string }>(
        `SELECT a.amount_cents, a.status FROM auto_pay_charges c
           JOIN payment_attempts a ON a.tenant_id = c.tenant_id AND a.id = c.payment_attempt_id
          WHERE c.tenant_id = 'demo' AND c.instalment_id::text = $1`,
        [item.id],
      ),
    );
    // Before the fix: one job for the cancelled invoice's instalment, charged and 'paid' (43.21 €
    // taken from the customer's card for an invoice the portal shows as cancelled).
    expect({ outcomes, charged }).toEqual({ outcomes: [], charged: [] });
  });

  it('refuses to start (or preview) a payment of a cancelled invoice: 422 not_payable', async () => {
    await putInvoice('REV2-CXL-2', 1999, false);
    // The customer opened the confirmation while it was owed; the provider then cancels it.
    await putInvoice('REV2-CXL-2', 1999, true);
    const preview = await me.post('/redsys/checkout-preview', { invoice_id: 'REV2-CXL-2' });
    const start = await me.post('/redsys/init-payment', {
      amount: 19.99,
      invoice_id: 'REV2-CXL-2',
    });
    // routes.ts / redsys.ts: "a paid or cancelled one a 422 not_payable (a stale tab shows it as
    // such)". Before the fix both answered 200 and the start sent the customer to the card page.
    expect({ preview: preview.statusCode, start: start.statusCode }).toEqual({
      preview: 422,
      start: 422,
    });
  });
});
