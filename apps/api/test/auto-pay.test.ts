import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildSimulator } from '@portal/redsys-sim';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { secondEmail } from '../src/db/seed/demo.ts';
import { todayIso } from '../src/lib/dates.ts';
import { createSecretBox } from '../src/lib/secret-box.ts';
import { createAutoPayMailer } from '../src/modules/auto-pay/mail.ts';
import { createDeclineMailSender, recordAutoPayDecline } from '../src/modules/auto-pay/declines.ts';
import { createAutoPayCharger, type AutoPayJob } from '../src/modules/auto-pay/service.ts';
import { createReconciler } from '../src/modules/payments/reconcile.ts';
import type { Mail, Mailer } from '../src/modules/mail/mailer.ts';
import { createReceiptMailer } from '../src/modules/payments/receipt-mail.ts';
import { createRedsysClient, type MitChargeInput } from '../src/modules/payments/redsys-client.ts';
import type { TenantGatewayRow } from '../src/modules/payments/repository.ts';
import { createPaymentService } from '../src/modules/payments/service.ts';
import { adminCommand } from './admin-run.ts';
import { putAutoPay } from './auto-pay-fixture.ts';
import { buildTestApp, engines } from './engines.ts';
import { signedIn } from './session.ts';
import { testPaymentService } from './lost-notifications.ts';

/** The seeded Redsys keys are plaintext (sealed only at a server's start): every box opens them. */
const box = createSecretBox(randomBytes(32));
const day = 24 * 60 * 60 * 1000;
const quiet = { warn: () => {}, error: () => {} };

type Summary = {
  allowed: boolean;
  notice_days: number;
  card_id: string | null;
  cards: { id: string; eligible: boolean; problem: string | null; enabled: boolean }[];
  instalments: { payment_id: string; invoice_id: string; due_date: string; amount_cents: number }[];
  instalments_total: number;
  next_charge_date: string | null;
};

/** yyyy-mm-dd `days` after `iso`. */
function addDays(iso: string, days: number): string {
  return new Date(Date.parse(`${iso}T12:00:00Z`) + days * day).toISOString().slice(0, 10);
}

/**
 * Auto-pay with the card on file (issue 23, item 2): the opt-in, the tenant's switch, and the
 * merchant-initiated charges the sweep makes through the simulator's trataPeticionREST — once per
 * instalment however many sweeps or jobs run at once, declines told and retried as the tenant
 * sets, notices sent once.
 */
