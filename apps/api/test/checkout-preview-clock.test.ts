import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { demoEmail } from '../src/db/seed/demo.ts';
import { buildTestApp, engines } from './engines.ts';
import { signedIn } from './session.ts';

/*
 * Money facts (session 36's review): the payment confirmation decides "overdue" on a clock of its own.
 *
 * PRODUCT.md "Screens" / decision 021: the status is computed once, by the server, on the Madrid
 * day, with the app's clock (`buildApp({ now })`, `AppContext.now`) so that every screen agrees.
 * `/balance`, `/payments`, `/invoices` and `/invoice` read `ctx.now`; the checkout preview
 * (modules/payments/service.ts `checkoutPreview`) calls `todayIso()` and `madridDateTime(new Date())`
 * on the process clock. With the app's clock at 23:59 in Madrid on an instalment's due day, the
 * balance and the payments list say it is on time ("Pendiente") and the confirmation screen of the
 * same "Pagar" says it is overdue, with the date and time of another day.
 */
describe.each(engines())('the checkout preview on the app clock on $name', (engine) => {
  const invoiceId = 'REVF-PREVIEW-CLOCK';
  // 23:59 on 10 February 2020 in Madrid (CET, UTC+1).
  const clock = new Date('2020-02-10T22:59:00Z');
  let db: Database;
  let app: FastifyInstance;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let instalmentId = '';

  beforeAll(async () => {
    db = await engine.open();
    app = await buildTestApp(
      db,
      { PUBLIC_URL: 'http://localhost:3000' },
      undefined,
      undefined,
      () => clock,
    );
    me = await signedIn(app, 'demo');
    instalmentId = await db.withOwner(async (sql) => {
      const [customer] = await sql.query<{ id: string }>(
        `SELECT id FROM customers WHERE tenant_id = 'demo' AND email = $1`,
        [demoEmail],
      );
      await sql.query(
        `INSERT INTO invoices (tenant_id, id, customer_id, invoice_date, base_cents, vat_cents, total_cents)
         VALUES ('demo', $1, $2, '2020-01-20', 2000, 0, 2000)`,
        [invoiceId, customer?.id],
      );
      const [row] = await sql.query<{ id: string }>(
        `INSERT INTO instalments (tenant_id, invoice_id, seq, customer_id, due_date, amount_cents, method, status)
         VALUES ('demo', $1, 1, $2, '2020-02-10', 2000, 'Tarjeta', 'pending') RETURNING id::text`,
        [invoiceId, customer?.id],
      );
      return row?.id ?? '';
    });
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  it('says what /payments says of the instalment, on the same Madrid day', async () => {
    const listed = (
      await me.post('/payments', { datefrom: '20200201', dateto: '20200229', page: '1' })
    ).json<{ payments: { payment_id: string; status: string }[] }>().payments;
    // Control: on the app's clock the instalment is due today, not late.
    expect(listed.find((p) => p.payment_id === instalmentId)?.status).toBe('pending');

    const res = await me.post('/redsys/checkout-preview', { payment_ids: [instalmentId] });
    expect(res.statusCode, res.body).toBe(200);
    const preview = res.json<{
      instalments: { payment_id: string; overdue: boolean; status: string }[];
      date: string;
      time: string;
    }>();
    // Before session 36: overdue true, status 'overdue', and the date and time of the process clock.
    expect({
      item: preview.instalments.map((i) => ({ overdue: i.overdue, status: i.status })),
      date: preview.date,
      time: preview.time,
    }).toEqual({
      item: [{ overdue: false, status: 'pending' }],
      date: '2020-02-10',
      time: '23:59',
    });
  });
});
