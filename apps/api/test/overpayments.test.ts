import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { decodeMerchantParameters } from '@portal/redsys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { secondEmail } from '../src/db/seed/demo.ts';
import { createSecretBox } from '../src/lib/secret-box.ts';
import {
  createRefunder,
  type RefundAnswer,
  type RefundGateway,
  type RefundRequest,
} from '../src/modules/payments/refunds.ts';
import { createRedsysClient } from '../src/modules/payments/redsys-client.ts';
import { createPaymentService } from '../src/modules/payments/service.ts';
import { payAtSimulator } from './checkout.ts';
import { adminCommand } from './admin-run.ts';
import { engines } from './engines.ts';
import { openLostNotifications, type LostNotifications } from './lost-notifications.ts';
import { postNotification, signedNotification } from './redsys-notification.ts';
import { signedIn } from './session.ts';

/** The seeded Redsys keys are plaintext (sealed only at a server's start): every box opens them. */
const box = createSecretBox(randomBytes(32));
const range = { datefrom: '20000101', dateto: '20991231', page: '1' };
type Instalment = { payment_id: string; invoice_id: string; amount: number };
type Status = {
  status: string;
  amount: number;
  invoices: string[];
  refund: { amount: number; status: string } | null;
};

const cents = (amount: number) => Math.round(amount * 100);

/**
 * The gateway's refund service as the refund outbox sees it: every call is recorded, and each one
 * is answered by the next scripted answer (the last one repeats).
 */
function scriptedGateway(...answers: RefundAnswer[]) {
  const calls: RefundRequest[] = [];
  const gateway: RefundGateway = async (_tenant, request) => {
    calls.push(request);
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)];
    if (!answer) throw new Error('no scripted answer');
    return answer;
  };
  return { calls, gateway };
}

/**
 * Money is never silently lost (issue 20): an authorisation that arrives for an attempt that was
 * superseded, released, or whose instalments another attempt already paid, is recorded; it pays
 * what is still unpaid, and the surplus is refunded through the gateway exactly once, or left for
 * the operator. The customer is told, and the provider gets webhook events.
 */
