import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { createSecretBox } from '../src/lib/secret-box.ts';
import { createApiKey } from '../src/modules/admin/api-keys.ts';
import { createWebhookDispatcher } from '../src/modules/webhooks/dispatcher.ts';
import { buildTestApp, engines } from './engines.ts';

/**
 * docs/webhooks.md, "Several API instances": "each attempt is then written to the log and the event
 * marked delivered, failed, or pending with its next retry. The write applies only if the event is
 * still as the claim left it (a redelivery or a removal in between wins)."
 *
 * Until session 36 `settleAttempt` only checked `status = 'pending' AND attempts = attempt - 1`,
 * and a redelivery (`requeueEvent`) changes neither of them on an event that is in flight: the
 * redelivery answered 200 `pending`, due now, and was then silently overwritten by the attempt
 * already running when it came. On the last attempt the event ended `failed` and was never sent
 * again. The claim's lease is now its token: a redelivery moves it, and the attempt leaves it due.
 */

/** A receiver that answers 503 slowly while `down`, and 200 otherwise. */
async function startReceiver() {
  const state = { down: true, delayMs: 400, requests: 0, accepted: [] as string[] };
  let seen!: () => void;
  const firstRequest = new Promise<void>((resolve) => (seen = resolve));
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      state.requests += 1;
      seen();
      const { id } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string };
      if (state.down) {
        setTimeout(() => res.writeHead(503).end('down'), state.delayMs);
        return;
      }
      state.accepted.push(id);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    state,
    firstRequest,
    url: `http://127.0.0.1:${port}/hooks`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const quiet = { warn: () => {}, error: () => {} };

describe.each(engines())('a redelivery asked while the event is in flight, on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let key: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const rootSecret = randomBytes(32);

  beforeAll(async () => {
    db = await engine.open();
    app = await buildTestApp(db, { LOG_LEVEL: 'error', WEBHOOK_ALLOW_PRIVATE: 'true' }, rootSecret);
    key = (await db.withTenant('demo', (sql) => createApiKey(sql, 'review'))).key;
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await app.close();
    await db.close();
    await receiver.close();
  });

  const admin = (method: 'PUT' | 'POST' | 'GET', path: string, payload?: object) =>
    app.inject({
      method,
      url: `/demo/api/1.0/admin${path}`,
      headers: { authorization: `Bearer ${key}` },
      ...(payload ? { payload } : {}),
    });
  const dispatcher = () =>
    createWebhookDispatcher({
      db,
      secretBox: createSecretBox(rootSecret),
      // One attempt: the one in flight is the last of the schedule.
      limits: { retryBaseSeconds: 10, retryMaxSeconds: 25, maxAttempts: 1, timeoutSeconds: 5 },
      log: quiet,
      targets: 'any',
      random: () => 0,
    });

  it('is not lost to the attempt that was already running: the event is sent again', async () => {
    expect((await admin('PUT', '/webhook', { url: receiver.url })).statusCode).toBe(200);
    const ping = await admin('POST', '/webhook/test');
    expect(ping.statusCode).toBe(202);
    const id = ping.json<{ id: string }>().id;

    // The attempt starts; while the receiver is still answering it (a slow 503), the provider,
    // who has just fixed its receiver, asks for the event again.
    const running = dispatcher().dispatchDue();
    await receiver.firstRequest;
    const redelivered = await admin('POST', `/webhook/events/${id}/redeliver`);
    expect(redelivered.statusCode, redelivered.body).toBe(200);
    expect(redelivered.json()).toMatchObject({ id, status: 'pending' });
    await running;

    // The receiver works now: the redelivery the provider was answered is made.
    receiver.state.down = false;
    await dispatcher().dispatchDue();
    const events = (await admin('GET', '/webhook/events')).json<{
      events: { id: string; status: string; attempts: number }[];
    }>().events;
    expect(events.find((e) => e.id === id)?.status).toBe('delivered');
    expect(receiver.state.accepted).toEqual([id]);
  });
});
