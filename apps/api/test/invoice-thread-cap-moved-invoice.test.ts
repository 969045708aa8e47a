import { customerLimits } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmail, secondEmail } from '../src/db/seed/demo.ts';
import { engines } from './engines.ts';
import { openProviderFixture, type ProviderFixture } from './provider-fixture.ts';
import { signedIn } from './session.ts';

/**
 * SECURITY.md: once the provider moves an invoice to another customer, the conversation about it
 * is the first customer's no more — not readable, not listed, not counted unread (404). The cap of
 * open conversations (`lockAndCountOpen`) still counts it: the customer sees fewer conversations
 * than the cap and is told "Ya tienes 5 consultas abiertas" (409 invoice_thread_limit) by one they
 * cannot see, cannot close, and that the organisation cannot answer (409) — for as long as the
 * organisation does not close it.
 */
describe.each(engines())(
  'the cap of open conversations after an invoice moved, on $name',
  (engine) => {
    let fx: ProviderFixture;
    let app: FastifyInstance;
    const invoiceId = 'REVIEW-CAP-MOVED-1';

    const putInvoice = (customerCode: string) =>
      app.inject({
        method: 'PUT',
        url: '/demo/api/1.0/admin/invoices',
        headers: { authorization: `Bearer ${fx.apiKey}` },
        payload: {
          invoices: [
            {
              id: invoiceId,
              customer_code: customerCode,
              invoice_date: '2026-01-01',
              base_cents: 5000,
              vat_cents: 0,
              total_cents: 5000,
              lines: [
                { line_no: 1, concept: 'Cuota', quantity: 1, unit_price_cents: 5000, vat_rate: 0 },
              ],
              instalments: [
                { seq: 1, due_date: '2026-01-05', amount_cents: 5000, method: 'Tarjeta' },
              ],
            },
          ],
        },
      });

    beforeAll(async () => {
      fx = await openProviderFixture(engine);
      app = fx.app;
    });
    afterAll(async () => fx.close());

    it("does not count a conversation about an invoice now another customer's against the cap", async () => {
      const me = await signedIn(app, 'demo', demoEmail);
      const other = await signedIn(app, 'demo', secondEmail);
      expect((await putInvoice(me.user.code)).statusCode).toBe(200);
      const first = await me.post('/invoice-threads', { invoice_id: invoiceId, message: 'Duda' });
      expect(first.statusCode, first.body).toBe(201);
      expect((await putInvoice(other.user.code)).statusCode).toBe(200);

      const own = await fx.db.withTenant('demo', (sql) =>
        sql.query<{ id: string }>(
          `SELECT i.id FROM invoices i JOIN customers c ON c.tenant_id = i.tenant_id AND c.id = i.customer_id
          WHERE lower(c.email) = lower($1) ORDER BY i.invoice_date DESC, i.id LIMIT $2`,
          [demoEmail, customerLimits.openInvoiceThreads],
        ),
      );
      expect(own).toHaveLength(customerLimits.openInvoiceThreads);
      const codes: number[] = [];
      for (const { id } of own)
        codes.push(
          (await me.post('/invoice-threads', { invoice_id: id, message: 'Otra duda' })).statusCode,
        );

      const listed = (await me.post('/invoice-threads/list', {})).json<{
        threads: { status: string }[];
      }>();
      // What the customer can see: fewer open conversations than the cap before the last one...
      expect(listed.threads.filter((t) => t.status === 'open').length).toBeLessThanOrEqual(
        customerLimits.openInvoiceThreads,
      );
      // ...so each of their 5 own invoices gets its conversation (today the 5th is a 409
      // invoice_thread_limit caused by the invisible conversation).
      expect(codes).toEqual(Array<number>(customerLimits.openInvoiceThreads).fill(201));
    }, 60_000);
  },
);
