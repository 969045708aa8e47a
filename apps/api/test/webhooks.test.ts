import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeMerchantParameters } from '@portal/redsys';
import { signedNotification } from './redsys-notification.ts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { createSecretBox } from '../src/lib/secret-box.ts';
import { createApiKey } from '../src/modules/admin/api-keys.ts';
import { createWebhookDispatcher, userAgent } from '../src/modules/webhooks/dispatcher.ts';
import { verifyWebhookSignature } from '../src/modules/webhooks/signature.ts';
import { startSmtp } from '../../../tools/test-smtp.ts';
import { buildTestApp, engines } from './engines.ts';
import { signedIn } from './session.ts';

type Received = {
  id: string;
  type: string;
  tenant: string;
  data: Record<string, unknown>;
  headers: IncomingHttpHeaders;
  valid: boolean;
};

type LoggedEvent = {
  id: string;
  type: string;
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  delivered_at: string | null;
  payload: Record<string, unknown>;
  attempt_log: { attempt: number; status_code: number | null; error: string | null; url: string }[];
};

/**
 * A real HTTP receiver on localhost, as a provider would write one: it verifies the signature of
 * the raw body with the endpoint's secret and records what it accepted. It can answer 503, be
 * slow, or be closed altogether (nothing listens on its port) and opened again on the same port.
 */
async function startReceiver() {
  const received: Received[] = [];
  const state = { secret: '', mode: 'ok' as 'ok' | 'unavailable', delayMs: 0 };
  let server: Server;
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          setTimeout(() => {
            if (state.mode === 'unavailable') {
              res.writeHead(503, { 'content-type': 'text/plain' }).end('down for maintenance');
              return;
            }
            const body = Buffer.concat(chunks).toString('utf8');
            const header = req.headers['x-portal-signature'];
            const check = verifyWebhookSignature({
              secret: state.secret,
              body,
              header: typeof header === 'string' ? header : undefined,
            });
            const event = JSON.parse(body) as Omit<Received, 'headers' | 'valid'>;
            received.push({ ...event, headers: req.headers, valid: check.ok });
            res.writeHead(check.ok ? 200 : 400).end(check.ok ? 'ok' : 'bad signature');
          }, state.delayMs);
        });
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
  const port = await listen(0);
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return {
    received,
    state,
    url: `http://127.0.0.1:${port}/portal/webhooks`,
    close,
    reopen: () => listen(port),
    /** How many times each event id arrived (accepted). */
    countOf: (id: string) => received.filter((r) => r.id === id && r.valid).length,
  };
}

const quiet = { warn: () => {}, error: () => {} };

