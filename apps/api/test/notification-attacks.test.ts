import type { FastifyInstance } from 'fastify';
import { decodeMerchantParameters } from '@portal/redsys';
import { signedNotification } from './redsys-notification.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { secondEmail } from '../src/db/seed/demo.ts';
import { buildTestApp, engines } from './engines.ts';
import { signedIn } from './session.ts';

const range = { datefrom: '20000101', dateto: '20991231', page: '1' };
type Payment = { payment_id: string; amount: number };

/**
 * The Redsys notification is the only unauthenticated call that moves money: replays, floods and
 * races must leave exactly one payment, and two "Pay" clicks exactly one attempt in progress.
 */
describe.each(engines())('notification and payment races on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let other: Awaited<ReturnType<typeof signedIn>>;

  beforeAll(async () => {
    db = await engine.open();
    app = await buildTestApp(db, { PUBLIC_URL: 'http://localhost:3000' });
    me = await signedIn(app, 'demo');
    other = await signedIn(app, 'demo', secondEmail);
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  const unpaid = async (who = me) =>
    (await who.post('/payments', { ...range, pending: true, overdue: true })).json<{
      payments: Payment[];
    }>().payments;
  const start = async (items: Payment[], extra: object = {}, who = me) => {
    const res = await who.post('/redsys/init-payment', {
      amount: Math.round(items.reduce((s, p) => s + p.amount * 100, 0)) / 100,
      payment_ids: items.map((p) => p.payment_id),
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{
      payment_id: string;
      redsys_params: { Ds_MerchantParameters: string };
    }>();
    return {
      id: body.payment_id,
      p: decodeMerchantParameters(body.redsys_params.Ds_MerchantParameters),
    };
  };
  const answer = signedNotification;
  const notify = (message: Record<string, string>, tenant = 'demo') =>
    app.inject({
      method: 'POST',
      url: `/${tenant}/api/1.0/redsys/notification`,
      payload: new URLSearchParams(message).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  /** What the database says about an attempt: its state and everything a payment writes. */
  const ledger = (attemptId: string) =>
    db.withOwner(async (sql) => {
      const [attempt] = await sql.query<{ status: string; customer_id: string }>(
        "SELECT status, customer_id FROM payment_attempts WHERE tenant_id = 'demo' AND id = $1",
        [attemptId],
      );
      const outcomes = await sql.query<{ outcome: string; n: number }>(
        `SELECT outcome, count(*)::int AS n FROM redsys_notifications
          WHERE tenant_id = 'demo' AND attempt_id = $1 GROUP BY outcome ORDER BY outcome`,
        [attemptId],
      );
      const items = await sql.query<{ status: string }>(
        `SELECT e.status FROM payment_attempt_items i JOIN instalments e
            ON e.tenant_id = i.tenant_id AND e.id = i.instalment_id
          WHERE i.tenant_id = 'demo' AND i.attempt_id = $1`,
        [attemptId],
      );
      const [receipts] = await sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM notifications
          WHERE tenant_id = 'demo' AND customer_id = $1 AND type = 'payment_succeeded'`,
        [attempt?.customer_id],
      );
      return {
        status: attempt?.status,
        outcomes: Object.fromEntries(outcomes.map((o) => [o.outcome, o.n])),
        items: items.map((i) => i.status),
        receipts: receipts?.n ?? 0,
      };
    });

  it('applies 50 identical notifications sent at once exactly once', async () => {
    const [first] = await unpaid();
    const { id, p } = await start([first as Payment], { save_card: true });
    const receiptsBefore = (await ledger(id)).receipts;
    const ok = answer(p, '0000', {
      Ds_Merchant_Identifier: 'f'.repeat(40),
      Ds_Card_Number: '454881******0004',
      Ds_ExpiryDate: '3012',
    });
    const answers = await Promise.all(Array.from({ length: 50 }, () => notify(ok)));
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200));
    expect(await ledger(id)).toEqual({
      status: 'paid',
      outcomes: { duplicate: 49, paid: 1 },
      items: ['paid'],
      receipts: receiptsBefore + 1,
    });
    const cards = await db.withOwner((sql) =>
      sql.query('SELECT id FROM payment_methods WHERE redsys_reference = $1', ['f'.repeat(40)]),
    );
    expect(cards).toHaveLength(1);
  });

  it('changes nothing when old notifications are replayed later, in any order', async () => {
    const [first] = await unpaid();
    const declined = await start([first as Payment]);
    const no = answer(declined.p, '0190');
    expect((await notify(no)).statusCode).toBe(200);
    expect((await ledger(declined.id)).status).toBe('failed');
    // The instalment is paid through a new attempt...
    const retry = await start([first as Payment]);
    const yes = answer(retry.p, '0000');
    expect((await notify(yes)).statusCode).toBe(200);
    const paid = await ledger(retry.id);
    expect(paid).toMatchObject({ status: 'paid', outcomes: { paid: 1 }, items: ['paid'] });
    // ...then both notifications come back, again and again: nothing moves.
    for (let i = 0; i < 3; i++) {
      expect((await notify(no)).statusCode).toBe(200);
      expect((await notify(yes)).statusCode).toBe(200);
    }
    expect(await ledger(retry.id)).toEqual({
      ...paid,
      outcomes: { duplicate: 3, paid: 1 },
    });
    expect((await ledger(declined.id)).status).toBe('failed');
    // A denial sent after the authorisation does not undo it either.
    expect((await notify(answer(retry.p, '0190'))).statusCode).toBe(200);
    expect((await ledger(retry.id)).status).toBe('paid');
  });

  it('leaves one open attempt when ten pay requests for one instalment arrive at once', async () => {
    const [, second] = await unpaid(other);
    const body = { amount: second?.amount, payment_ids: [second?.payment_id] };
    const results = await Promise.all(
      Array.from({ length: 10 }, () => other.post('/redsys/init-payment', body)),
    );
    // A new start supersedes the open one (the customer came back from the gateway); racing
    // starts queue on the instalment's lock, so each supersedes the one before it. A start the
    // database refuses (409) is acceptable; two open attempts never are.
    for (const r of results) expect([200, 409]).toContain(r.statusCode);
    const started = results
      .filter((r) => r.statusCode === 200)
      .map((r) => r.json<{ payment_id: string }>().payment_id);
    expect(started.length).toBeGreaterThanOrEqual(1);
    const holding = await db.withOwner((sql) =>
      sql.query<{ id: string; status: string; active: boolean }>(
        `SELECT a.id, a.status, i.active FROM payment_attempt_items i JOIN payment_attempts a
            ON a.tenant_id = i.tenant_id AND a.id = i.attempt_id
          WHERE i.tenant_id = 'demo' AND i.instalment_id = $1`,
        [second?.payment_id],
      ),
    );
    const ours = holding.filter((h) => started.includes(h.id));
    expect(ours).toHaveLength(started.length);
    expect(ours.filter((h) => h.status === 'pending')).toHaveLength(1);
    expect(ours.filter((h) => h.status === 'superseded')).toHaveLength(started.length - 1);
    expect(holding.filter((h) => h.active)).toEqual(ours.filter((h) => h.status === 'pending'));
  });

  it('never leaves two open attempts when overlapping selections race (A+B against B+C)', async () => {
    const [a, b, c] = await unpaid();
    if (!a || !b || !c) throw new Error('the demo customer needs three unpaid instalments');
    const pay = (items: Payment[]) =>
      me.post('/redsys/init-payment', {
        amount: Math.round(items.reduce((s, p) => s + p.amount * 100, 0)) / 100,
        payment_ids: items.map((p) => p.payment_id),
      });
    const [ab, bc] = await Promise.all([pay([a, b]), pay([b, c])]);
    for (const r of [ab, bc]) expect([200, 409]).toContain(r.statusCode);
    expect([ab, bc].some((r) => r.statusCode === 200)).toBe(true);
    const holders = (id: string) =>
      db.withOwner((sql) =>
        sql.query<{ status: string }>(
          `SELECT a.status FROM payment_attempt_items i JOIN payment_attempts a
              ON a.tenant_id = i.tenant_id AND a.id = i.attempt_id
            WHERE i.tenant_id = 'demo' AND i.active AND i.instalment_id = $1`,
          [id],
        ),
      );
    // B is held by exactly one open attempt; the other start was superseded (or refused).
    expect(await holders(b.payment_id)).toEqual([{ status: 'pending' }]);
    const open = await db.withOwner((sql) =>
      sql.query<{ n: number }>(
        `SELECT count(DISTINCT a.id)::int AS n FROM payment_attempt_items i JOIN payment_attempts a
            ON a.tenant_id = i.tenant_id AND a.id = i.attempt_id
          WHERE i.tenant_id = 'demo' AND a.status = 'pending'
            AND i.instalment_id = ANY($1::uuid[])`,
        [[a.payment_id, b.payment_id, c.payment_id]],
      ),
    );
    expect(open[0]?.n).toBe(1);
  });

  it('records one payment and at most one refund from 50 late notifications of a superseded attempt', async () => {
    const [first] = await unpaid(other);
    if (!first) throw new Error('the second customer needs an unpaid instalment');
    const abandoned = await start([first], {}, other);
    const again = await start([first], {}, other);
    expect((await ledger(abandoned.id)).status).toBe('superseded');
    // The second attempt is paid; then the first card page's authorisation arrives, 50 times at once.
    expect((await notify(answer(again.p, '0000'))).statusCode).toBe(200);
    const late = answer(abandoned.p, '0000');
    const answers = await Promise.all(Array.from({ length: 50 }, () => notify(late)));
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200));
    const after = await ledger(abandoned.id);
    expect(after).toMatchObject({ status: 'paid', outcomes: { duplicate: 49, overpaid: 1 } });
    const refunds = await db.withOwner((sql) =>
      sql.query<{ amount_cents: number; status: string }>(
        "SELECT amount_cents, status FROM payment_refunds WHERE tenant_id = 'demo' AND attempt_id = $1",
        [abandoned.id],
      ),
    );
    expect(refunds).toEqual([{ amount_cents: Math.round(first.amount * 100), status: 'pending' }]);
    // A denial sent afterwards changes nothing.
    expect((await notify(answer(abandoned.p, '0190'))).statusCode).toBe(200);
    expect((await ledger(abandoned.id)).status).toBe('paid');
  });

  it.each([
    ['JSON instead of a form', 'application/json', JSON.stringify({ Ds_Signature: 'x' })],
    [
      'garbage parameters',
      'application/x-www-form-urlencoded',
      'Ds_SignatureVersion=HMAC_SHA256_V1&Ds_MerchantParameters=%%%&Ds_Signature=x',
    ],
    ['no fields', 'application/x-www-form-urlencoded', ''],
    [
      'repeated fields',
      'application/x-www-form-urlencoded',
      'Ds_Signature=a&Ds_Signature=b&Ds_MerchantParameters=e30',
    ],
    [
      'a huge body',
      'application/x-www-form-urlencoded',
      `Ds_MerchantParameters=${'A'.repeat(100_000)}`,
    ],
  ])('answers a notification with %s with a 4xx and no payment', async (_name, type, payload) => {
    const paid = () =>
      db.withOwner((sql) =>
        sql.query(
          "SELECT id FROM redsys_notifications WHERE outcome <> 'bad_signature' ORDER BY id",
        ),
      );
    const before = await paid();
    const res = await app.inject({
      method: 'POST',
      url: '/demo/api/1.0/redsys/notification',
      headers: { 'content-type': type },
      payload,
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    // The gateway reads a plain "KO"; nothing internal is answered either way.
    expect(res.body).not.toMatch(/\bat [\w.<>]+ \(|node_modules|stack/i);
    expect(await paid()).toEqual(before);
  });
});
