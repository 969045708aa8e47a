import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmail, secondEmail } from '../src/db/seed/demo.ts';
import { createApiKey } from '../src/modules/admin/api-keys.ts';
import { engines } from './engines.ts';
import { openMailingApp, type MailingApp } from './mailing-app.ts';
import { signedIn } from './session.ts';

type Session = Awaited<ReturnType<typeof signedIn>>;
type AdminMessages = { messages: { id: string; body: string }[]; next_cursor: string | null };

/**
 * docs/ingestion.md: `GET /admin/invoice-thread-messages` is read forward, `since` being the last
 * message read, "keep it and ask again later". The cursor is `(created_at, id)` where `created_at`
 * is `clock_timestamp()` at the INSERT, not when the message becomes visible (its commit). A
 * customer message inserted first but committed after another one was behind the cursor the
 * provider already held when it became visible: the provider never read it (session 38). Now the
 * tenant's messages are written one transaction at a time, so the later one waits.
 *
 * The pause: the test holds the customer's read marker row of thread A, which `reply` upserts
 * right after inserting the message, so the reply waits between its INSERT and its COMMIT while
 * another customer writes in thread B. PostgreSQL only (two connections).
 */
describe.each(engines().filter((e) => e.name === 'postgres'))(
  'reading customer messages forward with since, on $name',
  (engine) => {
    let env: MailingApp;
    let app: FastifyInstance;
    let me: Session;
    let other: Session;
    let key: string;

    const invoiceOf = async (email: string) => {
      const rows = await env.db.withTenant('demo', (sql) =>
        sql.query<{ id: string }>(
          `SELECT i.id FROM invoices i JOIN customers c ON c.tenant_id = i.tenant_id AND c.id = i.customer_id
            WHERE lower(c.email) = lower($1) ORDER BY i.invoice_date DESC, i.id LIMIT 1`,
          [email],
        ),
      );
      return rows[0]?.id ?? '';
    };
    const readSince = async (since: string | null) => {
      const res = await app.inject({
        method: 'GET',
        url: `/demo/api/1.0/admin/invoice-thread-messages?limit=100${since ? `&since=${since}` : ''}`,
        headers: { authorization: `Bearer ${key}` },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<AdminMessages>();
    };

    beforeAll(async () => {
      env = await openMailingApp(engine);
      app = env.app;
      me = await signedIn(app, 'demo', demoEmail);
      other = await signedIn(app, 'demo', secondEmail);
      key = (await env.db.withTenant('demo', (sql) => createApiKey(sql, 'review cursor'))).key;
    });
    afterAll(async () => env.close());

    it('gives the provider every customer message, also one committed after a later one', async () => {
      const a = await me.post('/invoice-threads', {
        invoice_id: await invoiceOf(demoEmail),
        message: 'Pregunta A',
      });
      expect(a.statusCode, a.body).toBe(201);
      const threadA = a.json<{ thread: { id: string } }>().thread.id;
      const b = await other.post('/invoice-threads', {
        invoice_id: await invoiceOf(secondEmail),
        message: 'Pregunta B',
      });
      expect(b.statusCode, b.body).toBe(201);
      const threadB = b.json<{ thread: { id: string } }>().thread.id;

      // The provider's sync job is up to date.
      const cursor = (await readSince(null)).next_cursor;

      // Hold thread A's customer read marker: the reply inserts its message, then waits.
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let held!: () => void;
      const holding = new Promise<void>((resolve) => (held = resolve));
      const holder = env.db.withOwner(async (sql) => {
        await sql.query(
          `SELECT 1 FROM invoice_thread_reads
            WHERE tenant_id = 'demo' AND thread_id = $1 AND reader = 'customer' FOR UPDATE`,
          [threadA],
        );
        held();
        await gate;
      });
      await holding;
      const slowReply = me.post(`/invoice-threads/${threadA}/messages`, {
        message: 'Mensaje lento de A',
      });
      const waiting = async (n: number) => {
        const deadline = Date.now() + 15_000;
        for (;;) {
          const [row] = await env.db.withOwner((sql) =>
            sql.query<{ n: string }>(
              `SELECT count(*) AS n FROM pg_stat_activity
                WHERE datname = current_database() AND wait_event_type = 'Lock'`,
            ),
          );
          if (Number(row?.n ?? 0) >= n) return;
          if (Date.now() > deadline) throw new Error(`${n} sessions never waited`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      // The reply has written its message and waits for the marker (a session waits for a lock).
      await waiting(1);

      // Meanwhile the other customer writes: its message waits for A's to commit (one writer of
      // the tenant's messages at a time), and the provider, reading now, sees neither.
      const fast = other.post(`/invoice-threads/${threadB}/messages`, {
        message: 'Mensaje rápido de B',
      });
      await waiting(2);
      const first = await readSince(cursor);
      expect(first.messages.map((m) => m.body)).toEqual([]);

      release();
      await holder;
      const slow = await slowReply;
      expect(slow.statusCode, slow.body).toBe(201);
      expect((await fast).statusCode).toBe(201);

      // The provider asks again later: both come, in the order they became visible.
      const later = await readSince(cursor);
      expect(later.messages.map((m) => m.body)).toEqual([
        'Mensaje lento de A',
        'Mensaje rápido de B',
      ]);
    }, 60_000);
  },
);
