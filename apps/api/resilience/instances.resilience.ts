import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openPostgres } from '../src/db/database.ts';
import { demoEmail, demoPassword, secondEmail } from '../src/db/seed/demo.ts';
import { createApiKey } from '../src/modules/admin/api-keys.ts';
import { startRedis } from '../test/redis-server.ts';
import { startApi, type ApiProcess } from './support/api-process.ts';
import { cloneTemplate, type TestDatabase } from './support/database.ts';
import { authed, form, send, signIn, type Answer } from './support/http.ts';
import {
  consistency,
  preparePayments,
  settlementSql,
  type PreparedPayment,
  type Settlement,
} from './support/payments.ts';
import { hasHaproxy, startHaproxy } from './support/haproxy.ts';
import { freePort } from './support/ports.ts';

const { logDir, postgres, template } = inject('resilience');
const range = { datefrom: '20000101', dateto: '20991231', page: '1' };

/** The provider's webhook receiver: answers 200 and keeps every event id it was sent. */
async function startReceiver(): Promise<{ url: string; ids: string[]; close(): void }> {
  const ids: string[] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      ids.push(String(req.headers['x-portal-event-id'] ?? ''));
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { url: `http://127.0.0.1:${address.port}/hooks`, ids, close: () => server.close() };
}

/**
 * Issue 22, "Prove it": two compiled instances behind HAProxy, sharing the real PostgreSQL and
 * Redis, under load; one is killed with SIGKILL mid-load and started again.
 */
