import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { PUBLIC_TEST_MERCHANT, type QueryOperation } from '@portal/redsys';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { createSecretBox } from '../src/lib/secret-box.ts';
import { createReconciler } from '../src/modules/payments/reconcile.ts';
import type { RedsysClient } from '../src/modules/payments/redsys-client.ts';
import { createRefunder } from '../src/modules/payments/refunds.ts';
import { retiredMerchantDays } from '../src/modules/payments/repository.ts';
import { createPaymentService } from '../src/modules/payments/service.ts';
import { adminCommand } from './admin-run.ts';
import { buildTestApp, engines } from './engines.ts';
import { signedNotification } from './redsys-notification.ts';
import { signedIn } from './session.ts';
import { startCheckout as startCheckoutOf } from './checkout.ts';
import { secondEmail } from '../src/db/seed/demo.ts';

/*
 * Session 34's money review: the operator changes the tenant's Redsys merchant code (FUC), or its
 * code and key (a new acquirer, a new contract), with `npm run admin -- tenant update`, while a
 * customer is on Redsys' card page. The customer pays; Redsys notifies the authorisation of that
 * order as it was started: the old merchant code, signed with the old key. The money was taken
 * and must be recorded (before, the notification was answered 200 and dropped, or refused 400, and
 * the reconciliation could not match the answer). The old merchant answers only for orders
 * started before it was retired (migration 032).
 */

const quiet = { warn: () => {}, error: () => {} };
/** The new merchant's key (a valid HMAC_SHA256_V1 key: base64 of 24 bytes). Test data only. */
const NEW_KEY = 'Mk9m98IfEblmPfrpsawt7BmxObt98Jev';
const NEW_CODE = '999008882';

