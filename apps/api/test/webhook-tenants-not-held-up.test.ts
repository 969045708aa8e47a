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
 * One tenant's receiver that hangs does not hold the other tenants' webhooks back. Before session
 * 36 a run sent to the tenants one after another: tenant `1` (first in the run's order) with a
 * receiver that never answers kept tenant `demo` waiting for its timeouts, up to ten batches of
 * them a run. Told apart by order, not by time: when `demo`'s event arrives, tenant `1`'s
 * requests are still open (taking turns, they had all been given up on first).
 */

/** A receiver that holds every request open until `release()`; counts those still open. */
async function startHangingReceiver() {
  const state = { received: 0, open: 0 };
  const held: (() => void)[] = [];
  const server: Server = createServer((req, res) => {
    state.received += 1;
    state.open += 1;
    res.on('close', () => (state.open -= 1));
    req.resume();
    held.push(() => res.writeHead(200).end('ok'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    state,
    url: `http://127.0.0.1:${port}/hooks`,
    release: () => held.splice(0).forEach((answer) => answer()),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A receiver that answers at once, noting how many of `other`'s requests were open then (once all
 * `expected` of them have arrived, or after 2 s: sent at once, some may still be connecting).
 */
async function startQuickReceiver(other: { open: number; received: number }, expected: number) {
  const openOnOther: number[] = [];
  let arrived!: () => void;
  const first = new Promise<void>((resolve) => (arrived = resolve));
  const server: Server = createServer((req, res) => {
    void (async () => {
      for (let i = 0; i < 200 && other.received < expected; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      openOnOther.push(other.open);
      req.resume();
      res.writeHead(200).end('ok');
      arrived();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    openOnOther,
    first,
    url: `http://127.0.0.1:${port}/hooks`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.each(engines())('webhooks of several tenants, on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  const rootSecret = randomBytes(32);
  const keys = new Map<string, string>();

  beforeAll(async () => {
    db = await engine.open();
    app = await buildTestApp(db, { WEBHOOK_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'error' }, rootSecret);
    for (const tenant of ['1', 'demo']) {
      keys.set(tenant, (await db.withTenant(tenant, (sql) => createApiKey(sql, 'hooks'))).key);
    }
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  const admin = (tenant: string, method: 'PUT' | 'POST', path: string, payload?: object) =>
    app.inject({
      method,
      url: `/${tenant}/api/1.0/admin${path}`,
      headers: { authorization: `Bearer ${keys.get(tenant) ?? ''}` },
      ...(payload ? { payload } : {}),
    });

  it("sends to one tenant while another tenant's receiver hangs", async () => {
    const hanging = await startHangingReceiver();
    const quick = await startQuickReceiver(hanging.state, 3);
    try {
      expect((await admin('1', 'PUT', '/webhook', { url: hanging.url })).statusCode).toBe(200);
      expect((await admin('demo', 'PUT', '/webhook', { url: quick.url })).statusCode).toBe(200);
      for (let i = 0; i < 3; i++) {
        expect((await admin('1', 'POST', '/webhook/test')).statusCode).toBe(202);
      }
      expect((await admin('demo', 'POST', '/webhook/test')).statusCode).toBe(202);

      const run = createWebhookDispatcher({
        db,
        secretBox: createSecretBox(rootSecret),
        limits: { retryBaseSeconds: 10, retryMaxSeconds: 25, maxAttempts: 4, timeoutSeconds: 3 },
        log: { warn: () => {}, error: () => {} },
        targets: 'any',
        random: () => 0,
      }).dispatchDue();
      await quick.first;
      hanging.release();
      expect(await run).toBe(4);
      // Tenant 1's three requests were still waiting for their answers when demo's event came.
      expect(quick.openOnOther).toEqual([3]);
      expect(hanging.state.received).toBe(3);
    } finally {
      await hanging.close();
      await quick.close();
    }
  });
});
