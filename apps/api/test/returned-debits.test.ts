import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { decodeMerchantParameters } from '@portal/redsys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { demoEmail, secondEmail } from '../src/db/seed/demo.ts';
import { createApiKey } from '../src/modules/admin/api-keys.ts';
import { buildTestApp, engines } from './engines.ts';
import { signedIn } from './session.ts';
import { signedNotification } from './redsys-notification.ts';
import { decodeQuotedPrintable, startSmtp } from '../../../tools/test-smtp.ts';
import { todayIso } from '../src/lib/dates.ts';
import { createMailer } from '../src/modules/mail/mailer.ts';
import {
  createReturnedDebitService,
  createReturnMailSender,
} from '../src/modules/returned-debits/service.ts';

const quiet = { error: () => {} };

const range = { datefrom: '20000101', dateto: '20991231' };

type Instalment = {
  payment_id: string;
  status: string;
  state?: string;
  returned?: { return_date: string; reason_code: string; fee: number; fee_charged: boolean };
};

/** An invoice of the demo tenant's first customer (DF-000123): 60.50 EUR in two instalments. */
const invoiceOf = (id: string) => ({
  id,
  customer_code: 'DF-000123',
  invoice_date: '2026-03-01',
  base_cents: 5000,
  vat_cents: 1050,
  total_cents: 6050,
  lines: [
    { line_no: 1, concept: 'Cuota mensual', quantity: 1, unit_price_cents: 5000, vat_rate: 21 },
  ],
  instalments: [
    {
      seq: 1,
      due_date: '2026-03-05',
      amount_cents: 3025,
      method: 'Domiciliación',
      status: 'paid',
      paid_date: '2026-03-05',
    },
    { seq: 2, due_date: '2099-04-05', amount_cents: 3025, method: 'Domiciliación' },
  ],
});

