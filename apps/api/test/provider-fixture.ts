import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { decodeMerchantParameters } from '@portal/redsys';
import { expect } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { createApiKey } from '../src/modules/admin/api-keys.ts';
import { buildTestApp, type Engine } from './engines.ts';
import { holdLock, untilLockWaits } from './lock-waits.ts';
import { postNotification, signedNotification } from './redsys-notification.ts';
import { signedIn } from './session.ts';

type AppEnv = Parameters<typeof buildTestApp>[1];

/** What the provider's batch says of a one-instalment invoice, beyond its id and amount. */
export type InvoiceOptions = {
  cancelled?: boolean;
  invoiceDate?: string;
  dueDate?: string;
  method?: string;
  /** The instalment was paid that day (a direct debit the bank charged): `status: 'paid'`. */
  paidDate?: string;
};

export type ProviderFixture = {
  db: Database;
  app: FastifyInstance;
  /** The demo tenant's demo customer, signed in. */
  me: Awaited<ReturnType<typeof signedIn>>;
  /** The provider's API key for the demo tenant. */
  apiKey: string;
  /** A call of the provider's API (`/demo/api/1.0/admin{path}`) with its key. */
  admin(method: 'PUT' | 'POST', path: string, payload: object): Promise<LightMyRequestResponse>;
  /** The demo tenant charges the customer the bank's fee of a returned direct debit. */
  chargeReturnFees(): Promise<void>;
  /** `PUT /admin/invoices` of one invoice of the customer: `cents`, in one instalment. */
  putInvoice(id: string, cents: number, options?: InvoiceOptions): Promise<LightMyRequestResponse>;
  /** The first instalment of an invoice, as stored. */
  instalmentOf(
    invoiceId: string,
  ): Promise<{ id: string; amount_cents: string; status: string } | undefined>;
  /**
   * The customer starts paying the instalment `itemId` (50 €) while `provider` (a call of the
   * provider's API) runs at the same moment: a third transaction holds the instalment's lock for a
   * moment, the start queues for it first and the provider's call second (PostgreSQL: it counts
   * the sessions waiting for a lock). Answers both responses.
   */
  raceWithStart(
    itemId: string,
    provider: () => Promise<LightMyRequestResponse>,
  ): Promise<{ started: LightMyRequestResponse; providerCall: LightMyRequestResponse }>;
  /** The state of an instalment (by id) that was returned, and the return's fee paid, as stored. */
  returnOf(
    instalmentId: string,
  ): Promise<{ status: string; fee_paid_cents: string | null } | undefined>;
  /**
   * The customer starts paying `amount` € for the instalment `itemId` (answered 200): the payment's
   * id and the parameters sent to Redsys (which a notification of it echoes).
   */
  startPayment(
    itemId: string,
    amount: number,
  ): Promise<{ paymentId: string; params: ReturnType<typeof decodeMerchantParameters> }>;
  /** Redsys notifies the authorisation of a started payment (its init answer). */
  payStarted(started: LightMyRequestResponse): Promise<void>;
  close(): Promise<void>;
};

/**
 * A private copy of the seeded database, the app on it, the demo customer signed in and the
 * provider's API key: what the tests of the provider's batches beside the customer's payments
 * start from. `appDb` is the database the app is given (the copy itself unless a test wraps it,
 * e.g. to pause a statement); `db` stays the copy.
 */
export async function openProviderFixture(
  engine: Engine,
  env: AppEnv = {},
  appDb: (db: Database) => Database = (db) => db,
): Promise<ProviderFixture> {
  const db = await engine.open();
  const app = await buildTestApp(appDb(db), env);
  const me = await signedIn(app, 'demo');
  const apiKey = (await db.withTenant('demo', (sql) => createApiKey(sql, 'provider-fixture'))).key;
  return {
    async instalmentOf(invoiceId) {
      const [row] = await db.withOwner((sql) =>
        sql.query<{ id: string; amount_cents: string; status: string }>(
          `SELECT id::text, amount_cents, status FROM instalments
            WHERE tenant_id = 'demo' AND invoice_id = $1 AND seq = 1`,
          [invoiceId],
        ),
      );
      return row;
    },
    async returnOf(instalmentId) {
      const [row] = await db.withOwner((sql) =>
        sql.query<{ status: string; fee_paid_cents: string | null }>(
          `SELECT e.status, r.fee_paid_cents::text AS fee_paid_cents
             FROM instalments e
             JOIN instalment_returns r ON r.tenant_id = e.tenant_id AND r.instalment_id = e.id
            WHERE e.tenant_id = 'demo' AND e.id::text = $1`,
          [instalmentId],
        ),
      );
      return row;
    },
    async raceWithStart(itemId, provider) {
      const release = await holdLock(
        db,
        'SELECT id FROM instalments WHERE id::text = $1 FOR UPDATE',
        [itemId],
      );
      const start = me.post('/redsys/init-payment', { amount: 50, payment_ids: [itemId] });
      await untilLockWaits(db, 1, 'the start to wait');
      const call = provider();
      await untilLockWaits(db, 2, "the provider's call to wait");
      await release();
      const started = await start;
      expect(started.statusCode, started.body).toBe(200);
      return { started, providerCall: await call };
    },
    async startPayment(itemId, amount) {
      const res = await me.post('/redsys/init-payment', { amount, payment_ids: [itemId] });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json<{ payment_id: string; redsys_params: Record<string, string> }>();
      return {
        paymentId: body.payment_id,
        params: decodeMerchantParameters(body.redsys_params.Ds_MerchantParameters ?? ''),
      };
    },
    async payStarted(started) {
      const p = decodeMerchantParameters(
        started.json<{ redsys_params: Record<string, string> }>().redsys_params
          .Ds_MerchantParameters ?? '',
      );
      expect((await postNotification(app, signedNotification(p, '0000'))).statusCode).toBe(200);
    },
    db,
    app,
    me,
    apiKey,
    admin: (method, path, payload) =>
      app.inject({
        method,
        url: `/demo/api/1.0/admin${path}`,
        headers: { authorization: `Bearer ${apiKey}` },
        payload,
      }),
    async chargeReturnFees() {
      await db.withOwner((sql) =>
        sql.query(`UPDATE tenants SET charge_return_fee = true WHERE id = 'demo'`),
      );
    },
    putInvoice: (id, cents, options = {}) =>
      app.inject({
        method: 'PUT',
        url: '/demo/api/1.0/admin/invoices',
        headers: { authorization: `Bearer ${apiKey}` },
        payload: {
          invoices: [
            {
              id,
              customer_code: me.user.code,
              invoice_date: options.invoiceDate ?? '2026-01-01',
              base_cents: cents,
              vat_cents: 0,
              total_cents: cents,
              ...(options.cancelled === undefined ? {} : { cancelled: options.cancelled }),
              lines: [
                { line_no: 1, concept: 'Cuota', quantity: 1, unit_price_cents: cents, vat_rate: 0 },
              ],
              instalments: [
                {
                  seq: 1,
                  due_date: options.dueDate ?? '2026-01-05',
                  amount_cents: cents,
                  method: options.method ?? 'Tarjeta',
                  ...(options.paidDate === undefined
                    ? {}
                    : { status: 'paid', paid_date: options.paidDate }),
                },
              ],
            },
          ],
        },
      }),
    async close() {
      await app.close();
      await db.close();
    },
  };
}