describe.each(engines())('late authorisations and overpayments on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let other: Awaited<ReturnType<typeof signedIn>>;
  let sim: FastifyInstance;
  let simUrl: string;
  let gateway: LostNotifications;

  beforeAll(async () => {
    // The local Redsys simulator: it takes the card payments and refunds them (trataPeticionREST).
    // Its own notifications are lost; the tests send them.
    gateway = await openLostNotifications(engine, {}, { PUBLIC_URL: 'http://localhost:3000' });
    ({ db, app, sim, simUrl } = gateway);
    me = await signedIn(app, 'demo');
    other = await signedIn(app, 'demo', secondEmail);
    await db.withOwner(async (sql) => {
      // The provider's webhook, so that events are written to the outbox (not sent here).
      await sql.query(
        `INSERT INTO webhook_endpoints (tenant_id, url, secret)
         VALUES ('demo', 'https://erp.example.com/hooks', 'unused')`,
      );
      // Enough to pay: twenty of the demo customer's paid instalments are owed again.
      await sql.query(
        `UPDATE instalments SET status = 'pending', paid_date = NULL
          WHERE tenant_id = 'demo' AND id IN (
            SELECT e.id FROM instalments e JOIN customers c
              ON c.tenant_id = e.tenant_id AND c.id = e.customer_id
             WHERE e.tenant_id = 'demo' AND c.email = 'cliente@demo.test' AND e.status = 'paid'
             ORDER BY e.due_date DESC LIMIT 20)`,
      );
    });
  });
  afterAll(async () => gateway.close());

  const unpaid = async (who = me) =>
    (await who.post('/payments', { ...range, pending: true, overdue: true })).json<{
      payments: Instalment[];
    }>().payments;
  const start = async (items: Instalment[], who = me) => {
    const res = await who.post('/redsys/init-payment', {
      amount: items.reduce((s, p) => s + cents(p.amount), 0) / 100,
      payment_ids: items.map((p) => p.payment_id),
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ payment_id: string; redsys_params: Record<string, string> }>();
    return {
      id: body.payment_id,
      form: body.redsys_params,
      p: decodeMerchantParameters(body.redsys_params.Ds_MerchantParameters ?? ''),
    };
  };
  const notify = (message: Record<string, string>) => postNotification(app, message);
  const authorise = async (attempt: { p: Record<string, string> }) =>
    expect((await notify(signedNotification(attempt.p, '0000'))).statusCode).toBe(200);
  const statusOf = async (id: string, who = me) =>
    (await who.get(`/redsys/payment/${id}/status`)).json<Status>();
  const instalmentStatus = (ids: string[]) =>
    db.withTenant('demo', async (sql) =>
      (
        await sql.query<{ status: string }>(
          'SELECT status FROM instalments WHERE id::text = ANY($1) ORDER BY invoice_id, seq',
          [ids],
        )
      ).map((r) => r.status),
    );
  const refundsOf = (attemptId: string) =>
    db.withTenant('demo', (sql) =>
      sql.query<{ id: string; amount_cents: number; status: string; attempts: number }>(
        'SELECT id, amount_cents, status, attempts FROM payment_refunds WHERE attempt_id = $1',
        [attemptId],
      ),
    );
  const notificationsOf = (customerId: string, since: Date) =>
    db.withTenant('demo', (sql) =>
      sql.query<{
        type: string;
        title: string | null;
        message: string | null;
        params: Record<string, unknown>;
      }>(
        `SELECT type, title, message, params FROM notifications
          WHERE customer_id = $1 AND created_at >= $2 ORDER BY created_at, type`,
        [customerId, since],
      ),
    );
  const eventsFor = (paymentId: string) =>
    db.withTenant('demo', async (sql) =>
      sql.query<{ type: string; payload: Record<string, unknown> }>(
        `SELECT type, payload FROM webhook_events
          WHERE payload->>'payment_id' = $1 ORDER BY created_at, type`,
        [paymentId],
      ),
    );
  const refunder = (gateway: RefundGateway, maxAttempts = 3) =>
    createRefunder({
      db,
      secretBox: box,
      refundGateway: gateway,
      // Redsys gives no answer about the order's refunds: what is unknown stays unknown.
      queryRefunds: async () => ({ kind: 'failed' }),
      limits: { maxAttempts, retryBaseSeconds: 60 },
      log: { warn: () => {}, error: () => {} },
      random: () => 0,
    });
  /** One run of the refund outbox, as far as the refund `id` goes (others may be due too). */
  const sendOnly = async (run: ReturnType<typeof refunder>, id: string | undefined) =>
    (await run.sendDue()).filter((r) => r.refundId === id);
  const callsFor = (calls: RefundRequest[], attempt: { p: Record<string, string> }) =>
    calls.filter((c) => c.order === attempt.p.Ds_Merchant_Order);
  /** Makes the refund of `attemptId` due now (its retry was scheduled for later). */
  const due = (attemptId: string) =>
    db.withOwner((sql) =>
      sql.query(
        "UPDATE payment_refunds SET next_attempt_at = now() - interval '1 second' WHERE attempt_id = $1",
        [attemptId],
      ),
    );
  const admin = (...argv: string[]) => adminCommand(db)(...argv);

  it("pays the instalments with the first attempt's late authorisation when they are still unpaid", async () => {
    const [item] = await unpaid(other);
    if (!item) throw new Error('the second customer needs an unpaid instalment');
    const first = await start([item], other);
    const second = await start([item], other);
    expect((await statusOf(first.id, other)).status).toBe('superseded');

    // The customer had finished on the first card page after all: its authorisation arrives.
    await authorise(first);
    expect(await instalmentStatus([item.payment_id])).toEqual(['paid']);
    expect(await statusOf(first.id, other)).toMatchObject({ status: 'paid', refund: null });
    expect(await refundsOf(first.id)).toEqual([]);
    expect((await eventsFor(first.id)).map((e) => e.type)).toEqual(['payment.succeeded']);

    // The second card page is paid too: all of it was already paid, all of it is refunded.
    await authorise(second);
    expect(await statusOf(second.id, other)).toMatchObject({
      status: 'paid',
      refund: { amount: item.amount, status: 'pending' },
    });
    expect(await refundsOf(second.id)).toMatchObject([
      { amount_cents: cents(item.amount), status: 'pending' },
    ]);
  });

  it('refunds exactly the surplus, once, when the second attempt already paid, and tells the customer', async () => {
    const since = new Date(Date.now() - 1000);
    const [x, y] = await unpaid();
    if (!x || !y) throw new Error('the demo customer needs two unpaid instalments');
    // The first card page held X and Y; the customer went Back and paid Y alone.
    const first = await start([x, y]);
    const second = await start([y]);
    expect((await statusOf(first.id)).status).toBe('superseded');
    await authorise(second);
    expect(await instalmentStatus([y.payment_id])).toEqual(['paid']);

    // The first page's authorisation arrives late, twice: X is paid, Y's part is a surplus.
    await authorise(first);
    await authorise(first);
    expect(await instalmentStatus([x.payment_id, y.payment_id])).toEqual(['paid', 'paid']);
    const [refund] = await refundsOf(first.id);
    expect(await refundsOf(first.id)).toEqual([
      { id: refund?.id, amount_cents: cents(y.amount), status: 'pending', attempts: 0 },
    ]);
    expect(await statusOf(first.id)).toMatchObject({
      status: 'paid',
      amount: (cents(x.amount) + cents(y.amount)) / 100,
      refund: { amount: y.amount, status: 'pending' },
    });

    // The refund outbox sends it to the gateway: on the first attempt's order, the surplus only.
    const { calls, gateway } = scriptedGateway({ ok: true, authorisationCode: '654321' });
    expect(await sendOnly(refunder(gateway), refund?.id)).toEqual([
      { refundId: refund?.id, outcome: 'refunded' },
    ]);
    expect(callsFor(calls, first)).toEqual([
      {
        order: first.p.Ds_Merchant_Order,
        amountCents: cents(y.amount),
        terminal: first.p.Ds_Merchant_Terminal,
        merchantCode: first.p.Ds_Merchant_MerchantCode,
      },
    ]);
    // Run again: nothing is due, nothing is sent twice.
    expect(await sendOnly(refunder(gateway), refund?.id)).toEqual([]);
    expect(callsFor(calls, first)).toHaveLength(1);
    expect(await statusOf(first.id)).toMatchObject({
      status: 'paid',
      refund: { amount: y.amount, status: 'refunded' },
    });

    // The customer is told with what the web app words it from (no text stored).
    const notes = (await notificationsOf(me.user.id, since)).filter((n) =>
      [first.id, second.id].includes(String(n.params?.payment_id)),
    );
    expect(notes.map((n) => n.type)).toEqual([
      'payment_succeeded', // the second attempt: Y
      'payment_overpaid', // the first: Y was already paid
      'payment_succeeded', // the first: X
      'payment_refunded',
    ]);
    expect(notes[1]).toMatchObject({
      title: null,
      message: null,
      params: {
        payment_id: first.id,
        amount_cents: cents(x.amount) + cents(y.amount),
        refund_cents: cents(y.amount),
        invoices: [y.invoice_id],
        refund: 'automatic',
      },
    });
    expect(notes[3]).toMatchObject({
      params: { payment_id: first.id, refund_cents: cents(y.amount) },
    });
    // The provider hears of it: the payment, the overpayment and the refund.
    const events = await eventsFor(first.id);
    expect(events.map((e) => e.type).sort()).toEqual([
      'payment.overpaid',
      'payment.refunded',
      'payment.succeeded',
    ]);
    const byType = (type: string) => events.find((e) => e.type === type)?.payload;
    expect(byType('payment.overpaid')).toMatchObject({
      refund_cents: cents(y.amount),
      paid_cents: cents(x.amount) + cents(y.amount),
      refund: 'automatic',
    });
    expect(byType('payment.refunded')).toMatchObject({
      status: 'refunded',
      authorisation_code: '654321',
    });
    // A denial after all this changes nothing.
    expect((await notify(signedNotification(first.p, '0190'))).statusCode).toBe(200);
    expect((await statusOf(first.id)).status).toBe('paid');
  });

  it("honours a released attempt's late authorisation", async () => {
    const [item] = await unpaid();
    if (!item) throw new Error('the demo customer needs an unpaid instalment');
    const attempt = await start([item]);
    // The reconciliation found nothing at the gateway and released it: failed, no Ds_Response.
    const service = createPaymentService({
      db,
      secretBox: box,
      simulatorUrl: 'http://127.0.0.1:9',
      notificationBaseUrl: 'http://127.0.0.1:9',
      onPaid: async () => {},
      log: { warn: () => {}, error: () => {} },
    });
    await service.releaseAttempt('demo', attempt.id);
    expect((await statusOf(attempt.id)).status).toBe('failed');
    await authorise(attempt);
    expect(await statusOf(attempt.id)).toMatchObject({ status: 'paid', refund: null });
    expect(await instalmentStatus([item.payment_id])).toEqual(['paid']);
  });

  it('retries a refund the gateway refuses for now, then leaves it for the operator', async () => {
    const [item] = await unpaid();
    if (!item) throw new Error('the demo customer needs an unpaid instalment');
    const first = await start([item]);
    const second = await start([item]);
    await authorise(second);
    await authorise(first);
    const [refund] = await refundsOf(first.id);
    const { calls, gateway } = scriptedGateway({ ok: false, code: 'network', retryable: true });
    const run = refunder(gateway, 3);

    expect(await sendOnly(run, refund?.id)).toEqual([
      { refundId: refund?.id, outcome: 'retry', code: 'network' },
    ]);
    // Not due yet: the next run leaves it alone.
    expect(await sendOnly(run, refund?.id)).toEqual([]);
    await due(first.id);
    expect(await sendOnly(run, refund?.id)).toMatchObject([{ outcome: 'retry' }]);
    await due(first.id);
    expect(await sendOnly(run, refund?.id)).toMatchObject([{ outcome: 'review', code: 'network' }]);
    expect(callsFor(calls, first)).toHaveLength(3);
    expect(await refundsOf(first.id)).toMatchObject([{ status: 'review', attempts: 3 }]);
    expect((await eventsFor(first.id)).map((e) => e.type)).toContain('payment.refund_failed');
    expect((await statusOf(first.id)).refund).toEqual({ amount: item.amount, status: 'review' });

    // The operator sees it, has it sent again, and this time the gateway refunds.
    const listed = await admin('overpayments', 'list', '--tenant', 'demo');
    expect(listed.code).toBe(0);
    expect(listed.out).toContain(refund?.id);
    expect(listed.out).toContain('failed_attempts network');
    expect(
      (await admin('overpayments', 'retry', '--tenant', 'demo', '--id', refund?.id ?? '')).code,
    ).toBe(0);
    const ok = scriptedGateway({ ok: true, authorisationCode: '111111' });
    expect(await sendOnly(refunder(ok.gateway), refund?.id)).toMatchObject([
      { outcome: 'refunded' },
    ]);
    expect((await statusOf(first.id)).refund).toEqual({ amount: item.amount, status: 'refunded' });
    const after = await admin('overpayments', 'list', '--tenant', 'demo');
    expect(after.out).not.toContain(refund?.id);
  });

  it('leaves a refund the gateway refuses for good, or whose outcome is unknown, for the operator at once', async () => {
    const [a, b] = await unpaid();
    if (!a || !b) throw new Error('the demo customer needs two unpaid instalments');
    const refused = await start([a]);
    await authorise(await start([a]));
    await authorise(refused);
    const [refusedRefund] = await refundsOf(refused.id);
    const never = scriptedGateway({ ok: false, code: 'SIS0057', retryable: false });
    expect(await sendOnly(refunder(never.gateway), refusedRefund?.id)).toMatchObject([
      { outcome: 'review', code: 'SIS0057' },
    ]);
    expect(callsFor(never.calls, refused)).toHaveLength(1);

    // No answer in time: the refund may have been made, so it is never sent again blindly.
    const timedOut = await start([b]);
    await authorise(await start([b]));
    await authorise(timedOut);
    const [slowRefund] = await refundsOf(timedOut.id);
    const slow = scriptedGateway({ ok: false, code: 'timeout', retryable: true });
    expect(await sendOnly(refunder(slow.gateway), slowRefund?.id)).toMatchObject([
      { outcome: 'review', code: 'timeout' },
    ]);
    await due(timedOut.id);
    expect(await sendOnly(refunder(slow.gateway), slowRefund?.id)).toEqual([
      { refundId: slowRefund?.id, outcome: 'review', code: 'outcome_unknown' },
    ]);
    expect(callsFor(slow.calls, timedOut)).toHaveLength(1);
    const reasons = await db.withTenant('demo', (sql) =>
      sql.query<{ review_reason: string }>(
        'SELECT review_reason FROM payment_refunds WHERE attempt_id = ANY($1::uuid[]) ORDER BY created_at',
        [[refused.id, timedOut.id]],
      ),
    );
    expect(reasons.map((r) => r.review_reason)).toEqual(['refused', 'outcome_unknown']);
  });

  it('never sends a refund twice when a sender stopped in the middle of one', async () => {
    const [item] = await unpaid();
    if (!item) throw new Error('the demo customer needs an unpaid instalment');
    const first = await start([item]);
    await authorise(await start([item]));
    await authorise(first);
    const [taken] = await refundsOf(first.id);
    // A sender took it (status sending, one attempt) and died before recording the answer.
    await db.withOwner((sql) =>
      sql.query(
        `UPDATE payment_refunds SET status = 'sending', attempts = 1,
                next_attempt_at = now() - interval '1 second' WHERE attempt_id = $1`,
        [first.id],
      ),
    );
    const { calls, gateway } = scriptedGateway({ ok: true, authorisationCode: '1' });
    expect(await sendOnly(refunder(gateway), taken?.id)).toMatchObject([
      { outcome: 'review', code: 'outcome_unknown' },
    ]);
    expect(callsFor(calls, first)).toEqual([]);
    expect(await refundsOf(first.id)).toMatchObject([{ status: 'review' }]);
  });

  it('lists the overpayment for the operator, with a webhook event, where automatic refunds are off', async () => {
    const since = new Date(Date.now() - 1000);
    expect((await admin('tenant', 'update', '--id', 'demo', '--auto-refund', 'off')).code).toBe(0);
    expect((await admin('tenant', 'show', '--id', 'demo')).out).toMatch(/auto-refund\s+off/);
    expect((await admin('tenant', 'update', '--id', 'demo', '--auto-refund', 'maybe')).code).toBe(
      2,
    );
    try {
      const [item] = await unpaid();
      if (!item) throw new Error('the demo customer needs an unpaid instalment');
      const first = await start([item]);
      await authorise(await start([item]));
      await authorise(first);
      const [refund] = await refundsOf(first.id);
      expect(refund).toMatchObject({ amount_cents: cents(item.amount), status: 'review' });
      expect((await statusOf(first.id)).refund).toEqual({ amount: item.amount, status: 'review' });
      // Nothing is sent to the gateway.
      const { calls, gateway } = scriptedGateway({ ok: true, authorisationCode: '1' });
      expect(await sendOnly(refunder(gateway), refund?.id)).toEqual([]);
      expect(callsFor(calls, first)).toEqual([]);
      const [event] = (await eventsFor(first.id)).filter((e) => e.type === 'payment.overpaid');
      expect(event?.payload).toMatchObject({
        refund: 'manual',
        status: 'review',
        review_reason: 'auto_refund_off',
        refund_cents: cents(item.amount),
        order_number: first.p.Ds_Merchant_Order,
      });
      const note = (await notificationsOf(me.user.id, since)).find(
        (n) => n.type === 'payment_overpaid' && n.params?.payment_id === first.id,
      );
      expect(note).toMatchObject({
        title: null,
        params: { refund: 'manual' },
      });

      const listed = await admin('overpayments', 'list', '--tenant', 'demo', '--json');
      const rows = JSON.parse(listed.out) as { id: string; refund_cents: number }[];
      expect(rows).toContainEqual(
        expect.objectContaining({ id: refund?.id, refund_cents: cents(item.amount) }),
      );
      const resolved = await admin(
        'overpayments',
        'resolve',
        '--tenant',
        'demo',
        '--id',
        refund?.id ?? '',
        '--note',
        'Refunded from the Redsys back office',
      );
      expect(resolved.code).toBe(0);
      expect((await statusOf(first.id)).refund).toEqual({
        amount: item.amount,
        status: 'resolved',
      });
      // Resolved once: a second resolve is refused, and the list no longer shows it.
      expect(
        (await admin('overpayments', 'resolve', '--tenant', 'demo', '--id', refund?.id ?? '')).code,
      ).toBe(1);
      expect((await admin('overpayments', 'list', '--tenant', 'demo')).out).not.toContain(
        refund?.id,
      );
      expect((await admin('overpayments', 'list', '--tenant', 'demo', '--all')).out).toContain(
        refund?.id,
      );
      expect((await admin('overpayments', 'resolve', '--tenant', 'demo', '--id', 'x')).code).toBe(
        2,
      );
    } finally {
      await admin('tenant', 'update', '--id', 'demo', '--auto-refund', 'on');
    }
  });

  it('refunds the surplus through the simulator, over the real refund client', async () => {
    const [item] = await unpaid();
    if (!item) throw new Error('the demo customer needs an unpaid instalment');
    const first = await start([item]);
    const second = await start([item]);
    await authorise(second);
    // The customer pays on the first card page after all: the simulator holds that payment.
    await payAtSimulator(sim, simUrl, first.form);
    await authorise(first);
    const [refund] = await refundsOf(first.id);

    const client = createRedsysClient({ simulatorUrl: simUrl, timeoutMs: 5_000 });
    const run = refunder((gateway, request) => client.refund(gateway, request));
    expect(await sendOnly(run, refund?.id)).toEqual([
      { refundId: refund?.id, outcome: 'refunded' },
    ]);
    expect(await statusOf(first.id)).toMatchObject({
      status: 'paid',
      refund: { amount: item.amount, status: 'refunded' },
    });
    // The simulator refuses a second refund of the same order (more than was paid): the outbox
    // never sends one, but were it asked, it would be refused, not paid twice.
    const again = await client.refund(
      {
        company_name: 'Demo',
        canonical_url: 'http://localhost',
        redsys_environment: 'simulator',
        redsys_merchant_code: first.p.Ds_Merchant_MerchantCode ?? '',
        redsys_terminal: first.p.Ds_Merchant_Terminal ?? '',
        redsys_secret_key: 'sq7HjrUOBfKmC576ILgskD5srU870gJ7',
        redsys_signature_versions: ['HMAC_SHA256_V1'],
        redsys_pay_methods: [],
        auto_refund: true,
      },
      {
        order: first.p.Ds_Merchant_Order ?? '',
        amountCents: cents(item.amount),
        terminal: first.p.Ds_Merchant_Terminal ?? '',
        merchantCode: first.p.Ds_Merchant_MerchantCode ?? '',
      },
    );
    expect(again).toMatchObject({ ok: false, retryable: false });
  });

  it('shows the customer a refund of their own payments only', async () => {
    const [item] = await unpaid();
    if (!item) throw new Error('the demo customer needs an unpaid instalment');
    const first = await start([item]);
    await authorise(await start([item]));
    await authorise(first);
    expect((await me.get(`/redsys/payment/${first.id}/status`)).statusCode).toBe(200);
    expect((await other.get(`/redsys/payment/${first.id}/status`)).statusCode).toBe(404);
    const page = (await me.post('/notifications', { page: '1' })).json<{
      notifications: { type: string; params: Record<string, unknown> | null }[];
    }>();
    expect(page.notifications.find((n) => n.type === 'payment_overpaid')?.params).toMatchObject({
      payment_id: first.id,
      refund_cents: cents(item.amount),
    });
  });
});
