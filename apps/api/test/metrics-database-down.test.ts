import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { buildTestApp, engines } from './engines.ts';

const metricsToken = 'metrics-token-for-the-review-0123456789abcdef';
const scrape = (app: FastifyInstance) =>
  app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${metricsToken}` },
  });

/**
 * docs/operations.md "Metrics" and "What to alert on": `/metrics` is how the operator watches an
 * instance, and the alerts on the pool (`portal_db_pool_connections{state="waiting"} > 0 for 5
 * min`: "the pool is too small or the database slow") and on the event loop are read from it. The
 * backlog gauges are computed by a database statement inside the scrape (ops/metrics.ts,
 * `readOnce`), and a gauge whose `collect` throws makes prom-client's `registry.metrics()` reject:
 * the whole scrape fails. So while the database does not answer, or the pool is saturated (the
 * backlog statement waits 5 s for a connection, then fails), every metric of the instance is
 * gone, the pool's and the event loop's included, exactly when they are needed.
 */
describe.each(engines())('/metrics while the database does not answer ($name)', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let down = false;

  beforeAll(async () => {
    db = await engine.open();
    // The database as the app sees it during an outage: every new statement is refused.
    const outage: Database = {
      ...db,
      withOwner: (fn) =>
        down
          ? Promise.reject(
              Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
                code: 'ECONNREFUSED',
              }),
            )
          : db.withOwner(fn),
    };
    app = await buildTestApp(outage, { METRICS_TOKEN: metricsToken });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  it("still serves the process's and the pool's metrics", async () => {
    expect((await scrape(app)).statusCode, 'with the database up').toBe(200);
    // Past the backlog's one-second cache.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    down = true;
    try {
      const res = await scrape(app);
      expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
      expect(res.body).toMatch(/^portal_db_pool_connections\{state="size"\} \d+/m);
      expect(res.body).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
      // The backlog gauges keep their last values, and the failed read is counted.
      expect(res.body).toMatch(/^portal_webhook_events_pending \d+/m);
      expect(res.body).toMatch(/^portal_metrics_reads_failed_total [1-9]/m);
    } finally {
      down = false;
    }
  });
});

describe.each(engines().filter((e) => e.name === 'postgres'))(
  '/metrics while the pool is saturated ($name)',
  (engine) => {
    let db: Database;
    let app: FastifyInstance;

    beforeAll(async () => {
      db = await engine.open();
      app = await buildTestApp(db, { METRICS_TOKEN: metricsToken });
      await app.ready();
    });
    afterAll(async () => {
      await app.close();
      await db.close();
    });

    it('shows the requests waiting for a connection instead of failing the scrape', async () => {
      const size = db.poolStats().size;
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      // Every connection of the pool busy (slow queries), and one more request waiting for one.
      const busy = Array.from({ length: size + 1 }, () =>
        db
          .withOwner(async (sql) => {
            await sql.query('SELECT 1');
            await held;
          })
          .catch(() => 'the extra one gave up waiting'),
      );
      try {
        const deadline = Date.now() + 5000;
        while (db.poolStats().waiting < 1 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        expect(db.poolStats().waiting, 'the pool is saturated').toBeGreaterThanOrEqual(1);
        const res = await scrape(app);
        expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
        expect(res.body).toMatch(/^portal_db_pool_connections\{state="waiting"\} [1-9]/m);
      } finally {
        release();
        await Promise.all(busy);
      }
    }, 20_000);
  },
);