describe.runIf(hasHaproxy)('two instances behind HAProxy', () => {
  let db: TestDatabase;
  let redis: { url: string; stop(): Promise<void> };
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let proxy: { url: string; stop(): void };
  const instances: ApiProcess[] = [];
  const appSecret = randomBytes(32).toString('base64');
  const ports: number[] = [];

  const startInstance = (name: string, port: number) =>
    startApi({
      name,
      logDir,
      databaseUrl: db.url,
      appSecret,
      port,
      env: {
        REDIS_URL: redis.url,
        TRUST_PROXY: 'true',
        WEBHOOK_ALLOW_PRIVATE: 'true',
        OUTBOX_INTERVAL_SECONDS: '0.5',
        WEBHOOK_RETRY_BASE_SECONDS: '1',
        WEBHOOK_RETRY_MAX_SECONDS: '2',
        RECONCILE_INTERVAL_SECONDS: '2',
        // The notifier below replays Redsys from one address faster than Redsys ever sends.
        NOTIFICATION_RATE_LIMIT_PER_MINUTE: '1000000',
        RATE_LIMIT_PER_MINUTE: '100000',
      },
    });

  beforeAll(async () => {
    db = await cloneTemplate(postgres, template, 'instances');
    redis = await startRedis();
    receiver = await startReceiver();
    ports.push(await freePort(), await freePort());
    instances.push(await startInstance('lb-a', ports[0] as number));
    instances.push(await startInstance('lb-b', ports[1] as number));
    proxy = await startHaproxy(ports);
  });
  afterAll(async () => {
    proxy?.stop();
    for (const api of instances) await api.stop();
    receiver?.close();
    await redis?.stop();
    await db?.drop();
  });

  it('loses and doubles no payment, delivers every webhook, shares the limits, and fails only what was in flight on the killed instance', async () => {
    const lb = proxy.url;
    // The tenant's webhook endpoint, through the provider's API key.
    const owner = openPostgres({ connectionString: db.url, max: 1 });
    const key = await owner
      .withTenant('demo', (sql) => createApiKey(sql, 'instances'))
      .finally(() => owner.close());
    const hook = await send(`${lb}/demo/api/1.0/admin/webhook`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key.key}` },
      body: JSON.stringify({ url: receiver.url, enabled: true }),
    });
    expect(hook.status, hook.body).toBe(200);

    const demo = await signIn(lb, 'demo', demoEmail, demoPassword);
    const other = await signIn(lb, 'demo', secondEmail, demoPassword);
    const prepared = [
      ...(await preparePayments(lb, 'demo', demo, { instalments: 4, cards: 3 })),
      ...(await preparePayments(lb, 'demo', other, { instalments: 4, cards: 3 })),
    ];

    const reads: Answer[] = [];
    const notes: { payment: PreparedPayment; answer: Answer }[] = [];
    let stop = false;
    let cursor = 0;
    const readers = [demo, other, demo, other].map(async (token) => {
      const call = authed(lb, 'demo', token);
      while (!stop) reads.push(await call('POST', '/invoices', range, 15_000));
    });
    const notifier = (async () => {
      while (!stop && cursor < prepared.length) {
        const payment = prepared[cursor++] as PreparedPayment;
        notes.push({
          payment,
          answer: await send(`${lb}/demo/api/1.0/redsys/notification`, {
            ...form(payment.notification),
            timeoutMs: 15_000,
          }),
        });
        await sleep(150);
      }
    })();

    // A third of the notifications in, instance A dies at once (no drain), then comes back.
    while (cursor < prepared.length / 3) await sleep(20);
    const victim = instances[0] as ApiProcess;
    victim.signal('SIGKILL');
    await victim.exited;
    const killedAt = reads.length + notes.length;
    await sleep(1500);
    instances[0] = await startInstance('lb-a-again', ports[0] as number);
    await notifier;
    await sleep(1500);
    stop = true;
    await Promise.all(readers);

    // Only what was in flight on the killed instance failed: a broken-off answer (502 from the
    // proxy, or the connection) within the moment of the kill, never a 500, never later.
    const all = [...reads, ...notes.map((n) => n.answer)];
    const failed = all.filter((a) => a.status !== 200);
    expect(
      failed.map((a) => `${a.status || a.error} ${a.body.slice(0, 120)}`),
      'failures other than the in-flight ones',
    ).toSatisfy((list: string[]) => list.every((f) => /^(502|503|0|ECONNRESET|UND_ERR)/.test(f)));
    expect(
      failed.length,
      `at most the requests in flight at the kill: ${failed.map((a) => `${a.status || a.error} ${Math.round(a.ms)}ms ${a.body.slice(0, 80)}`).join(' | ')}`,
    ).toBeLessThanOrEqual(6);
    expect(reads.length, 'the load went on across the kill').toBeGreaterThan(killedAt);

    // Redsys retries what it got no 200 for; then every payment is applied exactly once.
    for (const n of notes.filter((x) => x.answer.status !== 200)) {
      const again = await send(`${lb}/demo/api/1.0/redsys/notification`, {
        ...form(n.payment.notification),
        timeoutMs: 15_000,
      });
      expect(again.status, again.body).toBe(200);
    }
    const rows = await db.query<Settlement>(settlementSql, ['demo', prepared.map((p) => p.order)]);
    expect(rows).toHaveLength(prepared.length);
    for (const row of rows) expect(consistency(row), JSON.stringify(row)).toBe('once');

    // Every webhook event is delivered (the surviving instance takes over the outbox).
    const events = async () =>
      db.query<{ id: string; status: string }>(
        `SELECT id::text, status FROM webhook_events WHERE tenant_id = 'demo' AND type <> 'ping'`,
      );
    for (let i = 0; i < 100; i++) {
      if ((await events()).every((e) => e.status === 'delivered')) break;
      await sleep(200);
    }
    const stored = await events();
    expect(stored.length).toBeGreaterThanOrEqual(
      prepared.filter((p) => p.kind === 'payment').length,
    );
    expect(stored.filter((e) => e.status !== 'delivered')).toEqual([]);
    const received = new Set(receiver.ids);
    expect(stored.filter((e) => !received.has(e.id))).toEqual([]);

    // The sign-in limit per address (30 a minute) is one window for both instances: 40 attempts
    // through the proxy, alternating between them, are cut at 30, not at 60. On tenant 1, where
    // nobody signed in yet: the window starts with the first of them.
    const attempts: number[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await send(`${lb}/1/api/1.0/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `nobody${i}@example.com`, password: 'wrong-password' }),
      });
      attempts.push(res.status);
    }
    const refused = attempts.filter((s) => s === 429).length;
    expect(refused, attempts.join(',')).toBeGreaterThanOrEqual(10);
    console.log(
      `two instances: ${reads.length} reads and ${notes.length} notifications through the proxy, ` +
        `${failed.length} failed at the SIGKILL (${failed.map((a) => a.status || a.error).join(', ')}); ` +
        `${rows.length} payments applied once; ${stored.length} webhook events, ${receiver.ids.length} deliveries; ` +
        `sign-in attempts refused from the ${attempts.indexOf(429) + 1}th of 40`,
    );
  });
});