describe.each(engines())('payment webhooks on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let demoKey: string;
  let oneKey: string;
  const rootSecret = randomBytes(32);
  const limits = { retryBaseSeconds: 10, retryMaxSeconds: 25, maxAttempts: 4, timeoutSeconds: 2 };
  /** A dispatcher as a second API instance would run it (same database, same root secret). */
  const dispatcher = () =>
    createWebhookDispatcher({
      db,
      secretBox: createSecretBox(rootSecret),
      limits,
      log: quiet,
      // As with WEBHOOK_ALLOW_PRIVATE=true: the receiver is on 127.0.0.1.
      targets: 'any',
      random: () => 0,
    });

  beforeAll(async () => {
    db = await engine.open();
    smtp = await startSmtp();
    receiver = await startReceiver();
    app = await buildTestApp(
      db,
      {
        SMTP_URL: smtp.url,
        PUBLIC_URL: 'http://localhost:3000',
        LOG_LEVEL: 'error',
        // The receiver listens on 127.0.0.1: the explicit option, as in every mode.
        WEBHOOK_ALLOW_PRIVATE: 'true',
      },
      rootSecret,
    );
    me = await signedIn(app, 'demo');
    demoKey = (await db.withTenant('demo', (sql) => createApiKey(sql, 'webhooks test'))).key;
    oneKey = (await db.withTenant('1', (sql) => createApiKey(sql, 'tenant 1 webhooks'))).key;
  });
  afterAll(async () => {
    await app.close();
    await db.close();
    await smtp.close();
    await receiver.close();
  });

  const admin = (
    method: 'GET' | 'PUT' | 'POST' | 'DELETE',
    path: string,
    payload?: object,
    { key = demoKey, tenant = 'demo' } = {},
  ) =>
    app.inject({
      method,
      url: `/${tenant}/api/1.0/admin${path}`,
      headers: { authorization: `Bearer ${key}` },
      ...(payload ? { payload } : {}),
    });
  const log = async (query = 'limit=100') => {
    const res = await admin('GET', `/webhook/events?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ events: LoggedEvent[]; next_cursor: string | null }>();
  };
  const eventsOf = (tenant: string) =>
    db.withTenant(tenant, (sql) =>
      sql.query<{ id: string; type: string; status: string; payload: Record<string, unknown> }>(
        'SELECT id, type, status, payload FROM webhook_events ORDER BY created_at, id',
      ),
    );
  /** Makes every pending event due now, instead of waiting for its retry. */
  const makeDue = (tenant = 'demo') =>
    db.withTenant(tenant, (sql) =>
      sql.query("UPDATE webhook_events SET next_attempt_at = now() WHERE status = 'pending'"),
    );
  const ping = async (opts?: { key?: string; tenant?: string }) => {
    const res = await admin('POST', '/webhook/test', undefined, opts);
    expect(res.statusCode, res.body).toBe(202);
    return res.json<LoggedEvent>().id;
  };

  // ---- The real payment flow (as in payments.test.ts) ----
  const unpaid = async () =>
    (
      await me.post('/payments', {
        datefrom: '20000101',
        dateto: '20991231',
        page: '1',
        pending: true,
        overdue: true,
      })
    ).json<{ payments: { payment_id: string; amount: number }[] }>().payments;
  /** Starts a payment of one unpaid instalment and posts the gateway's signed notification. */
  const payOnce = async (response: string, index: number) => {
    const payment = (await unpaid())[index];
    const init = await me.post('/redsys/init-payment', {
      amount: payment?.amount,
      payment_ids: [payment?.payment_id],
    });
    expect(init.statusCode, init.body).toBe(200);
    const p = decodeMerchantParameters(
      init.json<{ redsys_params: { Ds_MerchantParameters: string } }>().redsys_params
        .Ds_MerchantParameters,
    );
    const message = signedNotification(p, response);
    const notified = await app.inject({
      method: 'POST',
      url: '/demo/api/1.0/redsys/notification',
      payload: new URLSearchParams(message as unknown as Record<string, string>).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(notified.statusCode).toBe(200);
    return { order: p.Ds_Merchant_Order ?? '', amountCents: Number(p.Ds_Merchant_Amount) };
  };

  it('writes no event while the tenant has no endpoint', async () => {
    await payOnce('0190', 0);
    const all = await db.withOwner((sql) =>
      sql.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_events'),
    );
    expect(all[0]?.n).toBe(0);
    expect((await admin('GET', '/webhook')).json()).toMatchObject({ code: 'not_found' });
    expect((await admin('GET', '/webhook')).statusCode).toBe(404);
    expect((await admin('POST', '/webhook/test')).statusCode).toBe(409);
    expect((await admin('POST', '/webhook/secret')).statusCode).toBe(404);
  });

  it('registers the endpoint: the secret is answered once and sealed at rest', async () => {
    const created = await admin('PUT', '/webhook', { url: receiver.url });
    expect(created.statusCode, created.body).toBe(200);
    const body = created.json<{ url: string; enabled: boolean; secret?: string }>();
    expect(body).toMatchObject({ url: receiver.url, enabled: true });
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    receiver.state.secret = body.secret ?? '';

    const shown = await admin('GET', '/webhook');
    expect(shown.statusCode).toBe(200);
    expect(Object.keys(shown.json()).sort()).toEqual([
      'created_at',
      'enabled',
      'updated_at',
      'url',
    ]);
    expect(shown.body).not.toContain(body.secret);
    const updated = await admin('PUT', '/webhook', { url: receiver.url, enabled: true });
    expect(updated.json()).not.toHaveProperty('secret');

    const [raw] = await db.withTenant('demo', (sql) =>
      sql.query<{ secret: string }>('SELECT secret FROM webhook_endpoints'),
    );
    expect(raw?.secret.startsWith('enc:v1:')).toBe(true);
    expect(raw?.secret).not.toContain(body.secret?.slice(6));

    // Rotation answers a new secret, once; the next deliveries are signed with it.
    const rotated = await admin('POST', '/webhook/secret');
    const secret = rotated.json<{ secret: string }>().secret;
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(body.secret);
    receiver.state.secret = secret;
    expect((await admin('GET', '/webhook')).body).not.toContain(secret);
  });

  it('refuses bad URLs and any credential but a live key of the tenant', async () => {
    for (const url of ['ftp://erp.example.com/', 'https://user:pw@erp.example.com/', 'nope', '']) {
      const res = await admin('PUT', '/webhook', { url });
      expect(res.statusCode, url).toBe(422);
      expect(Object.keys(res.json<{ errors: object }>().errors)).toEqual(['url']);
    }
    expect((await admin('PUT', '/webhook', { url: receiver.url, enabled: 'yes' })).statusCode).toBe(
      422,
    );
    expect((await admin('GET', '/webhook')).json()).toMatchObject({ url: receiver.url });

    const customer = await app.inject({
      method: 'GET',
      url: '/demo/api/1.0/admin/webhook',
      headers: { authorization: `Bearer ${me.token}` },
    });
    expect(customer.statusCode).toBe(401);
    // Tenant 1's key, on tenant demo's log: 401, whatever it asks.
    for (const path of ['/webhook', '/webhook/events']) {
      expect((await admin('GET', path, undefined, { key: oneKey })).statusCode).toBe(401);
    }
  });

  it('documents the calls with examples in the OpenAPI document', async () => {
    const res = await app.inject({ method: 'GET', url: '/demo/api/1.0/openapi.json' });
    const doc = res.json<{ paths: Record<string, Record<string, unknown>> }>();
    const paths = Object.keys(doc.paths).filter((p) => p.includes('/admin/webhook'));
    expect(paths.sort()).toEqual([
      '/{tenant}/api/1.0/admin/webhook',
      '/{tenant}/api/1.0/admin/webhook/events',
      '/{tenant}/api/1.0/admin/webhook/events/{id}/redeliver',
      '/{tenant}/api/1.0/admin/webhook/secret',
      '/{tenant}/api/1.0/admin/webhook/test',
    ]);
    const text = JSON.stringify(doc.paths['/{tenant}/api/1.0/admin/webhook']);
    expect(text).toContain('https://erp.example.com/portal/webhooks');
    expect(text).toContain('"examples"');
    const events = JSON.stringify(doc.paths['/{tenant}/api/1.0/admin/webhook/events']);
    expect(events).toContain('"in":"query"');
    expect(events).toContain('payment.succeeded');
  });

  it('sends payment.succeeded for a real payment, signed, with the event id as idempotency key', async () => {
    const { order, amountCents } = await payOnce('0000', 0);
    const [event] = await eventsOf('demo');
    expect(event).toMatchObject({
      type: 'payment.succeeded',
      status: 'pending',
      payload: {
        order_number: order,
        amount_cents: amountCents,
        status: 'paid',
        currency: 'EUR',
        method: 'card',
      },
    });
    expect(await dispatcher().dispatchDue()).toBe(1);
    const got = receiver.received.find((r) => r.id === event?.id);
    expect(got).toMatchObject({ type: 'payment.succeeded', tenant: 'demo', valid: true });
    expect(got?.data).toMatchObject({ order_number: order, amount_cents: amountCents });
    expect(got?.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': userAgent,
      'idempotency-key': event?.id,
      'x-portal-event-id': event?.id,
      'x-portal-event-type': 'payment.succeeded',
    });
    expect(String(got?.headers['x-portal-signature'])).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const [logged] = (await log()).events;
    expect(logged).toMatchObject({
      id: event?.id,
      status: 'delivered',
      attempts: 1,
      next_attempt_at: null,
    });
    expect(logged?.attempt_log).toMatchObject([{ attempt: 1, status_code: 200, error: null }]);
    expect(await dispatcher().dispatchDue()).toBe(0);
  });

  it('sends payment.failed for a declined payment', async () => {
    const { order } = await payOnce('0190', 0);
    const failed = (await eventsOf('demo')).filter((e) => e.type === 'payment.failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]?.payload).toMatchObject({ order_number: order, status: 'failed' });
    await dispatcher().dispatchDue();
    expect(receiver.countOf(failed[0]?.id ?? '')).toBe(1);
  });

  it('sends payment_method.request_created for a main-method request of a customer', async () => {
    const methods = (await me.get('/payment-methods')).json<{
      methods: { id: string; is_main: boolean; pending_requests: string[] }[];
    }>().methods;
    const method = methods.find((m) => !m.is_main && m.pending_requests.length === 0);
    const res = await me.post(`/payment-methods/${method?.id}/main-request`, {});
    expect(res.statusCode, res.body).toBe(200);
    const requested = (await eventsOf('demo')).filter(
      (e) => e.type === 'payment_method.request_created',
    );
    expect(requested).toHaveLength(1);
    expect(requested[0]?.payload).toMatchObject({
      kind: 'main_change',
      request_id: res.json<{ request_id: string }>().request_id,
      payment_method: { id: method?.id },
    });
    await dispatcher().dispatchDue();
    expect(receiver.received.find((r) => r.id === requested[0]?.id)).toMatchObject({
      type: 'payment_method.request_created',
      valid: true,
    });
  });

  it('retries with backoff while the receiver is down, then delivers each event exactly once', async () => {
    await receiver.close();
    const ids = [await ping(), await ping(), await ping()];
    const d = dispatcher();
    expect(await d.dispatchDue()).toBe(3);
    // Nothing is due before its retry time.
    expect(await d.dispatchDue()).toBe(0);

    // Up again, but answering 503.
    await receiver.reopen();
    receiver.state.mode = 'unavailable';
    await makeDue();
    expect(await d.dispatchDue()).toBe(3);

    receiver.state.mode = 'ok';
    await makeDue();
    expect(await d.dispatchDue()).toBe(3);
    // However many runs follow, and however often pending events are made due, nothing arrives twice.
    for (let run = 0; run < 5; run++) {
      await makeDue();
      await dispatcher().dispatchDue();
    }
    for (const id of ids) expect(receiver.countOf(id)).toBe(1);

    const logged = (await log()).events.filter((e) => ids.includes(e.id));
    expect(logged).toHaveLength(3);
    for (const event of logged) {
      expect(event).toMatchObject({ type: 'ping', status: 'delivered', attempts: 3 });
      expect(event.attempt_log.map((a) => a.status_code)).toEqual([null, 503, 200]);
      expect(event.attempt_log[0]?.error).toMatch(/^connection failed: ECONNREFUSED/);
      expect(event.attempt_log[1]?.error).toBe('HTTP 503: down for maintenance');
      expect(event.attempt_log.every((a) => a.url === receiver.url)).toBe(true);
    }
  });

  it('waits base * 2^(n-1) seconds, capped, between attempts', async () => {
    receiver.state.mode = 'unavailable';
    const id = await ping();
    const waits: number[] = [];
    for (let n = 1; n <= 3; n++) {
      await makeDue();
      await dispatcher().dispatchDue();
      const [row] = await db.withTenant('demo', (sql) =>
        sql.query<{ wait: number }>(
          `SELECT extract(epoch FROM e.next_attempt_at - a.attempted_at)::float8 AS wait
             FROM webhook_events e JOIN webhook_attempts a
               ON a.tenant_id = e.tenant_id AND a.event_id = e.id AND a.attempt = e.attempts
            WHERE e.id = $1`,
          [id],
        ),
      );
      waits.push(Math.round(row?.wait ?? -1));
    }
    // Base 10 s, cap 25 s, no jitter (pinned): 10, 20, 25.
    expect(waits).toEqual([10, 20, 25]);

    // The fourth attempt is the last (WEBHOOK_MAX_ATTEMPTS 4): the event fails for good.
    await makeDue();
    await dispatcher().dispatchDue();
    const failed = (await log('status=failed')).events.find((e) => e.id === id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 4, next_attempt_at: null });
    expect(failed?.attempt_log).toHaveLength(4);
    await makeDue();
    expect(await dispatcher().dispatchDue()).toBe(0);

    // Redelivered by the provider: pending now, the log kept, delivered on the next run.
    receiver.state.mode = 'ok';
    const again = await admin('POST', `/webhook/events/${id}/redeliver`);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ id, status: 'pending', attempts: 4 });
    expect(await dispatcher().dispatchDue()).toBe(1);
    const delivered = (await log('status=delivered')).events.find((e) => e.id === id);
    expect(delivered?.attempt_log.map((a) => a.status_code)).toEqual([503, 503, 503, 503, 200]);
    expect(receiver.countOf(id)).toBe(1);

    expect((await admin('POST', '/webhook/events/nope/redeliver')).statusCode).toBe(404);
    expect(
      (await admin('POST', '/webhook/events/00000000-0000-4000-8000-000000000000/redeliver'))
        .statusCode,
    ).toBe(404);
  });

  it('delivers each event once when two dispatchers run at the same time', async () => {
    receiver.state.delayMs = 20;
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push(await ping());
    const [a, b] = await Promise.all([dispatcher().dispatchDue(), dispatcher().dispatchDue()]);
    receiver.state.delayMs = 0;
    expect(a + b).toBe(25);
    for (const id of ids) expect(receiver.countOf(id)).toBe(1);
  });

  it('pages the delivery log and validates its query', async () => {
    const first = await log('limit=2');
    expect(first.events).toHaveLength(2);
    expect(first.next_cursor).toBe(first.events[1]?.id);
    const second = await log(`limit=2&before=${first.next_cursor}`);
    expect(second.events).toHaveLength(2);
    const all = (await log('limit=100')).events.map((e) => e.id);
    expect(all.slice(0, 4)).toEqual([...first.events, ...second.events].map((e) => e.id));
    expect((await log('status=pending')).events).toEqual([]);
    for (const [query, field] of [
      ['status=lost', 'status'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=x', 'limit'],
      ['before=nope', 'before'],
    ]) {
      const res = await admin('GET', `/webhook/events?${query}`);
      expect(res.statusCode, query).toBe(422);
      expect(Object.keys(res.json<{ errors: object }>().errors)).toEqual([field]);
    }
  });

  it("never sends one tenant's events to another tenant's endpoint", async () => {
    const other = await startReceiver();
    try {
      const created = await admin(
        'PUT',
        '/webhook',
        { url: other.url },
        { key: oneKey, tenant: '1' },
      );
      expect(created.statusCode, created.body).toBe(200);
      other.state.secret = created.json<{ secret: string }>().secret;
      const oneIds = [
        await ping({ key: oneKey, tenant: '1' }),
        await ping({ key: oneKey, tenant: '1' }),
      ];
      const demoIds = [await ping()];
      expect(await dispatcher().dispatchDue()).toBe(3);
      expect(other.received.map((r) => r.id).sort()).toEqual([...oneIds].sort());
      expect(other.received.every((r) => r.tenant === '1' && r.valid)).toBe(true);
      for (const id of oneIds) expect(receiver.countOf(id)).toBe(0);
      expect(receiver.countOf(demoIds[0] ?? '')).toBe(1);
      // Each tenant's log holds its own events only.
      const oneLog = await admin('GET', '/webhook/events', undefined, { key: oneKey, tenant: '1' });
      expect(
        oneLog
          .json<{ events: LoggedEvent[] }>()
          .events.map((e) => e.id)
          .sort(),
      ).toEqual([...oneIds].sort());
      expect((await log()).events.some((e) => oneIds.includes(e.id))).toBe(false);
      expect((await admin('POST', `/webhook/events/${oneIds[0]}/redeliver`)).statusCode).toBe(404);
    } finally {
      await other.close();
    }
  });

  it('sends in the background when OUTBOX_INTERVAL_SECONDS is set, and stops on close', async () => {
    const looping = await buildTestApp(
      db,
      { OUTBOX_INTERVAL_SECONDS: '0.05', WEBHOOK_ALLOW_PRIVATE: 'true' },
      rootSecret,
    );
    try {
      // Jobs start when the app is ready (modules/jobs/plugin.ts), as a listening server is.
      await looping.ready();
      const id = await ping();
      for (let i = 0; i < 200 && receiver.countOf(id) === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(receiver.countOf(id)).toBe(1);
    } finally {
      await looping.close();
    }
  });

  it.each(['test', 'development', 'production'])(
    'refuses private addresses with NODE_ENV=%s, unless WEBHOOK_ALLOW_PRIVATE',
    async (mode) => {
      // Both send in the background, as a server does; one at a time. The mode changes nothing.
      const background = { NODE_ENV: mode, OUTBOX_INTERVAL_SECONDS: '0.05' };
      const put = (target: FastifyInstance, url: string) =>
        target.inject({
          method: 'PUT',
          url: '/demo/api/1.0/admin/webhook',
          headers: { authorization: `Bearer ${demoKey}` },
          payload: { url },
        });
      const until = async (done: () => Promise<boolean>) => {
        for (let i = 0; i < 200 && !(await done()); i++) {
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
      };
      const loggedOf = async (id: string) => (await log()).events.find((e) => e.id === id);

      const refusing = await buildTestApp(db, background, rootSecret);
      let id = '';
      try {
        // A literal private address is refused at registration already.
        for (const url of [
          receiver.url,
          'https://10.0.0.5/hooks',
          'https://169.254.169.254/latest/meta-data/',
          'https://[::ffff:10.0.0.5]/hooks',
          'https://[fd00::1]/hooks',
        ]) {
          const res = await put(refusing, url);
          expect(res.statusCode, url).toBe(422);
          expect(res.json(), url).toMatchObject({ errors: { url: ['invalid_value'] } });
        }
        // An endpoint on 127.0.0.1 registered earlier (with WEBHOOK_ALLOW_PRIVATE) is still there:
        // the sender refuses to connect, and logs a failed attempt to be retried.
        await admin('PUT', '/webhook', { url: receiver.url, enabled: true });
        expect((await admin('GET', '/webhook')).json()).toMatchObject({ url: receiver.url });
        id = await ping();
        await until(async () => ((await loggedOf(id))?.attempts ?? 0) > 0);
      } finally {
        await refusing.close();
      }
      const refused = await loggedOf(id);
      expect(refused).toMatchObject({ status: 'pending', attempts: 1 });
      expect(refused?.next_attempt_at).not.toBeNull();
      expect(refused?.attempt_log).toMatchObject([
        { attempt: 1, status_code: null, error: 'refused: private address 127.0.0.1' },
      ]);
      expect(receiver.countOf(id)).toBe(0);

      // The operator allows the private network: registration and delivery go through.
      const allowing = await buildTestApp(
        db,
        { ...background, WEBHOOK_ALLOW_PRIVATE: 'true' },
        rootSecret,
      );
      try {
        const res = await put(allowing, receiver.url);
        expect(res.statusCode, res.body).toBe(200);
        await makeDue();
        await until(async () => receiver.countOf(id) > 0);
      } finally {
        await allowing.close();
      }
      expect(receiver.countOf(id)).toBe(1);
      const delivered = await loggedOf(id);
      expect(delivered).toMatchObject({ status: 'delivered', attempts: 2 });
      expect(delivered?.attempt_log.map((a) => a.status_code)).toEqual([null, 200]);
    },
  );

  it('pauses while disabled, and fails what is left when the endpoint is removed', async () => {
    const paused = await admin('PUT', '/webhook', { url: receiver.url, enabled: false });
    expect(paused.json()).toMatchObject({ enabled: false });
    const before = (await eventsOf('demo')).length;
    // Disabled: the customer's request writes no event, and a ping is refused.
    const methods = (await me.get('/payment-methods')).json<{
      methods: { id: string; is_main: boolean; pending_requests: string[] }[];
    }>().methods;
    const method = methods.find((m) => !m.is_main && m.pending_requests.length === 0);
    if (method) await me.post(`/payment-methods/${method.id}/main-request`, {});
    expect((await eventsOf('demo')).length).toBe(before);
    expect((await admin('POST', '/webhook/test')).statusCode).toBe(409);

    await admin('PUT', '/webhook', { url: receiver.url, enabled: true });
    receiver.state.mode = 'unavailable';
    const id = await ping();
    await dispatcher().dispatchDue();
    await admin('PUT', '/webhook', { url: receiver.url, enabled: false });
    await makeDue();
    expect(await dispatcher().dispatchDue()).toBe(0);

    const removed = await admin('DELETE', '/webhook');
    expect(removed.json()).toEqual({ deleted: true });
    expect((await admin('GET', '/webhook')).statusCode).toBe(404);
    expect((await admin('DELETE', '/webhook')).statusCode).toBe(404);
    expect((await log()).events.find((e) => e.id === id)).toMatchObject({ status: 'failed' });
    expect((await admin('POST', `/webhook/events/${id}/redeliver`)).statusCode).toBe(409);
    receiver.state.mode = 'ok';
  });
});