describe.each(engines())('returned direct debits on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let demoKey: string;
  let oneKey: string;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let other: Awaited<ReturnType<typeof signedIn>>;

  beforeAll(async () => {
    db = await engine.open();
    smtp = await startSmtp();
    app = await buildTestApp(db, { SMTP_URL: smtp.url, PUBLIC_URL: 'http://localhost:3000' });
    demoKey = (await db.withTenant('demo', (sql) => createApiKey(sql, 'returns test'))).key;
    oneKey = (await db.withTenant('1', (sql) => createApiKey(sql, 'tenant 1'))).key;
    me = await signedIn(app, 'demo');
    other = await signedIn(app, 'demo', secondEmail);
    // The provider's webhook, so that events are written to the outbox (not sent here).
    await db.withOwner((sql) =>
      sql.query(
        `INSERT INTO webhook_endpoints (tenant_id, url, secret)
         VALUES ('demo', 'https://erp.example.com/hooks', 'unused')`,
      ),
    );
  });
  afterAll(async () => {
    await app.close();
    await db.close();
    await smtp.close();
  });

  const admin = (
    tenant: string,
    key: string,
    method: 'PUT' | 'POST',
    path: string,
    payload: object,
  ) =>
    app.inject({
      method,
      url: `/${tenant}/api/1.0/admin${path}`,
      payload,
      headers: { authorization: `Bearer ${key}` },
    });
  const report = (returns: object[], tenant = 'demo', key = demoKey) =>
    admin(tenant, key, 'POST', '/instalments/returns', { returns });
  const ok = (res: LightMyRequestResponse) => {
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ created: number; updated: number; unchanged: number }>();
  };
  const detail = async (id: string) =>
    (await me.post('/invoice', { invoice_id: id })).json<{
      invoice: { state: string; pending: number; to_pay: number; payments: Instalment[] };
    }>().invoice;
  const notificationsOf = async () =>
    (await me.post('/notifications', { filter: 'all' }))
      .json<{
        notifications: { type: string; link: string | null; params?: Record<string, unknown> }[];
      }>()
      .notifications.filter((n) => n.type === 'debit_returned');
  const setChargeFee = (on: boolean) =>
    db.withOwner((sql) =>
      sql.query(`UPDATE tenants SET charge_return_fee = $1 WHERE id = 'demo'`, [on]),
    );
  const feeRecord = (instalmentId: string) =>
    db.withTenant('demo', (sql) =>
      sql.query<{ fee_paid_cents: number | null; paid_attempt_id: string | null }>(
        `SELECT fee_paid_cents::int AS fee_paid_cents, paid_attempt_id::text FROM instalment_returns
          WHERE instalment_id::text = $1`,
        [instalmentId],
      ),
    );
  const notify = (message: object) =>
    app.inject({
      method: 'POST',
      url: '/demo/api/1.0/redsys/notification',
      payload: new URLSearchParams(message as Record<string, string>).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });

  it('a reported return shows "returned" with reason and fee, notifies and e-mails once', async () => {
    ok(await admin('demo', demoKey, 'PUT', '/invoices', { invoices: [invoiceOf('RD-1')] }));
    const before = await detail('RD-1');
    expect(before.payments[0]?.status).toBe('paid');
    const item = {
      invoice_id: 'RD-1',
      seq: 1,
      return_date: '2026-03-09',
      reason_code: 'AM04',
      fee_cents: 350,
    };
    expect(ok(await report([item]))).toEqual({ created: 1, updated: 0, unchanged: 0 });

    const after = await detail('RD-1');
    expect(after.state).toBe('returned');
    const first = after.payments[0];
    expect(first?.status).toBe('returned');
    expect(first?.returned).toEqual({
      return_date: '20260309',
      reason_code: 'AM04',
      fee: 3.5,
      fee_charged: false,
    });
    // The payments list says the same.
    const list = (await me.post('/payments', { ...range, page: '1' })).json<{
      payments: Instalment[];
    }>().payments;
    expect(list.find((p) => p.payment_id === first?.payment_id)).toMatchObject({
      status: 'returned',
      returned: { reason_code: 'AM04', fee: 3.5 },
    });

    const [notice] = await notificationsOf();
    expect(notice?.params).toMatchObject({
      payment_id: first?.payment_id,
      invoice_id: 'RD-1',
      amount_cents: 3025,
      reason_code: 'AM04',
      fee_cents: 350,
      fee_charged: false,
    });
    expect(notice?.link).toBe(`/payment-checkin?payments=${first?.payment_id}&invoiceId=RD-1`);
    const mail = await smtp.waitFor(demoEmail, 10_000, 'debit-returned');
    expect(mail.raw).toContain('Fondos insuficientes en la cuenta');
    expect(mail.raw).toContain(`/payment-checkin?payments=${first?.payment_id}`);

    // The same report again: nothing changes, nobody is told twice.
    expect(ok(await report([item]))).toEqual({ created: 0, updated: 0, unchanged: 1 });
    expect(await notificationsOf()).toHaveLength(1);
    // A corrected fee is an update, still without a new notification.
    expect(ok(await report([{ ...item, fee_cents: 400 }]))).toEqual({
      created: 0,
      updated: 1,
      unchanged: 0,
    });
    expect(await notificationsOf()).toHaveLength(1);
    expect((await detail('RD-1')).payments[0]?.returned?.fee).toBe(4);
    expect(smtp.inbox.filter((m) => /X-Portal-Mail: *debit-returned/i.test(m.raw))).toHaveLength(0);
  });

  it('an unknown code is kept (worded generically); bad codes, amounts and keys are 422', async () => {
    ok(await admin('demo', demoKey, 'PUT', '/invoices', { invoices: [invoiceOf('RD-2')] }));
    const good = {
      invoice_id: 'RD-2',
      seq: 2,
      return_date: '2026-03-09',
      reason_code: 'ZZ99',
      fee_cents: 0,
    };
    const bad = async (change: object) => {
      const res = await report([{ ...good, ...change }]);
      expect(res.statusCode, res.body).toBe(422);
      return res.json<{ errors: Record<string, string[]> }>().errors;
    };
    expect(await bad({ reason_code: 'am04' })).toEqual({
      'returns.0.reason_code': ['invalid_format'],
    });
    expect(await bad({ reason_code: 'AM0' })).toEqual({
      'returns.0.reason_code': ['invalid_format'],
    });
    expect(await bad({ fee_cents: -1 })).toEqual({ 'returns.0.fee_cents': ['too_small'] });
    expect(await bad({ fee_cents: 3.5 })).toEqual({ 'returns.0.fee_cents': ['invalid_type'] });
    expect(await bad({ fee_cents: 100_001 })).toEqual({ 'returns.0.fee_cents': ['too_big'] });
    expect(await bad({ return_date: '2026-02-30' })).toEqual({
      'returns.0.return_date': ['invalid_date'],
    });
    expect(await bad({ seq: 9 })).toEqual({ 'returns.0': ['unknown_instalment'] });
    const twice = await report([good, good]);
    expect(twice.statusCode).toBe(422);
    expect(await notificationsOf()).toHaveLength(1);
    expect(ok(await report([good]))).toMatchObject({ created: 1 });
    const returned = (await detail('RD-2')).payments[1];
    expect(returned).toMatchObject({
      status: 'returned',
      returned: { reason_code: 'ZZ99', fee: 0 },
    });
  });

  it("refuses another tenant's instalment, and a customer's token", async () => {
    const item = {
      invoice_id: 'RD-1',
      seq: 1,
      return_date: '2026-04-01',
      reason_code: 'MD06',
      fee_cents: 100,
    };
    const res = await report([item], '1', oneKey);
    expect(res.statusCode).toBe(422);
    expect(res.json<{ errors: Record<string, string[]> }>().errors).toEqual({
      'returns.0': ['unknown_instalment'],
    });
    // Another tenant's key on this tenant's path.
    expect((await report([item], 'demo', oneKey)).statusCode).toBe(401);
    const withToken = await app.inject({
      method: 'POST',
      url: '/demo/api/1.0/admin/instalments/returns',
      payload: { returns: [item] },
      headers: { authorization: `Bearer ${me.token}` },
    });
    expect(withToken.statusCode).toBe(401);
    // Nothing was recorded for that date.
    expect((await detail('RD-1')).payments[0]?.returned?.return_date).toBe('20260309');
  });

  it('pays a returned instalment without the fee when the tenant does not charge it', async () => {
    const invoice = await detail('RD-2');
    expect(invoice.to_pay).toBe(invoice.pending);
    const payment = invoice.payments[1];
    const preview = (
      await me.post('/redsys/checkout-preview', { payment_ids: [payment?.payment_id] })
    ).json<{
      amount: number;
      instalments: { fee?: number; status: string; overdue: boolean }[];
    }>();
    expect(preview.amount).toBe(30.25);
    expect(preview.instalments[0]?.fee).toBeUndefined();
    // The confirmation says "Devuelto" (the instalment's status, as the payments list's), not just
    // "Vencido": due in 2099, it is not even overdue by its date.
    expect(preview.instalments[0]).toMatchObject({ status: 'returned', overdue: false });
    // Another customer cannot pay it.
    const foreign = await other.post('/redsys/init-payment', {
      amount: 30.25,
      payment_ids: [payment?.payment_id],
    });
    expect(foreign.statusCode).toBe(404);
    const res = await me.post('/redsys/init-payment', {
      amount: 30.25,
      payment_ids: [payment?.payment_id],
    });
    expect(res.statusCode, res.body).toBe(200);
    const p = decodeMerchantParameters(
      res.json<{ redsys_params: { Ds_MerchantParameters: string } }>().redsys_params
        .Ds_MerchantParameters,
    );
    expect(p.Ds_Merchant_Amount).toBe('3025');
    expect((await notify(signedNotification(p, '0000'))).statusCode).toBe(200);
    const paid = (await detail('RD-2')).payments[1];
    expect(paid?.status).toBe('paid');
    expect(paid?.returned).toBeUndefined();
  });

  it('charges the fee with the instalment when the tenant does, once whatever the notifications', async () => {
    const balance = async () =>
      (await me.get('/balance')).json<{ outstanding: number; pay: { amount: number } }>();
    const without = await balance();
    await setChargeFee(true);
    try {
      // Whether a return's fee is charged is recorded on the return when it is recorded
      // (migration 043): turning charging on later adds no fee to RD-1's return (session 40).
      expect(await balance()).toEqual(without);
      // RD-1's return as recorded while the tenant charged the fee.
      await db.withOwner((sql) =>
        sql.query(
          `UPDATE instalment_returns r SET fee_charged = true FROM instalments e
            WHERE e.tenant_id = r.tenant_id AND e.id = r.instalment_id
              AND r.tenant_id = 'demo' AND e.invoice_id = 'RD-1'`,
        ),
      );
      // What one "Pagar" pays, and what is owed, now count the fee.
      const withFee = await balance();
      expect(Math.round((withFee.outstanding - without.outstanding) * 100)).toBe(400);
      expect(Math.round((withFee.pay.amount - without.pay.amount) * 100)).toBe(400);
      const invoice = await detail('RD-1');
      const payment = invoice.payments[0];
      expect(payment?.returned).toMatchObject({ fee: 4, fee_charged: true });
      // The invoice's "Pagar" says the amount the confirmation will ask for: owed plus the fee.
      expect(Math.round((invoice.to_pay - invoice.pending) * 100)).toBe(400);
      const preview = (
        await me.post('/redsys/checkout-preview', { payment_ids: [payment?.payment_id] })
      ).json<{
        amount: number;
        instalments: { amount: number; fee?: number }[];
      }>();
      expect(preview.amount).toBe(34.25);
      expect(preview.instalments[0]).toMatchObject({ amount: 30.25, fee: 4 });
      // "Mis pagos" serves the same for the row's "Pagar" and the selection's total (session 39:
      // they summed the amount alone).
      const row = (await me.post('/payments', { ...range, page: '1' }))
        .json<{ payments: { payment_id: string; amount: number; to_pay?: number }[] }>()
        .payments.find((p) => p.payment_id === payment?.payment_id);
      expect(row).toMatchObject({ amount: 30.25, to_pay: 34.25 });
      // The instalment's amount alone is not what is owed now.
      const short = await me.post('/redsys/init-payment', {
        amount: 30.25,
        payment_ids: [payment?.payment_id],
      });
      expect(short.statusCode).toBe(422);
      const res = await me.post('/redsys/init-payment', {
        amount: preview.amount,
        payment_ids: [payment?.payment_id],
      });
      expect(res.statusCode, res.body).toBe(200);
      const p = decodeMerchantParameters(
        res.json<{ redsys_params: { Ds_MerchantParameters: string } }>().redsys_params
          .Ds_MerchantParameters,
      );
      // What the customer saw is what Redsys is asked for.
      expect(p.Ds_Merchant_Amount).toBe('3425');
      const ok0000 = signedNotification(p, '0000');
      const answers = await Promise.all(Array.from({ length: 6 }, () => notify(ok0000)));
      expect(answers.every((a) => a.statusCode === 200)).toBe(true);

      const paid = (await detail('RD-1')).payments[0];
      expect(paid?.status).toBe('paid');
      expect(paid?.returned).toBeUndefined();
      const [fee] = await feeRecord(payment?.payment_id ?? '');
      expect(fee?.fee_paid_cents).toBe(400);
      // One payment, no surplus refund, one settled webhook event carrying the fee.
      const rows = await db.withTenant('demo', (sql) =>
        sql.query<{
          refunds: number;
          events: number;
          payload: {
            amount_cents: number;
            instalments: { fee_cents: number; amount_cents: number }[];
          };
        }>(
          `SELECT (SELECT count(*)::int FROM payment_refunds r WHERE r.attempt_id = a.id) AS refunds,
                  0 AS events, jsonb_build_object('amount_cents', a.amount_cents,
                    'instalments', (SELECT jsonb_agg(jsonb_build_object('amount_cents', i.amount_cents, 'fee_cents', i.fee_cents))
                                      FROM payment_attempt_items i WHERE i.attempt_id = a.id)) AS payload
             FROM payment_attempts a WHERE a.order_number = $1`,
          [p.Ds_Merchant_Order],
        ),
      );
      expect(rows[0]?.refunds).toBe(0);
      const events = await db.withTenant('demo', (sql) =>
        sql.query<{ payload: { amount_cents: number; instalments: object[] } }>(
          `SELECT payload FROM webhook_events
            WHERE type = 'payment.succeeded' AND payload->>'order_number' = $1`,
          [p.Ds_Merchant_Order],
        ),
      );
      expect(events).toHaveLength(1);
      expect(events[0]?.payload).toMatchObject({
        amount_cents: 3425,
        instalments: [{ invoice_id: 'RD-1', seq: 1, amount_cents: 3025, fee_cents: 400 }],
      });
      expect(rows[0]?.payload).toEqual({
        amount_cents: 3425,
        instalments: [{ amount_cents: 3025, fee_cents: 400 }],
      });
      const payments = (await me.post('/notifications', { filter: 'all' }))
        .json<{
          notifications: { type: string; params?: { amount_cents?: number } }[];
        }>()
        .notifications.filter(
          (n) => n.type === 'payment_succeeded' && n.params?.amount_cents === 3425,
        );
      expect(payments).toHaveLength(1);

      // A replay of the old return does not make the paid instalment owed again.
      ok(
        await report([
          {
            invoice_id: 'RD-1',
            seq: 1,
            return_date: '2026-03-09',
            reason_code: 'AM04',
            fee_cents: 400,
          },
        ]),
      );
      expect((await detail('RD-1')).payments[0]?.status).toBe('paid');
    } finally {
      await setChargeFee(false);
    }
  });

  const debitMails = () => smtp.inbox.filter((m) => /X-Portal-Mail: *debit-returned/i.test(m.raw));

  it('an e-mail the mail server refused is sent again by the outbox, once; a replay sends none', async () => {
    smtp.inbox.length = 0; // the e-mails of the tests before
    ok(await admin('demo', demoKey, 'PUT', '/invoices', { invoices: [invoiceOf('RD-3')] }));
    const notices = (await notificationsOf()).length;
    const down = createReturnedDebitService({
      db,
      mailer: {
        send: async () => {
          throw new Error('smtp down');
        },
      },
      log: quiet,
    });
    const item = {
      invoice_id: 'RD-3',
      seq: 1,
      return_date: '2026-03-10',
      reason_code: 'MD06',
      fee_cents: 0,
    };
    expect(await down.report('demo', [item])).toEqual({ created: 1, updated: 0, unchanged: 0 });
    // Told in the app at once; the e-mail waits, due again after its back-off.
    expect(await notificationsOf()).toHaveLength(notices + 1);
    const pending = async () =>
      db.withTenant('demo', (sql) =>
        sql.query<{ tries: number; wait: number; sent: boolean; error: string | null }>(
          `SELECT r.mail_tries AS tries, extract(epoch FROM r.mail_due_at - now())::int AS wait,
                  r.mail_sent_at IS NOT NULL AS sent, r.mail_error AS error
             FROM instalment_returns r JOIN instalments e
               ON e.tenant_id = r.tenant_id AND e.id = r.instalment_id
            WHERE e.invoice_id = 'RD-3'`,
        ),
      );
    const [failed] = await pending();
    expect(failed).toMatchObject({ tries: 1, sent: false, error: 'smtp down' });
    expect(failed?.wait).toBeGreaterThan(30);

    const outbox = createReturnMailSender({
      db,
      mailer: createMailer({ smtpUrl: smtp.url, outboxDir: '/nonexistent', log: () => {} }),
      log: quiet,
    });
    expect(await outbox.sendDue()).toBe(0); // not due yet
    await db.withOwner((sql) =>
      sql.query(
        `UPDATE instalment_returns SET mail_due_at = now() - interval '1 second'
          WHERE mail_sent_at IS NULL AND mail_due_at IS NOT NULL`,
      ),
    );
    expect(await outbox.sendDue()).toBe(1);
    const mail = await smtp.waitFor(demoEmail, 10_000, 'debit-returned');
    expect(mail.raw).toContain('RD-3');
    expect((await pending())[0]).toMatchObject({ tries: 2, sent: true });
    expect(await outbox.sendDue()).toBe(0);

    // The same return again, through the route: nothing queued, nobody told again.
    expect(ok(await report([item]))).toEqual({ created: 0, updated: 0, unchanged: 1 });
    expect(await outbox.sendDue()).toBe(0);
    expect(await notificationsOf()).toHaveLength(notices + 1);
    expect(debitMails()).toHaveLength(0);
  });

  it("the status route's 'returned' is a return: reason, fee, notification and e-mail, once", async () => {
    smtp.inbox.length = 0;
    ok(await admin('demo', demoKey, 'PUT', '/invoices', { invoices: [invoiceOf('RD-4')] }));
    const setStatus = (changes: object[]) =>
      admin('demo', demoKey, 'POST', '/instalments/status', { changes });
    const notices = (await notificationsOf()).length;
    const today = todayIso().replace(/-/g, '');
    const changes = [
      {
        invoice_id: 'RD-4',
        seq: 1,
        status: 'returned',
        return_reason_code: 'AM04',
        return_fee_cents: 350,
      },
      { invoice_id: 'RD-4', seq: 2, status: 'returned' },
    ];
    expect(ok(await setStatus(changes))).toEqual({ created: 0, updated: 2, unchanged: 0 });
    const [first, second] = (await detail('RD-4')).payments;
    expect(first).toMatchObject({
      status: 'returned',
      returned: { return_date: today, reason_code: 'AM04', fee: 3.5, fee_charged: false },
    });
    // Without a reason or fee: "the bank gave no reason", no fee.
    expect(second).toMatchObject({
      status: 'returned',
      returned: { return_date: today, reason_code: 'MS03', fee: 0 },
    });
    const told = (await notificationsOf()).slice(0, 2);
    expect(await notificationsOf()).toHaveLength(notices + 2);
    expect(told.map((n) => n.params?.payment_id).sort()).toEqual(
      [first?.payment_id, second?.payment_id].sort(),
    );
    const mails = [
      await smtp.waitFor(demoEmail, 10_000, 'debit-returned'),
      await smtp.waitFor(demoEmail, 10_000, 'debit-returned'),
    ];
    const texts = mails.map((m) => decodeQuotedPrintable(m.raw));
    expect(texts.some((t) => t.includes('Fondos insuficientes en la cuenta'))).toBe(true);
    expect(texts.some((t) => t.includes('Motivo: El banco no indic'))).toBe(true);

    // The same batch again: nothing changes, nobody is told twice.
    expect(ok(await setStatus(changes))).toEqual({ created: 0, updated: 0, unchanged: 2 });
    expect(await notificationsOf()).toHaveLength(notices + 2);
    expect(debitMails()).toHaveLength(0);

    // A reason or fee with another state, and a malformed reason, are refused.
    const bad = async (change: object) => {
      const res = await setStatus([change]);
      expect(res.statusCode, res.body).toBe(422);
      return res.json<{ errors: Record<string, string[]> }>().errors;
    };
    expect(
      await bad({ invoice_id: 'RD-4', seq: 1, status: 'pending', return_reason_code: 'AM04' }),
    ).toEqual({ 'changes.0.return_reason_code': ['invalid_value'] });
    expect(
      await bad({ invoice_id: 'RD-4', seq: 1, status: 'returned', return_reason_code: 'am04' }),
    ).toEqual({ 'changes.0.return_reason_code': ['invalid_format'] });
    expect(
      await bad({ invoice_id: 'RD-4', seq: 1, status: 'returned', return_fee_cents: 1.5 }),
    ).toEqual({ 'changes.0.return_fee_cents': ['invalid_type'] });
  });

  it('keeps a returned instalment with its customer: a batch cannot move it to another one', async () => {
    ok(await admin('demo', demoKey, 'PUT', '/invoices', { invoices: [invoiceOf('RD-MOVE')] }));
    const item = {
      invoice_id: 'RD-MOVE',
      seq: 1,
      return_date: '2026-03-09',
      reason_code: 'AM04',
      fee_cents: 350,
    };
    expect(ok(await report([item])).created).toBe(1);
    // The return (and its fee) is the first customer's: moving the invoice would hand the second
    // customer the debt and the fee of the first one's bank return (session 33's review).
    const moved = await admin('demo', demoKey, 'PUT', '/invoices', {
      invoices: [{ ...invoiceOf('RD-MOVE'), customer_code: other.user.code }],
    });
    expect(moved.statusCode, moved.body).toBe(422);
    expect(moved.json<{ errors: Record<string, string[]> }>().errors).toMatchObject({
      'invoices.0.customer_code': ['instalment_locked'],
    });
    expect((await detail('RD-MOVE')).payments[0]?.status).toBe('returned');
  });
});
