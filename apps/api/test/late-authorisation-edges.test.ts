import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { decodeMerchantParameters, type QueryOperation } from '@portal/redsys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { createSecretBox } from '../src/lib/secret-box.ts';
import { createApiKey } from '../src/modules/admin/api-keys.ts';
import { createReconciler } from '../src/modules/payments/reconcile.ts';
import { createRedsysClient, type RedsysClient } from '../src/modules/payments/redsys-client.ts';
import { createRefunder, refundsThrough } from '../src/modules/payments/refunds.ts';
import { createPaymentService } from '../src/modules/payments/service.ts';
import { buildTestApp, engines } from './engines.ts';
import { signedNotification } from './redsys-notification.ts';
import { signedIn } from './session.ts';

/*
 * Late authorisations after the provider changed what they were for, and refunds whose outcome is
 * unknown (session 33's review of modules/payments): each failed on the code before it (a 500 with
 * nothing recorded, a refund missed or sent twice, a tenant never reconciled).
 */

const box = createSecretBox(randomBytes(32));
const quiet = { warn: () => {}, error: () => {} };

describe.each(engines())('late authorisations and ambiguous refunds on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  const sessions: Record<string, Awaited<ReturnType<typeof signedIn>>> = {};
  const keys: Record<string, string> = {};
  const codes: Record<string, string> = {};
  let service: ReturnType<typeof createPaymentService>;

  beforeAll(async () => {
    db = await engine.open();
    app = await buildTestApp(db, { PUBLIC_URL: 'http://localhost:3000' });
    // The provider listens: what the payment events tell it is read below.
    await db.withOwner((sql) =>
      sql.query(
        `INSERT INTO webhook_endpoints (tenant_id, url, secret)
         VALUES ('demo', 'https://erp.example.com/hooks', 'unused')`,
      ),
    );
    for (const tenant of ['1', 'demo']) {
      sessions[tenant] = await signedIn(app, tenant);
      keys[tenant] = (await db.withTenant(tenant, (sql) => createApiKey(sql, 'review'))).key;
      codes[tenant] = sessions[tenant].user.code;
    }
    service = createPaymentService({
      db,
      secretBox: box,
      simulatorUrl: 'http://127.0.0.1:9',
      notificationBaseUrl: 'http://127.0.0.1:9',
      onPaid: async () => {},
      log: quiet,
    });
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  /** The provider's ERP sends an invoice of two instalments (amounts in cents) through ingestion. */
  const putInvoice = async (tenant: string, id: string, amounts: number[]) => {
    const total = amounts.reduce((s, a) => s + a, 0);
    const res = await app.inject({
      method: 'PUT',
      url: `/${tenant}/api/1.0/admin/invoices`,
      headers: { authorization: `Bearer ${keys[tenant]}` },
      payload: {
        invoices: [
          {
            id,
            customer_code: codes[tenant],
            invoice_date: '2026-01-01',
            base_cents: total,
            vat_cents: 0,
            total_cents: total,
            lines: [
              {
                line_no: 1,
                concept: 'Cuota',
                quantity: 1,
                unit_price_cents: total,
                vat_rate: 0,
              },
            ],
            instalments: amounts.map((amount_cents, i) => ({
              seq: i + 1,
              due_date: `2026-0${i + 1}-05`,
              amount_cents,
              method: 'Tarjeta',
            })),
          },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const instalment = async (tenant: string, invoiceId: string, seq: number) =>
    db.withOwner(async (sql) => {
      const [row] = await sql.query<{ id: string; amount_cents: number; status: string }>(
        `SELECT id::text, amount_cents, status FROM instalments
          WHERE tenant_id = $1 AND invoice_id = $2 AND seq = $3`,
        [tenant, invoiceId, seq],
      );
      return row;
    });
  const start = async (
    tenant: string,
    items: { id: string; amount_cents: number }[],
    extra: object = {},
  ) => {
    const session = sessions[tenant];
    if (!session) throw new Error(`not signed in to ${tenant}`);
    const res = await session.post('/redsys/init-payment', {
      amount: items.reduce((s, i) => s + i.amount_cents, 0) / 100,
      payment_ids: items.map((i) => i.id),
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ payment_id: string; redsys_params: Record<string, string> }>();
    return {
      id: body.payment_id,
      p: decodeMerchantParameters(body.redsys_params.Ds_MerchantParameters ?? ''),
    };
  };
  const notify = (tenant: string, message: Record<string, string>) =>
    app.inject({
      method: 'POST',
      url: `/${tenant}/api/1.0/redsys/notification`,
      payload: new URLSearchParams(message).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  const attemptState = (tenant: string, id: string) =>
    db.withOwner(async (sql) => {
      const [a] = await sql.query<{ status: string }>(
        'SELECT status FROM payment_attempts WHERE tenant_id = $1 AND id = $2',
        [tenant, id],
      );
      const refunds = await sql.query<{ amount_cents: number; status: string }>(
        'SELECT amount_cents, status FROM payment_refunds WHERE tenant_id = $1 AND attempt_id = $2',
        [tenant, id],
      );
      const [n] = await sql.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM redsys_notifications WHERE tenant_id = $1 AND attempt_id = $2',
        [tenant, id],
      );
      return { status: a?.status, refunds, notificationsStored: n?.n ?? 0 };
    });

  /** What the portal told the customer of a payment: its notices' types and invoices. */
  const notices = (tenant: string, paymentId: string) =>
    db.withOwner((sql) =>
      sql.query<{ type: string; invoices: string[] }>(
        `SELECT type, params->'invoices' AS invoices FROM notifications
          WHERE tenant_id = $1 AND params->>'payment_id' = $2 ORDER BY created_at`,
        [tenant, paymentId],
      ),
    );

  it('records a late authorisation whose instalment the provider removed after the release (no 500, money not dropped)', async () => {
    await putInvoice('demo', 'REV-F1', [5000, 5000]);
    const second = await instalment('demo', 'REV-F1', 2);
    if (!second) throw new Error('no instalment');
    const attempt = await start('demo', [second]);
    // The reconciliation released it (the card page never answered within the bound).
    await service.releaseAttempt('demo', attempt.id);
    // The ERP drops instalment 2 (allowed: pending and in no open payment); its payment items
    // go with it (ON DELETE CASCADE).
    await putInvoice('demo', 'REV-F1', [10000]);
    // The customer had paid on the card page after all: Redsys notifies the authorisation once.
    const res = await notify('demo', signedNotification(attempt.p, '0000'));
    // 50 € were taken and pay nothing: the attempt is paid and the 50 € are a refund, and the
    // notification is stored (before: a 500, nothing written, not even the notification).
    expect({ http: res.statusCode, ...(await attemptState('demo', attempt.id)) }).toMatchObject({
      http: 200,
      status: 'paid',
      refunds: [{ amount_cents: 5000 }],
      notificationsStored: 1,
    });
    // The customer is told, naming the invoice the payment was started for.
    expect(await notices('demo', attempt.id)).toEqual([
      { type: 'payment_overpaid', invoices: ['REV-F1'] },
    ]);
    // And so does the result page's status (session 39: it named none, reading the items).
    const status = await sessions.demo?.get(`/redsys/payment/${attempt.id}/status`);
    expect(status?.json()).toMatchObject({ status: 'paid', invoices: ['REV-F1'] });
  });

  it('one such attempt (superseded, asked by the reconciliation) does not stop later tenants from being reconciled', async () => {
    // Tenant "1": A superseded by B, B released, instalment removed, A authorised at the gateway.
    await putInvoice('1', 'REV-F1B', [5000, 5000]);
    const second = await instalment('1', 'REV-F1B', 2);
    if (!second) throw new Error('no instalment');
    const a = await start('1', [second]);
    const b = await start('1', [second]);
    await service.releaseAttempt('1', b.id);
    await putInvoice('1', 'REV-F1B', [10000]);
    // Tenant "demo" (listed after "1"): an attempt authorised at the gateway, never notified.
    await putInvoice('demo', 'REV-F1C', [4000]);
    const demoItem = await instalment('demo', 'REV-F1C', 1);
    if (!demoItem) throw new Error('no instalment');
    const healthy = await start('demo', [demoItem]);

    const authorisedAtGateway = new Map([
      [a.p.Ds_Merchant_Order, { amountCents: 5000, merchantCode: a.p.Ds_Merchant_MerchantCode }],
      [
        healthy.p.Ds_Merchant_Order,
        { amountCents: 4000, merchantCode: healthy.p.Ds_Merchant_MerchantCode },
      ],
    ]);
    const client = {
      queryOrder: async (_gateway: unknown, order: string) => {
        const known = authorisedAtGateway.get(order);
        if (!known) return { kind: 'not_found' as const };
        const operation: QueryOperation = {
          order,
          transactionType: '0',
          state: 'F',
          response: '0000',
          amountCents: known.amountCents,
          currency: '978',
          authorisationCode: '123456',
          merchantCode: known.merchantCode ?? '',
          terminal: '001',
          date: '2026-01-10',
          hour: '10:00',
        };
        return { kind: 'ok' as const, operations: [operation] };
      },
    } as unknown as RedsysClient;
    const reconciler = createReconciler({
      db,
      secretBox: box,
      service,
      client,
      afterMinutes: 0,
      releaseAfterMinutes: 10_000,
      log: quiet,
    });
    const run = await reconciler.reconcileAll().then(
      () => 'completed',
      (error: unknown) => `threw ${String(error).slice(0, 30)}`,
    );
    // Before: the run threw in tenant "1" and never reached tenant "demo", whose authorised
    // payment stayed pending (and so on every run, since the poisoned attempt stayed superseded).
    expect({
      run,
      tenant1Attempt: (await attemptState('1', a.id)).status,
      demoAttempt: (await attemptState('demo', healthy.id)).status,
    }).toEqual({ run: 'completed', tenant1Attempt: 'paid', demoAttempt: 'paid' });
  });

  it('refunds what a late authorisation charged beyond the instalment the provider lowered', async () => {
    await putInvoice('demo', 'REV-F2', [5000, 5000]);
    const second = await instalment('demo', 'REV-F2', 2);
    if (!second) throw new Error('no instalment');
    const attempt = await start('demo', [second]);
    await service.releaseAttempt('demo', attempt.id);
    // The ERP lowers instalment 2 to 30 € (allowed: it is in no open payment).
    await putInvoice('demo', 'REV-F2', [7000, 3000]);
    expect((await notify('demo', signedNotification(attempt.p, '0000'))).statusCode).toBe(200);
    // 50 € charged for an instalment of 30 €: 20 € are an overpayment, to be refunded.
    expect(await attemptState('demo', attempt.id)).toMatchObject({
      status: 'paid',
      refunds: [{ amount_cents: 2000 }],
    });
  });

  it('does not mark an instalment the provider raised to 70 € paid with a late charge of 50 €', async () => {
    await putInvoice('demo', 'REV-F2B', [5000, 5000]);
    const second = await instalment('demo', 'REV-F2B', 2);
    if (!second) throw new Error('no instalment');
    const attempt = await start('demo', [second]);
    await service.releaseAttempt('demo', attempt.id);
    await putInvoice('demo', 'REV-F2B', [3000, 7000]);
    expect((await notify('demo', signedNotification(attempt.p, '0000'))).statusCode).toBe(200);
    const after = await instalment('demo', 'REV-F2B', 2);
    expect(after?.amount_cents).toBe(7000);
    expect(after?.status, 'a 70 € instalment recorded paid by a 50 € charge').not.toBe('paid');
    // Nor does the provider's payment.succeeded list it: its ERP books what is listed as paid
    // (session 39: it listed every instalment the payment was started for).
    const [event] = await db.withOwner((sql) =>
      sql.query<{ payload: { amount_cents: number; instalments: unknown[] } }>(
        `SELECT payload FROM webhook_events
          WHERE tenant_id = 'demo' AND type = 'payment.succeeded' AND payload->>'payment_id' = $1`,
        [attempt.id],
      ),
    );
    expect(event?.payload).toMatchObject({ amount_cents: 5000, instalments: [] });
    // The 50 € paid nothing: recorded, and refunded whole.
    expect(await attemptState('demo', attempt.id)).toMatchObject({
      status: 'paid',
      refunds: [{ amount_cents: 5000 }],
      notificationsStored: 1,
    });
  });

  it('records an authorisation that saves a card whose masked number shows 8 digits of BIN', async () => {
    await putInvoice('demo', 'REV-F3', [2500]);
    const item = await instalment('demo', 'REV-F3', 1);
    if (!item) throw new Error('no instalment');
    const attempt = await start('demo', [item], { save_card: true });
    const res = await notify(
      'demo',
      signedNotification(attempt.p, '0000', {
        Ds_Merchant_Identifier: '621577ab876150af68fcfa97eaab80886508c7e3',
        Ds_Merchant_Cof_Txnid: '2110222140220',
        Ds_Card_Number: '45488120****0004',
        Ds_ExpiryDate: '3012',
        Ds_Card_Brand: '1',
      }),
    );
    expect(res.statusCode, 'the authorised notification must not be a 500').toBe(200);
    expect(await attemptState('demo', attempt.id)).toMatchObject({
      status: 'paid',
      notificationsStored: 1,
    });
    // Saved, with six digits of the BIN at most: the table never holds a run of seven digits.
    const [card] = await db.withOwner((sql) =>
      sql.query<{ card_masked: string | null }>(
        `SELECT card_masked FROM payment_methods
          WHERE tenant_id = 'demo' AND redsys_reference = '621577ab876150af68fcfa97eaab80886508c7e3'`,
      ),
    );
    expect(card?.card_masked).toBe('454881******0004');
  });

  describe('a refund whose connection is cut after the gateway received it', () => {
    let server: Server;
    let origin: string;
    const refundPosts: string[] = [];
    beforeAll(async () => {
      server = createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString('utf8')));
        req.on('end', () => {
          // The outbox's question about the order's refunds gets no answer either.
          if (req.url?.includes('SerClsWSConsulta')) return void res.socket?.destroy();
          const sent = JSON.parse(body) as { Ds_MerchantParameters: string };
          refundPosts.push(
            decodeMerchantParameters(sent.Ds_MerchantParameters).DS_MERCHANT_ORDER ?? '',
          );
          // The gateway took the refund; the connection drops before the answer (a proxy reset,
          // a network cut): the refund WAS made.
          res.socket?.destroy();
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    });
    afterAll(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });

    it('is never sent a second time automatically (refunds of one order add up at Redsys)', async () => {
      await putInvoice('demo', 'REV-F4', [6000, 4000]);
      const x = await instalment('demo', 'REV-F4', 1);
      const y = await instalment('demo', 'REV-F4', 2);
      if (!x || !y) throw new Error('no instalments');
      const first = await start('demo', [x, y]);
      const second = await start('demo', [y]);
      expect((await notify('demo', signedNotification(second.p, '0000'))).statusCode).toBe(200);
      expect((await notify('demo', signedNotification(first.p, '0000'))).statusCode).toBe(200);
      expect((await attemptState('demo', first.id)).refunds).toMatchObject([
        { amount_cents: 4000, status: 'pending' },
      ]);

      const client = createRedsysClient({ simulatorUrl: origin, timeoutMs: 3_000 });
      const refunder = createRefunder({
        db,
        secretBox: box,
        ...refundsThrough(client),
        limits: { maxAttempts: 8, retryBaseSeconds: 60 },
        log: quiet,
        random: () => 0,
      });
      const order = first.p.Ds_Merchant_Order ?? '';
      await refunder.sendDue();
      // Whatever the outbox decided, make anything it scheduled due now: the next run.
      await db.withOwner((sql) =>
        sql.query(
          "UPDATE payment_refunds SET next_attempt_at = now() - interval '1 second' WHERE attempt_id = $1",
          [first.id],
        ),
      );
      await refunder.sendDue();
      expect(
        refundPosts.filter((o) => o === order),
        'the 40 € refund reached the gateway twice: 80 € refunded of a 100 € payment',
      ).toHaveLength(1);
    });
  });

  it('records a refund the gateway confirms after its lease ran out, and tells the customer once', async () => {
    await putInvoice('demo', 'REV-L1', [6000, 4000]);
    const x = await instalment('demo', 'REV-L1', 1);
    const y = await instalment('demo', 'REV-L1', 2);
    if (!x || !y) throw new Error('no instalments');
    const first = await start('demo', [x, y]);
    const second = await start('demo', [y]);
    expect((await notify('demo', signedNotification(second.p, '0000'))).statusCode).toBe(200);
    expect((await notify('demo', signedNotification(first.p, '0000'))).statusCode).toBe(200);

    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered = () => {};
    const inCall = new Promise<void>((resolve) => (entered = resolve));
    const slow = createRefunder({
      db,
      secretBox: box,
      refundGateway: async () => {
        entered();
        await gate;
        return { ok: true, authorisationCode: '654321' };
      },
      queryRefunds: async () => ({ kind: 'failed' }),
      log: quiet,
    });
    const sending = slow.refundTenant('demo');
    await inCall;
    // The sender stalls past its lease: the next run leaves the refund for the operator.
    await db.withOwner((sql) =>
      sql.query(
        "UPDATE payment_refunds SET next_attempt_at = now() - interval '1 second' WHERE attempt_id = $1",
        [first.id],
      ),
    );
    const next = createRefunder({
      db,
      secretBox: box,
      refundGateway: () => Promise.reject(new Error('a refund in flight must not be sent again')),
      queryRefunds: async () => ({ kind: 'failed' }),
      log: quiet,
    });
    await next.refundTenant('demo');
    expect((await attemptState('demo', first.id)).refunds).toMatchObject([{ status: 'review' }]);
    // Then the gateway's signed answer comes: the refund was made, and is known to be.
    release();
    await sending;
    expect((await attemptState('demo', first.id)).refunds).toMatchObject([
      { amount_cents: 4000, status: 'refunded' },
    ]);
    expect(
      (await notices('demo', first.id)).filter((n) => n.type === 'payment_refunded'),
    ).toHaveLength(1);
  });
});