describe.each(engines())('merchant settings changed mid-checkout on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let me: Awaited<ReturnType<typeof signedIn>>;
  const rootSecret = randomBytes(32);
  let original: { code: string; terminal: string; key: string };

  beforeAll(async () => {
    db = await engine.open();
    app = await buildTestApp(db, { NOTIFICATION_URL: 'http://127.0.0.1:9' }, rootSecret);
    me = await signedIn(app, 'demo');
    const [row] = await db.withOwner((sql) =>
      sql.query<{ code: string; terminal: string; key: string }>(
        `SELECT redsys_merchant_code AS code, redsys_terminal AS terminal, redsys_secret_key AS key
           FROM tenants WHERE id = 'demo'`,
      ),
    );
    if (!row) throw new Error('no demo tenant');
    original = row;
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });
  /** Back to the seeded merchant, nothing left open. */
  afterEach(async () => {
    await db.withOwner(async (sql) => {
      await sql.query(
        `UPDATE tenants SET redsys_merchant_code = $1, redsys_terminal = $2, redsys_secret_key = $3
          WHERE id = 'demo'`,
        [original.code, original.terminal, original.key],
      );
      await sql.query(
        `UPDATE payment_attempts SET status = 'failed', settled_at = now()
          WHERE tenant_id = 'demo' AND status = 'pending'`,
      );
      await sql.query(
        "UPDATE payment_attempt_items SET active = false WHERE tenant_id = 'demo' AND active",
      );
    });
  });

  /** The operator's command, as `npm run admin -- tenant update ...` runs it: it succeeds. */
  const admin = async (...argv: string[]) => {
    const { code, err } = await adminCommand(db, rootSecret, {
      readFile: async () => Buffer.from(NEW_KEY),
      readStdin: async () => NEW_KEY,
    })(...argv);
    expect(code, err).toBe(0);
  };

  /** The operator moves the tenant to the new merchant code, and with `key` to its key too. */
  const newMerchant = ({ key }: { key: boolean }) =>
    admin(
      ...['tenant', 'update', '--id', 'demo', '--redsys-merchant-code', NEW_CODE],
      ...(key ? ['--redsys-key-file', '/new-merchant.key'] : []),
    );

  /**
   * The customer starts paying their first unpaid instalment and is on Redsys' card page, under
   * the merchant `code` (the seeded one unless told).
   */
  async function startCheckout(who = me, code = original.code) {
    const started = await startCheckoutOf(who);
    expect(started.p.Ds_Merchant_MerchantCode).toBe(code);
    return started;
  }
  const notify = (message: Record<string, string>) =>
    app.inject({
      method: 'POST',
      url: '/demo/api/1.0/redsys/notification',
      payload: new URLSearchParams(message).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  const attemptStatus = async (id: string) =>
    (
      await db.withOwner((sql) =>
        sql.query<{ status: string }>('SELECT status FROM payment_attempts WHERE id = $1', [id]),
      )
    )[0]?.status;

  it('control: without a change, the authorised notification pays', async () => {
    const { id, p } = await startCheckout();
    const res = await notify(signedNotification(p, '0000'));
    expect({ http: res.statusCode, attempt: await attemptStatus(id) }).toEqual({
      http: 200,
      attempt: 'paid',
    });
  });

  it('records an authorisation notified for the old merchant code (code changed, same key)', async () => {
    const { id, p } = await startCheckout();
    await newMerchant({ key: false });
    // Redsys notifies the order as it was started: the old FUC, the (unchanged) key.
    const res = await notify(signedNotification(p, '0000'));
    expect({ http: res.statusCode, attempt: await attemptStatus(id) }).toEqual({
      http: 200,
      attempt: 'paid',
    });
  });

  it('records an authorisation notified for the old merchant (code and key changed)', async () => {
    const { id, p } = await startCheckout();
    await newMerchant({ key: true });
    // Redsys notifies the order as it was started: the old FUC, signed with the old key.
    const res = await notify(signedNotification(p, '0000'));
    expect({ http: res.statusCode, attempt: await attemptStatus(id) }).toEqual({
      http: 200,
      attempt: 'paid',
    });
  });

  it('a retired key signs nothing for an order started after it was retired', async () => {
    await newMerchant({ key: true });
    // A checkout under the new merchant...
    const { id, p } = await startCheckout(me, NEW_CODE);
    // ...is not paid by a notification signed with the retired key (whoever still has it), under
    // the new code or the old one.
    for (const code of [NEW_CODE, original.code]) {
      const forged = await notify(
        signedNotification({ ...p, Ds_Merchant_MerchantCode: code }, '0000'),
      );
      expect(forged.statusCode).not.toBe(200);
      expect(await attemptStatus(id)).toBe('pending');
    }
    // The new key pays it.
    const real = await notify(signedNotification(p, '0000', {}, NEW_KEY));
    expect(real.statusCode).toBe(200);
    expect(await attemptStatus(id)).toBe('paid');
  });

  it('stops accepting a retired key 30 days after it was retired', async () => {
    const { id, p } = await startCheckout();
    await newMerchant({ key: true });
    await db.withOwner((sql) =>
      sql.query(
        `UPDATE tenant_retired_merchants
            SET retired_at = retired_at - make_interval(days => ${retiredMerchantDays} + 1)
          WHERE tenant_id = 'demo'`,
      ),
    );
    await db.withOwner((sql) =>
      sql.query(
        `UPDATE payment_attempts
            SET created_at = created_at - make_interval(days => ${retiredMerchantDays} + 2)
          WHERE id = $1`,
        [id],
      ),
    );
    // Whoever still has the old key (it may have been rotated because it leaked) signs nothing.
    const late = await notify(signedNotification(p, '0000'));
    expect(late.statusCode).toBe(400);
    expect(await attemptStatus(id)).toBe('pending');
  });

  it("refunds an old order's surplus through the merchant that took it", async () => {
    // Two card pages for the same instalment, both under the old merchant; both get paid.
    const other = await signedIn(app, 'demo', secondEmail);
    const first = await startCheckout(other);
    const second = await startCheckout(other);
    await newMerchant({ key: true });
    expect((await notify(signedNotification(second.p, '0000'))).statusCode).toBe(200);
    expect((await notify(signedNotification(first.p, '0000'))).statusCode).toBe(200);
    // The first charge is a surplus: refunded with the old merchant's code and key.
    const sent: { code: string | null; key: string | null; order: string }[] = [];
    const refunder = createRefunder({
      db,
      secretBox: createSecretBox(rootSecret),
      refundGateway: async (gateway, request) => {
        sent.push({
          code: gateway.redsys_merchant_code,
          key: gateway.redsys_secret_key,
          order: request.order,
        });
        return { ok: true, authorisationCode: '654321' };
      },
      queryRefunds: async () => ({ kind: 'failed' }),
      log: quiet,
    });
    await refunder.refundTenant('demo');
    expect(sent).toEqual([
      {
        code: original.code,
        key: PUBLIC_TEST_MERCHANT.secretKey,
        order: first.p.Ds_Merchant_Order,
      },
    ]);
  });

  it('alerts the operator to an authorised notification, signed with its key, for an order it does not know', async () => {
    const logged: string[] = [];
    const logging = await buildTestApp(
      db,
      { LOG_LEVEL: 'warn', NOTIFICATION_URL: 'http://127.0.0.1:9' },
      rootSecret,
      { write: (line) => void logged.push(line) },
    );
    try {
      const { p } = await startCheckout();
      const unknown = { ...p, Ds_Merchant_Order: '9999zzzzzzzz' };
      const res = await logging.inject({
        method: 'POST',
        url: '/demo/api/1.0/redsys/notification',
        payload: new URLSearchParams(signedNotification(unknown, '0000')).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(res.statusCode).toBe(200);
      const alerts = logged.filter((line) =>
        line.includes('for an order the portal does not know'),
      );
      expect(alerts).toHaveLength(1);
      expect(alerts[0]).toContain('9999zzzzzzzz');
    } finally {
      await logging.close();
    }
  });

  it('the reconciliation asks the old merchant, with its key, and records its authorisation (notification lost)', async () => {
    const { id, p } = await startCheckout();
    await newMerchant({ key: true });
    await db.withOwner((sql) =>
      sql.query(
        "UPDATE payment_attempts SET created_at = now() - interval '5 minutes' WHERE id = $1",
        [id],
      ),
    );
    // Redsys' (signed, verified) query answer: the order of the old merchant, authorised.
    const asked: { merchantCode?: string; key?: string | null }[] = [];
    const client = {
      queryOrder: async (
        gateway: { redsys_secret_key: string | null },
        order: string,
        query: { merchantCode?: string } = {},
      ) => {
        asked.push({ ...query, key: gateway.redsys_secret_key });
        const operation: QueryOperation = {
          order,
          transactionType: '0',
          state: 'F',
          response: '0000',
          amountCents: Number(p.Ds_Merchant_Amount),
          currency: '978',
          authorisationCode: '123456',
          merchantCode: query.merchantCode ?? '',
          terminal: '1',
          date: '2026-01-10',
          hour: '10:00',
        };
        return { kind: 'ok' as const, operations: [operation] };
      },
    } as unknown as RedsysClient;
    const box = createSecretBox(rootSecret);
    const reconciler = createReconciler({
      db,
      secretBox: box,
      service: createPaymentService({
        db,
        secretBox: box,
        simulatorUrl: 'http://127.0.0.1:9',
        notificationBaseUrl: 'http://127.0.0.1:9',
        onPaid: async () => {},
        log: quiet,
      }),
      client,
      afterMinutes: 1,
      releaseAfterMinutes: 60,
      log: quiet,
    });
    const results = await reconciler.reconcileTenant('demo');
    // It asked about the attempt's own merchant code, signed with that merchant's key...
    expect(asked).toEqual([
      expect.objectContaining({ merchantCode: original.code, key: PUBLIC_TEST_MERCHANT.secretKey }),
    ]);
    // ...and the authorised answer must pay it.
    expect({ reconciled: results, attempt: await attemptStatus(id) }).toEqual({
      reconciled: [{ attemptId: id, outcome: 'paid' }],
      attempt: 'paid',
    });
  });
});
