import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { createSecretBox } from '../src/lib/secret-box.ts';
import { createApiKey } from '../src/modules/admin/api-keys.ts';
import { createWebhookDispatcher } from '../src/modules/webhooks/dispatcher.ts';
import { webhookEvents } from '../src/modules/webhooks/events.ts';
import { buildTestApp, engines } from './engines.ts';

/**
 * docs/webhooks.md: "DELETE /admin/webhook: Remove the endpoint. Events not delivered yet are
 * marked failed (still in the log), so nothing old reaches a URL registered later."
 *
 * An event is written (events.ts, `insertEventFrom`) in the transaction of the change it tells of,
 * "when the tenant has an enabled endpoint". Until session 36 that was an EXISTS that took no lock:
 * a change whose transaction was still open while the provider removed the endpoint committed its
 * event after the removal's `failPendingEvents` ran (which could not see it); the event stayed
 * `pending`, and the next URL the provider registered got it. The endpoint is read FOR SHARE now.
 * PostgreSQL only: the two transactions need two connections.
 */

/** A receiver on localhost that records the event ids it gets. */
async function startReceiver() {
  const ids: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      ids.push((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string }).id);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    ids,
    url: `http://127.0.0.1:${port}/hooks`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const quiet = { warn: () => {}, error: () => {} };

describe.each(engines().filter((e) => e.name === 'postgres'))(
  'removing the webhook endpoint while a change is committing, on $name',
  (engine) => {
    let db: Database;
    let app: FastifyInstance;
    let key: string;
    let oldReceiver: Awaited<ReturnType<typeof startReceiver>>;
    let newReceiver: Awaited<ReturnType<typeof startReceiver>>;
    const rootSecret = randomBytes(32);

    beforeAll(async () => {
      db = await engine.open();
      app = await buildTestApp(
        db,
        { LOG_LEVEL: 'error', WEBHOOK_ALLOW_PRIVATE: 'true' },
        rootSecret,
      );
      key = (await db.withTenant('demo', (sql) => createApiKey(sql, 'review'))).key;
      oldReceiver = await startReceiver();
      newReceiver = await startReceiver();
    });
    afterAll(async () => {
      await app.close();
      await db.close();
      await oldReceiver.close();
      await newReceiver.close();
    });

    const admin = (method: 'PUT' | 'DELETE', payload?: object) =>
      app.inject({
        method,
        url: '/demo/api/1.0/admin/webhook',
        headers: { authorization: `Bearer ${key}` },
        ...(payload ? { payload } : {}),
      });

    it('sends no event written before the removal to the URL registered after it', async () => {
      expect((await admin('PUT', { url: oldReceiver.url })).statusCode).toBe(200);
      const [customer] = await db.withTenant('demo', (sql) =>
        sql.query<{ id: string }>('SELECT id FROM customers ORDER BY code LIMIT 1'),
      );

      // A customer's change (here: the sign-in e-mail confirmed) writes its event in its own
      // transaction, which has not committed yet when the provider removes the endpoint.
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let written!: () => void;
      const eventWritten = new Promise<void>((resolve) => (written = resolve));
      const change = db.withTenant('demo', async (sql) => {
        await webhookEvents.customerEmailChanged(sql, customer?.id ?? '', 'before@example.com');
        written();
        await gate;
      });
      await eventWritten;
      const removal = admin('DELETE');
      // Give the removal time to run (or to wait for the change, if it locks what it removes).
      await new Promise((resolve) => setTimeout(resolve, 300));
      release();
      await change;
      expect((await removal).statusCode).toBe(200);

      // The provider registers another receiver.
      expect((await admin('PUT', { url: newReceiver.url })).statusCode).toBe(200);
      const events = await db.withTenant('demo', (sql) =>
        sql.query<{ type: string; status: string }>('SELECT type, status FROM webhook_events'),
      );
      await createWebhookDispatcher({
        db,
        secretBox: createSecretBox(rootSecret),
        limits: { retryBaseSeconds: 10, retryMaxSeconds: 25, maxAttempts: 4, timeoutSeconds: 2 },
        log: quiet,
        targets: 'any',
        random: () => 0,
      }).dispatchDue();

      // The event written before the removal is failed (in the log), never sent to the new URL.
      expect(newReceiver.ids, 'events the new URL received').toEqual([]);
      expect(events).toEqual([{ type: 'customer.email_changed', status: 'failed' }]);
    });
  },
);
