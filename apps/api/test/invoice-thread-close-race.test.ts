import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmail } from '../src/db/seed/demo.ts';
import { createApiKey } from '../src/modules/admin/api-keys.ts';
import { engines } from './engines.ts';
import { holdLock, untilLockWaits } from './lock-waits.ts';
import { openMailingApp, type MailingApp } from './mailing-app.ts';
import { signedIn } from './session.ts';

/**
 * "A closed conversation takes no more messages from either side" (SECURITY.md). `reply` and the
 * organisation's `answer` lock the conversation and check its status; `open` (POST
 * /invoice-threads), when a conversation about the invoice is already open, reads it with a plain
 * SELECT (`findOpenByInvoice`) and writes its message into it without locking or re-checking it.
 * A close committed between that read and the write leaves a customer message in a closed
 * conversation, answered 201 with `status: open`.
 *
 * The pause: the test holds the conversation's row; the organisation's close queues for it first,
 * the customer's "ask about this invoice" (which only blocks at the UPDATE of last_message_at, after
 * reading the conversation as open) second. PostgreSQL only.
 */
describe.each(engines().filter((e) => e.name === 'postgres'))(
  'asking about an invoice while the organisation closes its conversation, on $name',
  (engine) => {
    let env: MailingApp;
    let app: FastifyInstance;
    let key: string;

    beforeAll(async () => {
      env = await openMailingApp(engine);
      app = env.app;
      key = (await env.db.withTenant('demo', (sql) => createApiKey(sql, 'review close'))).key;
    });
    afterAll(async () => env.close());

    it('writes no customer message into a conversation the organisation closed meanwhile', async () => {
      const me = await signedIn(app, 'demo', demoEmail);
      const [invoice] = await env.db.withTenant('demo', (sql) =>
        sql.query<{ id: string }>(
          `SELECT i.id FROM invoices i JOIN customers c ON c.tenant_id = i.tenant_id AND c.id = i.customer_id
            WHERE lower(c.email) = lower($1) ORDER BY i.invoice_date DESC, i.id LIMIT 1`,
          [demoEmail],
        ),
      );
      const opened = await me.post('/invoice-threads', { invoice_id: invoice?.id, message: 'Uno' });
      expect(opened.statusCode, opened.body).toBe(201);
      const threadId = opened.json<{ thread: { id: string } }>().thread.id;

      const release = await holdLock(
        env.db,
        "SELECT 1 FROM invoice_threads WHERE tenant_id = 'demo' AND id = $1 FOR UPDATE",
        [threadId],
      );
      const close = app.inject({
        method: 'POST',
        url: `/demo/api/1.0/admin/invoice-threads/${threadId}/close`,
        headers: { authorization: `Bearer ${key}` },
      });
      await untilLockWaits(env.db, 1, 'the close to wait');
      const ask = me.post('/invoice-threads', { invoice_id: invoice?.id, message: 'Dos, tarde' });
      await untilLockWaits(env.db, 2, 'the question to wait');
      await release();
      const closed = await close;
      expect(closed.statusCode, closed.body).toBe(200);
      expect(closed.json<{ thread: { status: string } }>().thread.status).toBe('closed');
      const asked = await ask;

      const rows = await env.db.withOwner((sql) =>
        sql.query<{ status: string; messages: number }>(
          `SELECT t.status, (SELECT count(*)::int FROM invoice_thread_messages m
                              WHERE m.tenant_id = t.tenant_id AND m.thread_id = t.id) AS messages
             FROM invoice_threads t WHERE t.tenant_id = 'demo' AND t.id = $1`,
          [threadId],
        ),
      );
      // The closed conversation keeps the one message it had when it was closed; the late question
      // either opens a new conversation or is refused, never lands in the closed one.
      expect(rows[0], asked.body).toEqual({ status: 'closed', messages: 1 });
      if (asked.statusCode === 201) {
        expect(asked.json<{ thread: { id: string } }>().thread.id).not.toBe(threadId);
      }
    }, 60_000);
  },
);
