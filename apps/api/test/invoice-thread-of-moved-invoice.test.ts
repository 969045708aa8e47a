import { customerLimits } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secondEmail } from '../src/db/seed/demo.ts';
import { engines } from './engines.ts';
import { openProviderFixture, type ProviderFixture } from './provider-fixture.ts';
import { signedIn } from './session.ts';

type Session = Awaited<ReturnType<typeof signedIn>>;

/**
 * Ownership review: the provider may move an invoice to another customer (docs/ingestion.md: only
 * one with a paid, returned or in-payment instalment may not move). A conversation the first
 * customer opened about it stays theirs by its own `customer_id`. Until session 36 the customer
 * calls on a conversation (read, reply) never looked at whose the invoice was now: the old customer
 * went on reading what the organisation wrote about another customer's invoice and writing into
 * it, although opening a conversation on that invoice was a 404 for them.
 */
describe.each(engines())(
  'a conversation about an invoice moved to another customer on $name',
  (engine) => {
    let fx: ProviderFixture;
    let app: FastifyInstance;
    let me: Session;
    let other: Session;
    const invoiceId = 'REVIEW-MOVED-1';
    let threadId: string;

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
    const messages = async () =>
      Number(
        (
          await fx.db.withOwner((sql) =>
            sql.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM invoice_thread_messages
              WHERE tenant_id = 'demo' AND thread_id = $1`,
              [threadId],
            ),
          )
        )[0]?.n ?? 0,
      );

    beforeAll(async () => {
      fx = await openProviderFixture(engine);
      app = fx.app;
      me = fx.me;
      other = await signedIn(app, 'demo', secondEmail);
      expect((await putInvoice(me.user.code)).statusCode).toBe(200);
      const opened = await me.post('/invoice-threads', {
        invoice_id: invoiceId,
        message: '¿Por qué me cobráis esto?',
      });
      expect(opened.statusCode, opened.body).toBe(201);
      threadId = opened.json<{ thread: { id: string } }>().thread.id;
      // The provider corrects its mistake: the invoice was the other customer's.
      const moved = await putInvoice(other.user.code);
      expect(moved.statusCode, moved.body).toBe(200);
      // The invoice is now the other customer's: to me it is like any foreign invoice.
      expect((await me.post('/invoice', { invoice_id: invoiceId })).statusCode).toBe(404);
      expect((await other.post('/invoice', { invoice_id: invoiceId })).statusCode).toBe(200);
      expect(
        (await me.post('/invoice-threads', { invoice_id: invoiceId, message: 'Hola' })).statusCode,
      ).toBe(404);
    });
    afterAll(async () => fx.close());

    it("refuses a reply to a conversation about an invoice that is now another customer's: 404, nothing written", async () => {
      const before = await messages();
      const reply = await me.post(`/invoice-threads/${threadId}/messages`, {
        message: 'Sigo escribiendo sobre una factura que ya no es mía',
      });
      expect(reply.statusCode, reply.body).toBe(404);
      expect(await messages()).toBe(before);
    });

    it("no longer shows the old customer what the organisation writes about another customer's invoice", async () => {
      const answer = await app.inject({
        method: 'POST',
        url: `/demo/api/1.0/admin/invoice-threads/${threadId}/messages`,
        headers: { authorization: `Bearer ${fx.apiKey}` },
        payload: {
          message: 'La factura es de su titular: le devolvemos el recibo',
          author_name: 'Ana',
        },
      });
      // The organisation is told the conversation takes no answers: the customer would be notified
      // of an answer about someone else's invoice they can no longer open.
      expect(answer.statusCode, answer.body).toBe(409);
      expect(answer.json()).toMatchObject({ code: 'invoice_thread_closed' });
      const read = await me.get(`/invoice-threads/${threadId}`);
      expect(read.statusCode, read.body).toBe(404);
      const listed = await me.post('/invoice-threads/list', {});
      expect(listed.json<{ threads: { invoice_id: string }[] }>().threads).not.toContainEqual(
        expect.objectContaining({ invoice_id: invoiceId }),
      );
    });

    it("takes none of the first customer's five places (session 38: it kept one, unseen)", async () => {
      const own = await fx.db.withTenant('demo', (sql) =>
        sql.query<{ id: string }>(
          `SELECT i.id FROM invoices i JOIN customers c ON c.tenant_id = i.tenant_id AND c.id = i.customer_id
            WHERE c.id = $1 ORDER BY i.invoice_date DESC, i.id LIMIT $2`,
          [me.user.id, customerLimits.openInvoiceThreads],
        ),
      );
      expect(own).toHaveLength(customerLimits.openInvoiceThreads);
      const codes: number[] = [];
      for (const { id } of own)
        codes.push(
          (await me.post('/invoice-threads', { invoice_id: id, message: 'Otra duda' })).statusCode,
        );
      expect(codes).toEqual(own.map(() => 201));
    });
  },
);
