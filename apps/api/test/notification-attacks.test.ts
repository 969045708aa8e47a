import { randomBytes } from 'node:crypto';
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

  /** Starts paying one instalment no other attempt holds (earlier tests leave some held). */
  const startFree = async () => {
    for (const item of await unpaid()) {
      const res = await me.post('/redsys/init-payment', {
        amount: item.amount,
        payment_ids: [item.payment_id],
      });
      if (res.statusCode !== 200) continue;
      const body = res.json<{
        payment_id: string;
        redsys_params: { Ds_MerchantParameters: string };
      }>();
      return {
        id: body.payment_id,
        p: decodeMerchantParameters(body.redsys_params.Ds_MerchantParameters),
      };
    }
    throw new Error('the demo customer has no free unpaid instalment left');
  };

  /** Everything the notification endpoint may write, and what it costs on disk. */
  const storage = () =>
    db.withOwner(async (sql) => {
      const [row] = await sql.query<{ rows: number; bytes: string; database: string }>(
        `SELECT (SELECT count(*)::int FROM redsys_notifications) AS rows,
                pg_total_relation_size('redsys_notifications')::text AS bytes,
                pg_database_size(current_database())::text AS database`,
      );
      return { rows: row?.rows, bytes: Number(row?.bytes), database: Number(row?.database) };
    });
  const post = (payload: string, type = 'application/x-www-form-urlencoded', ip = '192.0.2.1') =>
    app.inject({
      method: 'POST',
      url: '/demo/api/1.0/redsys/notification',
      headers: { 'content-type': type },
      payload,
      remoteAddress: ip,
    });

  it.each([
    ['JSON instead of a form', 'application/json', JSON.stringify({ Ds_Signature: 'x' }), 415],
    ['no content type at all', '', 'Ds_Signature=x', 415],
    [
      'garbage parameters',
      'application/x-www-form-urlencoded',
      'Ds_SignatureVersion=HMAC_SHA256_V1&Ds_MerchantParameters=%%%&Ds_Signature=x',
      400,
    ],
    ['no fields', 'application/x-www-form-urlencoded', '', 400],
    [
      'repeated fields',
      'application/x-www-form-urlencoded',
      'Ds_Signature=a&Ds_Signature=b&Ds_MerchantParameters=e30',
      400,
    ],
    [
      'a huge body',
      'application/x-www-form-urlencoded',
      `Ds_MerchantParameters=${'A'.repeat(100_000)}`,
      413,
    ],
    [
      'a body just over 16 KB',
      'application/x-www-form-urlencoded',
      `Ds_SignatureVersion=HMAC_SHA256_V1&Ds_Signature=x&Ds_MerchantParameters=${'A'.repeat(16_384)}`,
      413,
    ],
  ])(
    'answers a notification with %s with a 4xx before any write',
    async (_name, type, payload, status) => {
      const before = await storage();
      const res = await post(payload, type);
      expect(res.statusCode).toBe(status);
      // The gateway reads a plain "KO"; nothing internal is answered either way.
      expect(res.body).not.toMatch(/\bat [\w.<>]+ \(|node_modules|stack/i);
      expect((await storage()).rows).toBe(before.rows);
    },
  );

  it('stores nothing for 1,000 junk notifications: forged, big, or too big', async () => {
    const { p } = await startFree();
    // A real notification for a real order, with its signature forged (another key)...
    const forged = answer(p, '0000', {}, 'Mk9m98IfEblmPfrpsawt7BmxObt98Jev');
    // ...one padded to just under the limit, and one far over it (64 KB, the old form limit),
    // with random (incompressible) padding, as an attacker filling the disk would send.
    const noise = (bytes: number) => randomBytes(bytes).toString('base64');
    const padded = {
      ...forged,
      Ds_MerchantParameters: `${forged.Ds_MerchantParameters}${noise(10_500)}`,
    };
    const huge = { ...forged, Ds_MerchantParameters: noise(47_000) };
    const bodies = [forged, padded, huge].map((fields) => new URLSearchParams(fields).toString());
    const before = await storage();
    const statuses = new Map<number, number>();
    for (let i = 0; i < 1000; i += 1) {
      // From many addresses, so it is the signature check, not the rate limit, that stops them.
      const res = await post(
        bodies[i % 3] ?? '',
        undefined,
        `198.51.${i % 250}.${Math.floor(i / 250) + 1}`,
      );
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 400: 667, 413: 333 });
    const after = await storage();
    expect(after.rows, 'junk stored rows').toBe(before.rows);
    expect(
      after.bytes,
      `redsys_notifications grew from ${before.bytes} to ${after.bytes} bytes (database ${before.database} -> ${after.database})`,
    ).toBe(before.bytes);
    expect(after.database, 'database size').toBe(before.database);
    // The genuine notification of that order still goes through (and frees the instalment).
    expect((await post(new URLSearchParams(answer(p, '0190')).toString())).statusCode).toBe(200);
  });

  it('limits notifications per source IP (429), other sources unaffected', async () => {
    const limited = await buildTestApp(db, { NOTIFICATION_RATE_LIMIT_PER_MINUTE: '5' });
    try {
      const from = (ip: string, payload = 'Ds_Signature=x') =>
        limited.inject({
          method: 'POST',
          url: '/demo/api/1.0/redsys/notification',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload,
          remoteAddress: ip,
        });
      const burst = [];
      for (let i = 0; i < 7; i += 1) burst.push((await from('203.0.113.7')).statusCode);
      expect(burst).toEqual([400, 400, 400, 400, 400, 429, 429]);
      const refused = await from('203.0.113.7');
      expect(refused.headers['retry-after']).toMatch(/^\d+$/);
      // A genuine notification from another address (Redsys) still goes through.
      const { id, p } = await startFree();
      const ok = await from('203.0.113.8', new URLSearchParams(answer(p, '0000')).toString());
      expect(ok.statusCode).toBe(200);
      expect((await ledger(id)).status).toBe('paid');
    } finally {
      await limited.close();
    }
  });

  it('refuses notifications for an unknown tenant or one without a card gateway, storing nothing', async () => {
    // Signed with the tenant's real key, for an order no attempt has: only the key matters here.
    const p = {
      Ds_Merchant_Order: '1234abcd',
      Ds_Merchant_Amount: '100',
      Ds_Merchant_MerchantCode: '999008881',
    };
    const genuine = new URLSearchParams(answer(p, '0190')).toString();
    const before = await storage();
    const unknown = await app.inject({
      method: 'POST',
      url: '/no-such-tenant/api/1.0/redsys/notification',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: genuine,
    });
    expect(unknown.statusCode).toBe(404);
    const [saved] = await db.withOwner((sql) =>
      sql.query<{ key: string | null }>(
        "SELECT redsys_secret_key AS key FROM tenants WHERE id = 'demo'",
      ),
    );
    await db.withOwner((sql) =>
      sql.query("UPDATE tenants SET redsys_secret_key = NULL WHERE id = 'demo'"),
    );
    try {
      expect((await post(genuine)).statusCode).toBe(404);
    } finally {
      await db.withOwner((sql) =>
        sql.query("UPDATE tenants SET redsys_secret_key = $1 WHERE id = 'demo'", [saved?.key]),
      );
    }
    expect((await storage()).rows).toBe(before.rows);
    // With the key back, the same notification verifies, is answered 200 and stored.
    expect((await post(genuine)).statusCode).toBe(200);
    expect((await storage()).rows).toBe((before.rows ?? 0) + 1);
  });
});
