import { Writable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { Database } from '../src/db/database.ts';
import { demoEmail, demoPassword } from '../src/db/seed/demo.ts';
import { engines, testConfig } from './engines.ts';
import { hasRedisServer, startRedis } from './redis-server.ts';

const metricsToken = 'metrics-token-for-the-test-0123456789abcdef';

/** Health, readiness and metrics (issue 22: "Observe"), on both engines. */
describe.each(engines())('operations endpoints ($name)', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  const lifecycle = { draining: false };
  const logged: string[] = [];

  beforeAll(async () => {
    db = await engine.open();
    app = await buildApp({
      config: testConfig({ METRICS_TOKEN: metricsToken, LOG_LEVEL: 'info' }),
      db,
      rootSecret: randomBytes(32),
      lifecycle,
      logStream: new Writable({
        write(chunk, _encoding, done) {
          logged.push(String(chunk));
          done();
        },
      }),
    });
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  it('/livez answers while the process runs, outside any tenant, and is not logged at info', async () => {
    logged.length = 0;
    const res = await app.inject({
      method: 'GET',
      url: '/livez',
      headers: { host: 'nowhere.test' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'alive' });
    expect(logged.filter((l) => l.includes('/livez'))).toEqual([]);
  });

  it("logs one line a request, naming the request id and the path's tenant", async () => {
    logged.length = 0;
    const res = await app.inject({ method: 'GET', url: '/demo/api/1.0/visual-config' });
    expect(res.statusCode).toBe(200);
    const lines = logged.map(
      (l) => JSON.parse(l) as { reqId?: string; tenant?: string; msg: string },
    );
    // One line a request at info, when it ends: what was asked, the outcome and the time.
    expect(lines).toEqual([
      expect.objectContaining({
        msg: 'request completed',
        tenant: 'demo',
        reqId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        req: expect.objectContaining({ method: 'GET', url: '/demo/api/1.0/visual-config' }),
        res: { statusCode: 200 },
        responseTime: expect.any(Number),
      }),
    ]);
    // A request answered with an error says so on its one line too.
    logged.length = 0;
    expect((await app.inject({ method: 'GET', url: '/demo/api/1.0/nothing' })).statusCode).toBe(
      404,
    );
    expect(logged.map((l) => JSON.parse(l) as object)).toEqual([
      expect.objectContaining({ msg: 'request completed', res: { statusCode: 404 } }),
    ]);
    // Outside any tenant: the request id alone.
    logged.length = 0;
    await app.inject({ method: 'GET', url: '/readyz' });
    await app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    for (const line of logged.map((l) => JSON.parse(l) as { tenant?: string; reqId?: string })) {
      expect(line.tenant).toBeUndefined();
      expect(line.reqId).toBeDefined();
    }
  });

  it('/readyz is ready with the database up and every migration applied', async () => {
    const res = await app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      status: 'ready',
      checks: { lifecycle: 'ok', database: 'ok', migrations: 'ok', redis: 'off' },
    });
  });

  it('/readyz says 503 while a migration of this build is not applied', async () => {
    await db.withOwner((sql) =>
      sql.query(`UPDATE schema_migrations SET version = '999' WHERE version = '001'`),
    );
    try {
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json().checks.migrations).toBe('pending');
    } finally {
      await db.withOwner((sql) =>
        sql.query(`UPDATE schema_migrations SET version = '001' WHERE version = '999'`),
      );
    }
  });

  it('/readyz says 503 from the moment the process drains', async () => {
    lifecycle.draining = true;
    try {
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 'not_ready', checks: { lifecycle: 'draining' } });
    } finally {
      lifecycle.draining = false;
    }
  });

  it('/metrics needs the token, compared whole', async () => {
    for (const authorization of [
      undefined,
      'Bearer wrong',
      `Bearer ${metricsToken}x`,
      metricsToken,
    ]) {
      const res = await app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.body).not.toContain('portal_');
    }
  });

  it('/metrics counts requests by route template, never by path, and reads the backlogs', async () => {
    const login = await app.inject({
      method: 'POST',
      url: '/demo/api/1.0/login',
      payload: { email: demoEmail, password: demoPassword },
    });
    expect(login.statusCode).toBe(200);
    const token = login.json<{ access_token: string; user: { id: string } }>();
    await app.inject({
      method: 'GET',
      url: `/demo/api/1.0/user/profile/${token.user.id}`,
      headers: { authorization: `Bearer ${token.access_token}` },
    });
    const res = await app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${metricsToken}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    const text = res.body;
    expect(text).toMatch(
      /portal_http_request_duration_seconds_count\{method="POST",route="\/:tenant\/api\/1.0\/login",status="200"\} 1/,
    );
    expect(text).toContain('route="/:tenant/api/1.0/user/profile/:id"');
    // No id, token or tenant of a request in a label.
    expect(text).not.toContain(token.user.id);
    expect(text).not.toContain(token.access_token);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    expect(text).toMatch(/^portal_db_pool_connections\{state="size"\} \d+/m);
    // Listening since the app was ready: bearer calls need not ask about their session.
    expect(text).toMatch(/^portal_revocation_listener_up 1$/m);
    // The heavy work's two lanes: nothing running, waiting or refused yet, no process started.
    for (const lane of ['documents', 'batches']) {
      expect(text).toMatch(
        new RegExp(`^portal_heavy_work_tasks\\{lane="${lane}",state="running"\\} 0$`, 'm'),
      );
      expect(text).toMatch(
        new RegExp(`^portal_heavy_work_tasks\\{lane="${lane}",state="waiting"\\} 0$`, 'm'),
      );
      expect(text).toMatch(
        new RegExp(`^portal_heavy_work_refused_total\\{lane="${lane}"\\} 0$`, 'm'),
      );
      expect(text).toMatch(
        new RegExp(`^portal_heavy_work_stopped_total\\{lane="${lane}"\\} 0$`, 'm'),
      );
      expect(text).toMatch(new RegExp(`^portal_heavy_work_processes\\{lane="${lane}"\\} 0$`, 'm'));
    }
    for (const gauge of [
      'portal_payment_attempts_stale',
      'portal_webhook_events_pending',
      'portal_webhook_events_failed',
      'portal_refunds_pending',
      'portal_refunds_review',
      'portal_invitations_pending',
    ])
      expect(text).toMatch(new RegExp(`^${gauge} \\d+$`, 'm'));
  });

  it('/metrics does not exist without a token configured', async () => {
    const bare = await buildApp({
      config: testConfig(),
      db,
      rootSecret: randomBytes(32),
    });
    try {
      const res = await bare.inject({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(404);
    } finally {
      await bare.close();
    }
  });
});

describe.runIf(hasRedisServer())('readiness with Redis', () => {
  it('is not ready while Redis is down, and ready again when it is back', async () => {
    const [engine] = engines();
    if (!engine) throw new Error('no engine');
    const db = await engine.open();
    const redis = await startRedis();
    const app = await buildApp({
      config: testConfig({ REDIS_URL: redis.url }),
      db,
      rootSecret: randomBytes(32),
    });
    try {
      await app.ready();
      const up = await app.inject({ method: 'GET', url: '/readyz' });
      expect(up.json()).toMatchObject({ status: 'ready', checks: { redis: 'ok' } });
      await redis.stop();
      const down = await app.inject({ method: 'GET', url: '/readyz' });
      expect(down.statusCode).toBe(503);
      expect(down.json().checks.redis).toBe('down');
    } finally {
      await app.close();
      await db.close();
    }
  });
});
