import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { pendingMigrations } from '../../db/migrate.ts';
import type { AppContext } from '../../context.ts';

/** Whether the process is draining (SIGTERM): readiness says no before the server stops. */
export type Lifecycle = { draining: boolean };

type Check = 'ok' | 'down' | 'pending' | 'off' | 'draining';

/** A check that does not answer within the time is down, not a hung probe. */
const within = <T>(ms: number, work: Promise<T>): Promise<T> =>
  Promise.race([
    work,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timed out')), ms).unref()),
  ]);

const sameSecret = (given: string, expected: string): boolean => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * Outside any tenant: `/livez` (the process answers), `/readyz` (database and Redis reachable,
 * every migration of this build applied, not draining) and `/metrics` (Prometheus text, only with
 * `Authorization: Bearer <METRICS_TOKEN>`; without a token configured it does not exist). Logged
 * only at warn and above: a probe every few seconds would drown the request log.
 */
async function opsRoutes(
  app: FastifyInstance,
  { ctx, lifecycle }: { ctx: AppContext; lifecycle: Lifecycle },
) {
  app.get('/livez', { logLevel: 'warn', schema: { hide: true } }, async (_request, reply) =>
    reply.header('cache-control', 'no-store').send({ status: 'alive' }),
  );

  app.get('/readyz', { logLevel: 'warn', schema: { hide: true } }, async (_request, reply) => {
    const checks: Record<'database' | 'migrations' | 'redis' | 'lifecycle', Check> = {
      lifecycle: lifecycle.draining ? 'draining' : 'ok',
      database: 'ok',
      migrations: 'ok',
      redis: ctx.redis ? 'ok' : 'off',
    };
    await Promise.all([
      within(2000, pendingMigrations(ctx.db)).then(
        (pending) => {
          if (pending.length > 0) checks.migrations = 'pending';
        },
        () => {
          checks.database = 'down';
          checks.migrations = 'down';
        },
      ),
      ctx.redis
        ? within(1000, ctx.redis.ping()).catch(() => {
            checks.redis = 'down';
          })
        : null,
    ]);
    const ready = Object.values(checks).every((c) => c === 'ok' || c === 'off');
    return reply
      .status(ready ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({ status: ready ? 'ready' : 'not_ready', checks });
  });

  const token = ctx.config.METRICS_TOKEN;
  app.get('/metrics', { logLevel: 'warn', schema: { hide: true } }, async (request, reply) => {
    // Without a token configured the endpoint does not exist (not the web app's page either).
    if (!token) return reply.status(404).send({ message: 'Not found', code: 'not_found' });
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    if (!sameSecret(given, token)) {
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer')
        .send({ message: 'Unauthorized', code: 'unauthorized' });
    }
    return reply
      .header('content-type', ctx.metrics.registry.contentType)
      .header('cache-control', 'no-store')
      .send(await ctx.metrics.registry.metrics());
  });

  // Every answer, by its route template (`/:tenant/api/1.0/invoices`): never the path itself.
  app.addHook('onResponse', async (request, reply) => {
    ctx.metrics.observeRequest(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
  });
}

/** Not encapsulated: the request metrics hook sees every route of the app. */
export default fp(opsRoutes, { name: 'ops' });
