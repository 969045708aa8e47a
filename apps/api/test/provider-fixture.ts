import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Database } from '../src/db/database.ts';
import { createApiKey } from '../src/modules/admin/api-keys.ts';
import { buildTestApp, type Engine } from './engines.ts';
import { signedIn } from './session.ts';

type AppEnv = Parameters<typeof buildTestApp>[1];

/** What the provider's batch says of a one-instalment invoice, beyond its id and amount. */
export type InvoiceOptions = {
  cancelled?: boolean;
  invoiceDate?: string;
  dueDate?: string;
  method?: string;
};

export type ProviderFixture = {
  db: Database;
  app: FastifyInstance;
  /** The demo tenant's demo customer, signed in. */
  me: Awaited<ReturnType<typeof signedIn>>;
  /** The provider's API key for the demo tenant. */
  apiKey: string;
  /** `PUT /admin/invoices` of one invoice of the customer: `cents`, in one instalment. */
  putInvoice(id: string, cents: number, options?: InvoiceOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
};

/**
 * A private copy of the seeded database, the app on it, the demo customer signed in and the
 * provider's API key: what the tests of the provider's batches beside the customer's payments
 * start from.
 */
export async function openProviderFixture(
  engine: Engine,
  env: AppEnv = {},
): Promise<ProviderFixture> {
  const db = await engine.open();
  const app = await buildTestApp(db, env);
  const me = await signedIn(app, 'demo');
  const apiKey = (await db.withTenant('demo', (sql) => createApiKey(sql, 'provider-fixture'))).key;
  return {
    db,
    app,
    me,
    apiKey,
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