describe.each(engines())('auto-pay with a saved card on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let sim: FastifyInstance;
  let simUrl: string;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let other: Awaited<ReturnType<typeof signedIn>>;
  let cardId: string;
  let otherCardId: string;
  let bankId: string;
  let reference: string;
  const mails: Mail[] = [];
  const mailer: Mailer = {
    send: async (mail) => {
      mails.push(mail);
    },
  };
  const today = todayIso();

  beforeAll(async () => {
    db = await engine.open();
    sim = buildSimulator({ inspect: true, demoReferencePrefix: 'demo', notificationAttempts: 1 });
    await sim.listen({ host: '127.0.0.1', port: 0 });
    simUrl = `http://127.0.0.1:${(sim.server.address() as { port: number }).port}`;
    app = await buildTestApp(db, {
      PUBLIC_URL: 'http://localhost:3000',
      REDSYS_SIMULATOR_URL: simUrl,
      NOTIFICATION_URL: 'http://127.0.0.1:9',
    });
    me = await signedIn(app, 'demo');
    other = await signedIn(app, 'demo', secondEmail);
    const methods = async (who: typeof me) =>
      (await who.get('/payment-methods')).json<{ methods: { id: string; kind: string }[] }>()
        .methods;
    const mine = await methods(me);
    cardId = mine.find((m) => m.kind === 'card')?.id ?? '';
    bankId = mine.find((m) => m.kind === 'bank_account')?.id ?? '';
    otherCardId = (await methods(other)).find((m) => m.kind === 'card')?.id ?? '';
    reference = await db.withOwner(async (sql) => {
      // The provider's webhook, so that payment events are written to the outbox.
      await sql.query(
        `INSERT INTO webhook_endpoints (tenant_id, url, secret)
         VALUES ('demo', 'https://erp.example.com/hooks', 'unused')`,
      );
      const [row] = await sql.query<{ redsys_reference: string }>(
        'SELECT redsys_reference FROM payment_methods WHERE id = $1',
        [cardId],
      );
      return row?.redsys_reference ?? '';
    });
  });
  afterAll(async () => {
    await app.close();
    await sim.close();
    await db.close();
  });

  /** Between tests: auto-pay off, the card the seed's, the tenant's defaults, nothing due. */
  beforeEach(async () => {
    mails.length = 0;
    await sim.inject({ method: 'DELETE', url: '/__sim/notifications' });
    await db.withOwner(async (sql) => {
      await sql.query("DELETE FROM auto_pay_cards WHERE tenant_id = 'demo'");
      await sql.query(
        `UPDATE tenants SET auto_pay = true, auto_pay_notice_days = 3, auto_pay_retries = 2,
                auto_pay_retry_days = 2 WHERE id = 'demo'`,
      );
      await sql.query(
        'UPDATE payment_methods SET redsys_reference = $2, deleted_at = NULL WHERE id = $1',
        [cardId, reference],
      );
      // Every unpaid instalment of the demo customer is a direct debit (the bank collects it).
      await sql.query(
        `UPDATE instalments SET method = 'Domiciliación bancaria'
          WHERE tenant_id = 'demo' AND status IN ('pending', 'returned')`,
      );
    });
  });

  const put = (who: typeof me, id: string, enabled: boolean) => putAutoPay(app, who, id, enabled);
  const summary = async (who = me) => (await who.get('/user/auto-pay')).json<Summary>();
  const visualConfig = async () =>
    (await app.inject('/demo/api/1.0/visual-config')).json<{ auto_pay: boolean }>();

  /** `count` of the demo customer's instalments, pending, paid by card, due on `due`. */
  const owe = (count: number, due: string) =>
    db.withOwner(async (sql) => {
      const rows = await sql.query<{ id: string; invoice_id: string; amount_cents: string }>(
        `UPDATE instalments SET status = 'pending', paid_date = NULL, method = 'Tarjeta', due_date = $2
          WHERE tenant_id = 'demo' AND id IN (
            SELECT e.id FROM instalments e JOIN customers c
              ON c.tenant_id = e.tenant_id AND c.id = e.customer_id
             WHERE e.tenant_id = 'demo' AND c.email = 'cliente@demo.test' AND e.status = 'paid'
               AND NOT EXISTS (SELECT 1 FROM auto_pay_charges x WHERE x.instalment_id = e.id)
             ORDER BY e.due_date DESC LIMIT $1)
          RETURNING id, invoice_id, amount_cents`,
        [count, due],
      );
      return rows.map((r) => ({ ...r, amount_cents: Number(r.amount_cents) }));
    });

  const declineMails = () =>
    createDeclineMailSender({ db, mail: createAutoPayMailer(db, mailer), log: quiet });
  const charger = (send?: (gateway: TenantGatewayRow, input: MitChargeInput) => Promise<void>) => {
    const redsys = createRedsysClient({ simulatorUrl: simUrl });
    return createAutoPayCharger({
      db,
      payments: testPaymentService(db, simUrl, createReceiptMailer(db, mailer)),
      send: async (gateway, input) => {
        await send?.(gateway, input);
        return redsys.mitCharge(gateway, input);
      },
      mail: createAutoPayMailer(db, mailer),
      declineMails: declineMails(),
      log: quiet,
    });
  };
  /** One sweep whose jobs are charged at once (what the queue's worker does). */
  const sweep = async (run = charger(), now = new Date()) => {
    const jobs: AutoPayJob[] = [];
    await run.sweep(async (job) => {
      jobs.push(job);
    }, now);
    const outcomes = await Promise.all(jobs.map((job) => run.charge(job, now)));
    return { jobs, outcomes };
  };
  const simCharges = async () =>
    (await sim.inject('/__sim/mit-charges')).json<{
      charges: { order: string; amountCents: number; dsResponse: string }[];
    }>().charges;
  const statusOf = (ids: string[]) =>
    db.withOwner(async (sql) =>
      (
        await sql.query<{ status: string }>(
          'SELECT status FROM instalments WHERE id::text = ANY($1) ORDER BY id',
          [ids],
        )
      ).map((r) => r.status),
    );
  const chargesOf = (ids: string[]) =>
    db.withOwner((sql) =>
      sql.query<{
        instalment_id: string;
        attempt_no: number;
        status: string;
        initiated_by: string;
      }>(
        `SELECT c.instalment_id, c.attempt_no, p.status, p.initiated_by FROM auto_pay_charges c
           JOIN payment_attempts p ON p.tenant_id = c.tenant_id AND p.id = c.payment_attempt_id
          WHERE c.instalment_id::text = ANY($1) ORDER BY c.instalment_id, c.attempt_no`,
        [ids],
      ),
    );
  const notificationsOf = (type: string) =>
    db.withOwner((sql) =>
      sql.query<{ params: Record<string, unknown>; link: string | null }>(
        `SELECT n.params, n.link FROM notifications n JOIN customers c
            ON c.tenant_id = n.tenant_id AND c.id = n.customer_id
          WHERE n.tenant_id = 'demo' AND c.email = 'cliente@demo.test' AND n.type = $1
          ORDER BY n.created_at`,
        [type],
      ),
    );

  it('opts in per saved card, lists the instalments it will pay, and opts out', async () => {
    const [soon] = await owe(1, addDays(today, 10));
    const before = await summary();
    expect(before).toMatchObject({ allowed: true, notice_days: 3, card_id: null });
    expect(before.cards).toEqual([{ id: cardId, eligible: true, problem: null, enabled: false }]);
    expect(before.instalments).toEqual([]);
    // The web app offers it: the tenant's switch is in its visual config.
    expect((await visualConfig()).auto_pay).toBe(true);

    const on = await put(me, cardId, true);
    expect(on.statusCode, on.body).toBe(200);
    const body = on.json<Summary>();
    expect(body.card_id).toBe(cardId);
    expect(body.cards[0]?.enabled).toBe(true);
    // Only the card-paid one: direct debits are collected by the bank.
    expect(body.instalments.map((i) => i.payment_id)).toEqual([soon?.id]);
    expect(body.instalments_total).toBe(1);
    expect(body.next_charge_date).toBe(addDays(today, 10).replace(/-/g, ''));
    expect((await summary()).card_id).toBe(cardId);

    const off = await put(me, cardId, false);
    expect(off.statusCode).toBe(200);
    expect(off.json<Summary>()).toMatchObject({
      card_id: null,
      instalments: [],
      instalments_total: 0,
    });
  });

  it('lists the first 50 instalments it will pay and counts them all', async () => {
    const owed = await owe(60, addDays(today, 20));
    expect(owed).toHaveLength(60);
    expect((await put(me, cardId, true)).statusCode).toBe(200);
    const state = await summary();
    expect(state.instalments).toHaveLength(50);
    // All 60, and none of the direct debits (every other pending one): the bank collects those.
    expect(state.instalments_total).toBe(60);
  });

  it("refuses another customer's card, a bank account, and a card Redsys cannot charge alone", async () => {
    for (const id of [otherCardId, bankId, '00000000-0000-4000-8000-000000000000', 'x']) {
      const res = await put(me, id, true);
      expect(res.statusCode, id).toBe(404);
    }
    expect((await summary(other)).card_id).toBeNull();
    expect((await summary()).card_id).toBeNull();

    await db.withOwner((sql) =>
      sql.query('UPDATE payment_methods SET redsys_cof_txnid = NULL WHERE id = $1', [cardId]),
    );
    try {
      expect((await summary()).cards[0]).toMatchObject({
        eligible: false,
        problem: 'no_cof_txnid',
      });
      const res = await put(me, cardId, true);
      expect(res.statusCode).toBe(409);
      expect(res.json<{ code: string }>().code).toBe('auto_pay_card_unsupported');
    } finally {
      await db.withOwner((sql) =>
        sql.query("UPDATE payment_methods SET redsys_cof_txnid = '2110222140220' WHERE id = $1", [
          cardId,
        ]),
      );
    }
  });

  it('a tenant that forbids auto-pay: 403, nothing offered and nothing charged', async () => {
    const due = await owe(1, today);
    expect((await put(me, cardId, true)).statusCode).toBe(200);
    await db.withOwner((sql) => sql.query("UPDATE tenants SET auto_pay = false WHERE id = 'demo'"));
    const res = await put(me, cardId, true);
    expect(res.statusCode).toBe(403);
    expect(res.json<{ code: string }>().code).toBe('auto_pay_not_allowed');
    expect(await summary()).toMatchObject({ allowed: false, card_id: null, instalments: [] });

    const run = charger();
    const { jobs } = await sweep(run);
    expect(jobs).toEqual([]);
    // A job queued before the switch charges nothing either.
    expect(
      await run.charge({ tenantId: 'demo', instalmentId: due[0]?.id ?? '', attemptNo: 1 }),
    ).toBe('skipped');
    expect(await simCharges()).toEqual([]);
    expect(await statusOf(due.map((d) => d.id))).toEqual(['pending']);
  });

  it('charges each instalment due once, however many sweeps and jobs run at once', async () => {
    const due = await owe(2, today);
    const ids = due.map((d) => d.id);
    expect((await put(me, cardId, true)).statusCode).toBe(200);

    const [a, b] = await Promise.all([sweep(), sweep()]);
    const outcomes = [...(a?.outcomes ?? []), ...(b?.outcomes ?? [])];
    expect(outcomes.filter((o) => o === 'paid')).toHaveLength(2);
    expect(outcomes.every((o) => o === 'paid' || o === 'duplicate' || o === 'skipped')).toBe(true);
    // Retried jobs and a third sweep: nothing more.
    const run = charger();
    const again = await Promise.all(
      ids.flatMap((id) =>
        [1, 1, 1].map((n) => run.charge({ tenantId: 'demo', instalmentId: id, attemptNo: n })),
      ),
    );
    expect(new Set(again)).toEqual(new Set(['skipped']));
    expect((await sweep()).jobs).toEqual([]);

    const charged = await simCharges();
    expect(charged).toHaveLength(2);
    expect(charged.map((c) => c.amountCents).sort()).toEqual(due.map((d) => d.amount_cents).sort());
    expect(await statusOf(ids)).toEqual(['paid', 'paid']);
    const rows = await chargesOf(ids);
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.status === 'paid' && r.initiated_by === 'merchant')).toBe(true);
    // As any card payment: the receipt, and payment.succeeded for the provider.
    expect(mails.filter((m) => /Justificante de pago/.test(m.subject))).toHaveLength(2);
    const events = await db.withOwner((sql) =>
      sql.query<{ type: string }>(
        `SELECT type FROM webhook_events WHERE tenant_id = 'demo' AND payload->>'order_number' = ANY($1)`,
        [charged.map((c) => c.order)],
      ),
    );
    expect(events.map((e) => e.type)).toEqual(['payment.succeeded', 'payment.succeeded']);
    // Paid: no longer in the list the card will pay.
    expect((await summary()).instalments.map((i) => i.payment_id)).not.toContain(ids[0]);
  });

  it('a decline tells the customer, falls back to paying by hand, and is retried as the tenant sets', async () => {
    await db.withOwner((sql) =>
      sql.query("UPDATE payment_methods SET redsys_reference = 'demodecline0001' WHERE id = $1", [
        cardId,
      ]),
    );
    const [due] = await owe(1, today);
    const id = due?.id ?? '';
    expect((await put(me, cardId, true)).statusCode).toBe(200);
    const before = (await notificationsOf('auto_pay_failed')).length;

    const first = await sweep();
    expect(first.outcomes).toEqual(['declined']);
    expect(await statusOf([id])).toEqual(['pending']);
    const told = (await notificationsOf('auto_pay_failed')).slice(before);
    expect(told).toEqual([
      {
        params: {
          payment_id: id,
          invoice_id: due?.invoice_id,
          amount_cents: due?.amount_cents,
          code: '0190',
          retry: true,
        },
        link: `/invoice-detail/${due?.invoice_id ?? ''}`,
      },
    ]);
    expect(mails.map((m) => m.subject)).toEqual([
      expect.stringContaining('No hemos podido cobrar tu plazo'),
    ]);
    // It can be paid by hand at once: the instalment is free.
    const manual = await me.post('/redsys/checkout-preview', { payment_ids: [id] });
    expect(manual.statusCode, manual.body).toBe(200);

    // Not again before the retry is due; then twice more (2 retries), then never.
    expect((await sweep()).jobs).toEqual([]);
    const later = (days: number) => new Date(Date.now() + days * day + 60_000);
    expect((await sweep(charger(), later(2))).outcomes).toEqual(['declined']);
    expect((await sweep(charger(), later(4))).outcomes).toEqual(['declined']);
    expect((await sweep(charger(), later(6))).jobs).toEqual([]);
    expect((await sweep(charger(), later(30))).jobs).toEqual([]);
    expect((await chargesOf([id])).map((c) => [c.attempt_no, c.status])).toEqual([
      [1, 'failed'],
      [2, 'failed'],
      [3, 'failed'],
    ]);
    expect((await simCharges()).map((c) => c.dsResponse)).toEqual(['0190', '0190', '0190']);
    const retries = (await notificationsOf('auto_pay_failed'))
      .slice(before)
      .map((n) => n.params.retry);
    expect(retries).toEqual([true, true, false]);
    expect(await statusOf([id])).toEqual(['pending']);
  });

  it('a charge without an answer that the reconciliation settles as declined is told once', async () => {
    await db.withOwner((sql) =>
      sql.query("UPDATE payment_methods SET redsys_reference = 'demodecline0001' WHERE id = $1", [
        cardId,
      ]),
    );
    const [due] = await owe(1, today);
    const id = due?.id ?? '';
    expect((await put(me, cardId, true)).statusCode).toBe(200);
    const before = (await notificationsOf('auto_pay_failed')).length;

    // The gateway declines the charge, but its answer is lost: the attempt stays pending.
    const redsys = createRedsysClient({ simulatorUrl: simUrl });
    const lost = createAutoPayCharger({
      db,
      payments: testPaymentService(db, simUrl),
      send: async (gateway, input) => {
        await redsys.mitCharge(gateway, input);
        return { kind: 'unknown', reason: 'timeout' };
      },
      mail: createAutoPayMailer(db, mailer),
      declineMails: declineMails(),
      log: quiet,
    });
    expect((await sweep(lost)).outcomes).toEqual(['unknown']);
    expect(await notificationsOf('auto_pay_failed')).toHaveLength(before);
    expect(mails).toEqual([]);

    // The reconciliation asks the gateway later and settles it as declined: told once, mailed once.
    const [charge] = await chargesOf([id]);
    expect(charge?.status).toBe('pending');
    await db.withOwner((sql) =>
      sql.query(
        `UPDATE payment_attempts SET created_at = now() - interval '5 minutes'
          WHERE id = (SELECT payment_attempt_id FROM auto_pay_charges WHERE instalment_id = $1)`,
        [id],
      ),
    );
    const payments = createPaymentService({
      db,
      secretBox: box,
      simulatorUrl: simUrl,
      notificationBaseUrl: 'http://127.0.0.1:9',
      onPaid: async () => {},
      onAutoPayDeclined: async (tenantId) => {
        await declineMails().sendTenant(tenantId);
      },
      log: quiet,
    });
    const reconciler = createReconciler({
      db,
      secretBox: box,
      service: payments,
      client: redsys,
      afterMinutes: 1,
      releaseAfterMinutes: 60,
      log: quiet,
    });
    expect((await reconciler.reconcileTenant('demo')).map((r) => r.outcome)).toEqual(['failed']);
    expect(await statusOf([id])).toEqual(['pending']);
    expect((await chargesOf([id])).map((c) => c.status)).toEqual(['failed']);
    const told = (await notificationsOf('auto_pay_failed')).slice(before);
    expect(told.map((n) => n.params)).toEqual([
      {
        payment_id: id,
        invoice_id: due?.invoice_id,
        amount_cents: due?.amount_cents,
        code: '0190',
        retry: true,
      },
    ]);
    expect(mails.map((m) => m.subject)).toEqual([
      expect.stringContaining('No hemos podido cobrar tu plazo'),
    ]);

    // The same answer again (a second reconciliation, a late notification), the same decline
    // recorded again, the outbox and the next sweep: nobody is told twice.
    const order = await db.withOwner(async (sql) => {
      const [row] = await sql.query<{ id: string; order_number: string; amount_cents: string }>(
        `SELECT p.id, p.order_number, p.amount_cents::text FROM payment_attempts p
           JOIN auto_pay_charges c ON c.tenant_id = p.tenant_id AND c.payment_attempt_id = p.id
          WHERE c.instalment_id = $1`,
        [id],
      );
      return row;
    });
    const gateway = await db.withOwner(async (sql) => {
      const [row] = await sql.query<{ redsys_merchant_code: string; redsys_terminal: string }>(
        "SELECT redsys_merchant_code, redsys_terminal FROM tenants WHERE id = 'demo'",
      );
      return row;
    });
    expect(
      await payments.settleFromQuery('demo', {
        Ds_Order: order?.order_number ?? '',
        Ds_MerchantCode: gateway?.redsys_merchant_code ?? '',
        Ds_Terminal: gateway?.redsys_terminal ?? '',
        Ds_Amount: order?.amount_cents ?? '',
        Ds_Currency: '978',
        Ds_Response: '0190',
        Ds_TransactionType: '0',
        Ds_AuthorisationCode: '',
      }),
    ).toBe('duplicate');
    expect(
      await db.withTenant('demo', (sql) => recordAutoPayDecline(sql, order?.id ?? '', '0190')),
    ).toBe(false);
    expect(await reconciler.reconcileTenant('demo')).toEqual([]);
    expect(await declineMails().sendDue()).toBe(0);
    await sweep();
    expect((await notificationsOf('auto_pay_failed')).slice(before)).toHaveLength(1);
    expect(mails).toHaveLength(1);
  });

  it('a decline e-mail the mail server refused is sent by a later sweep, once', async () => {
    await db.withOwner((sql) =>
      sql.query("UPDATE payment_methods SET redsys_reference = 'demodecline0001' WHERE id = $1", [
        cardId,
      ]),
    );
    await owe(1, today);
    expect((await put(me, cardId, true)).statusCode).toBe(200);
    const down = createDeclineMailSender({
      db,
      mail: createAutoPayMailer(db, {
        send: async () => {
          throw new Error('smtp down');
        },
      }),
      log: quiet,
      retryBaseSeconds: 60,
    });
    const redsys = createRedsysClient({ simulatorUrl: simUrl });
    const refused = createAutoPayCharger({
      db,
      payments: testPaymentService(db, simUrl),
      send: (gateway, input) => redsys.mitCharge(gateway, input),
      mail: createAutoPayMailer(db, mailer),
      declineMails: down,
      log: quiet,
    });
    expect((await sweep(refused)).outcomes).toEqual(['declined']);
    expect(mails).toEqual([]);
    // Not due again at once (back-off); then the outbox sends it, once.
    expect(await declineMails().sendDue()).toBe(0);
    await db.withOwner((sql) =>
      sql.query(
        `UPDATE auto_pay_charges SET decline_mail_due_at = now() - interval '1 second'
          WHERE decline_mailed_at IS NULL AND decline_mail_due_at IS NOT NULL`,
      ),
    );
    expect(await declineMails().sendDue()).toBe(1);
    expect(await declineMails().sendDue()).toBe(0);
    expect(mails.map((m) => m.subject)).toEqual([
      expect.stringContaining('No hemos podido cobrar tu plazo'),
    ]);
  });

  it('sends the notice once, the set number of days before', async () => {
    const [soon] = await owe(1, addDays(today, 3));
    await owe(1, addDays(today, 4));
    expect((await put(me, cardId, true)).statusCode).toBe(200);
    const run = charger();
    const [a, b] = await Promise.all([run.sweep(async () => {}), run.sweep(async () => {})]);
    expect((a?.notices ?? 0) + (b?.notices ?? 0)).toBe(1);
    await run.sweep(async () => {});
    const notices = mails.filter((m) => /Próximo cobro automático/.test(m.subject));
    expect(notices).toHaveLength(1);
    const euros = new Intl.NumberFormat('es-ES', { style: 'currency', currency: 'EUR' }).format(
      (soon?.amount_cents ?? 0) / 100,
    );
    expect(notices[0]?.text).toContain(
      `Cobraremos ${euros} el día ${addDays(today, 3).split('-').reverse().join('/')} con la tarjeta ···0004`,
    );
    expect(notices[0]?.text).toContain('Puedes desactivarlo');
    expect(await simCharges()).toEqual([]);
  });

  it('turning it off, or removing the card, stops the charges at once', async () => {
    const due = await owe(1, today);
    expect((await put(me, cardId, true)).statusCode).toBe(200);
    const run = charger();
    const jobs: AutoPayJob[] = [];
    await run.sweep(async (job) => {
      jobs.push(job);
    });
    expect(jobs).toHaveLength(1);
    // Turned off after the job was queued: the job charges nothing.
    expect((await put(me, cardId, false)).statusCode).toBe(200);
    expect(await Promise.all(jobs.map((job) => run.charge(job)))).toEqual(['skipped']);

    expect((await put(me, cardId, true)).statusCode).toBe(200);
    const removed = await app.inject({
      method: 'DELETE',
      url: `/demo/api/1.0/payment-methods/${cardId}`,
      headers: { authorization: `Bearer ${me.token}` },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(
      await db.withOwner((sql) =>
        sql.query("SELECT 1 FROM auto_pay_cards WHERE tenant_id = 'demo'"),
      ),
    ).toEqual([]);
    expect((await sweep()).jobs).toEqual([]);
    expect(await simCharges()).toEqual([]);
    expect(await statusOf(due.map((d) => d.id))).toEqual(['pending']);
  });

  it('an authorised charge of an instalment meanwhile paid by hand is an overpayment, refunded', async () => {
    const [due] = await owe(1, today);
    const id = due?.id ?? '';
    expect((await put(me, cardId, true)).statusCode).toBe(200);
    // The customer pays it by hand while the charge is on its way to Redsys.
    const run = charger(async () => {
      await db.withOwner((sql) =>
        sql.query(
          "UPDATE instalments SET status = 'paid', paid_date = current_date, method = 'Tarjeta' WHERE id = $1",
          [id],
        ),
      );
    });
    const { outcomes } = await sweep(run);
    expect(outcomes).toEqual(['overpaid']);
    const refunds = await db.withOwner((sql) =>
      sql.query<{ amount_cents: string; status: string }>(
        `SELECT r.amount_cents, r.status FROM payment_refunds r
           JOIN auto_pay_charges c ON c.tenant_id = r.tenant_id AND c.payment_attempt_id = r.attempt_id
          WHERE c.instalment_id = $1`,
        [id],
      ),
    );
    expect(refunds.map((r) => [Number(r.amount_cents), r.status])).toEqual([
      [due?.amount_cents, 'pending'],
    ]);
    expect(await notificationsOf('payment_overpaid')).not.toEqual([]);
  });

  it('the admin CLI sets the tenant switch, the notice and the retries', async () => {
    const admin = adminCommand(db);
    const set = await admin(
      'tenant',
      'update',
      '--id',
      'demo',
      '--auto-pay',
      'off',
      '--auto-pay-notice-days',
      '5',
      '--auto-pay-retries',
      '1',
      '--auto-pay-retry-days',
      '3',
    );
    expect(set.code, set.err).toBe(0);
    expect((await admin('tenant', 'show', '--id', 'demo')).out).toMatch(/auto-pay\s+off/);
    expect((await admin('tenant', 'update', '--id', 'demo', '--auto-pay', 'on')).code).toBe(0);
    expect((await admin('tenant', 'show', '--id', 'demo')).out).toMatch(
      /auto-pay\s+on \(notice 5 days, 1 retries every 3 days\)/,
    );
    const bad = await admin('tenant', 'update', '--id', 'demo', '--auto-pay-retries', '99');
    expect(bad.code).not.toBe(0);
    expect(bad.err).toMatch(/from 0 to 10/);
  });
});
