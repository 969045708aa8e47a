import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { setTimeout } from 'node:timers/promises';
import compress from '@fastify/compress';
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import errorHandler, { sendError } from './plugins/app/error-handler.ts';
import inputGuard from './plugins/app/input-guard.ts';
import openapi from './plugins/app/openapi.ts';
import tenant from './plugins/app/tenant.ts';
import db from './plugins/external/db.ts';
import sameOrigin from './plugins/app/same-origin.ts';
import security, { securityHeaders } from './plugins/external/security.ts';
import web from './plugins/external/web.ts';
import { createContext, openRedis, type AppContext } from './context.ts';
import { limitAddress } from './lib/limit-address.ts';
import { errorForLog, requestForLog } from './lib/log-redaction.ts';
import { OneLinePerRequest } from './lib/request-log.ts';
import { serializerCompiler, validatorCompiler, zodSchemaController } from './lib/zod-compilers.ts';
import formPostCallback from './modules/auth/form-post-callback.ts';
import authRoutes from './modules/auth/routes.ts';
import customerRoutes from './modules/customers/routes.ts';
import documentRoutes from './modules/documents/routes.ts';
import invoiceRoutes from './modules/invoices/routes.ts';
import contactRoutes from './modules/contact/routes.ts';
import notificationRoutes from './modules/notifications/routes.ts';
import paymentMethodRoutes from './modules/payment-methods/routes.ts';
import autoPayRoutes from './modules/auto-pay/routes.ts';
import paymentRoutes, { notificationPath } from './modules/payments/routes.ts';
import tenantRoutes from './modules/tenants/routes.ts';
import ingestionRoutes from './modules/ingestion/routes.ts';
import returnedDebitRoutes from './modules/returned-debits/routes.ts';
import webhookRoutes from './modules/webhooks/routes.ts';
import fiscalDataRoutes from './modules/fiscal-data/routes.ts';
import invoiceThreadRoutes from './modules/invoice-threads/routes.ts';
import mandateRoutes from './modules/mandates/routes.ts';
import jobs from './modules/jobs/plugin.ts';
import manifestRoutes from './modules/tenants/manifest.ts';
import opsRoutes, { type Lifecycle } from './modules/ops/routes.ts';

export type AppOptions = {
  config: Config;
  db: Database;
  rootSecret: Buffer;
  /** Where the log lines go (stdout unless given): tests read what the server logs. */
  logStream?: { write(line: string): void };
  /** Set `draining` on SIGTERM (server.ts): `/readyz` answers 503 from then on. */
  lifecycle?: Lifecycle;
  /** The clock of business dates (today, overdue); the real one unless a test sets it. */
  now?: () => Date;
};

/** The tenant id a path of the API names, when it has the form of one. */
const tenantOfPath = (url: string | undefined): string | undefined =>
  /^\/([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)\/api\//.exec(url ?? '')?.[1];

/** The whole HTTP application as one plugin tree: tests build it and `inject` requests into it. */
export async function buildApp({
  config,
  db: database,
  rootSecret,
  logStream,
  lifecycle = { draining: false },
  now,
}: AppOptions): Promise<FastifyInstance> {
  const securityOptions = {
    paymentFormOrigins: [...config.PAYMENT_FORM_ORIGINS, new URL(config.redsysSimulatorUrl).origin],
    tls: config.publicUrl.startsWith('https:'),
  };
  // What a request refused before any hook runs (below) is answered with: the security headers,
  // and kept out of every cache.
  const earlyErrorHeaders = { ...securityHeaders(securityOptions), 'cache-control': 'no-store' };
  const app = Fastify({
    logger:
      config.LOG_LEVEL === 'silent'
        ? false
        : {
            level: config.LOG_LEVEL,
            redact: [
              'req.headers.authorization',
              'req.headers.cookie',
              'res.headers["set-cookie"]',
            ],
            serializers: { req: requestForLog, err: (error) => errorForLog(error) },
            ...(logStream ? { stream: logStream } : {}),
          },
    // Every line of a request names its request id and the tenant its path names
    // (`/{tenant}/api/...`; the tenant plugin answers 404 for one that does not exist), in the one
    // child logger Fastify makes per request: a second child, made once the tenant was looked
    // up, cost about 8 µs a request.
    childLoggerFactory: (logger, bindings, options, raw) => {
      const tenant = tenantOfPath(raw.url);
      return logger.child(tenant ? { ...bindings, tenant } : bindings, options);
    },
    // One line a request, written when it ends (lib/request-log.ts).
    logController: new OneLinePerRequest(),
    // One hop: the proxy in front, whose address appended last to X-Forwarded-For is the client's.
    // `true` trusted every hop, so the left-most entry, which the client writes itself, was its
    // address behind a proxy that appends (nginx, HAProxy's forwardfor, cloud load balancers): a
    // new bucket of every per-address limit per request (session 37).
    // (Fastify reads a number as "trust nothing": the hop is said as a function.)
    trustProxy: config.TRUST_PROXY ? (_address: string, hop: number) => hop === 0 : false,
    genReqId: () => randomUUID(),
    bodyLimit: 1_048_576,
    return503OnClosing: true,
    // Signed links (the invoice PDF) carry their claims in a path parameter.
    routerOptions: { maxParamLength: 600 },
    // A path that does not decode (`%ED%A0%80`, a lone surrogate) or a parameter over that length:
    // the documented 400 of every other bad request, not Fastify's own body echoing the path.
    // Sent before any onRequest hook: the security headers and no-store are set here, or that
    // answer went without them (session 37).
    frameworkErrors: (error, request, reply) => {
      void reply.headers(earlyErrorHeaders);
      return sendError(error, reply, request.log);
    },
    // The contract's zod schemas compile every route: ajv and fast-json-stringify never load.
    schemaController: zodSchemaController,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const ctx: AppContext = createContext(
    config,
    database,
    rootSecret,
    await openRedis(config),
    (msg) => app.log.info(msg),
    (error, msg) => app.log.error({ err: error }, msg),
    now ?? (() => new Date()),
  );
  app.decorateRequest('customerId', '');
  // Ended sessions are announced by the database; listening lets every bearer call skip asking
  // (modules/auth/revocation-cache.ts). Started once the app is ready, stopped with it.
  let unlisten = async () => {};
  app.addHook('onReady', async () => {
    unlisten = await ctx.revocations.listen(database);
  });
  app.addHook('onClose', async () => {
    await unlisten();
    ctx.redis?.disconnect();
    // After the requests in flight (server.ts drains them first): their tasks have finished.
    await ctx.heavyWork.close();
  });
  // Limits and revocations live in Redis when it is configured: give its connection a moment to
  // open before the first request (its commands do not queue while it is down).
  app.addHook('onReady', async () => {
    const redis = ctx.redis;
    if (!redis || redis.status === 'ready') return;
    await Promise.race([once(redis, 'ready'), setTimeout(5000)]);
  });
  await app.register(db, { db: database });
  await app.register(errorHandler);
  await app.register(opsRoutes, { ctx, lifecycle });
  await app.register(security, securityOptions);
  await app.register(compress, { global: true, threshold: 1024 });
  // Forms reach only the two protocol endpoints that receive them (the Redsys notification and the
  // OpenID form_post callback): every other write of the API is refused by `same-origin` unless JSON.
  await app.register(formbody, { bodyLimit: 65_536 });
  await app.register(openapi);
  await app.register(formPostCallback);

  await app.register(
    async (api) => {
      if (config.RATE_LIMIT_PER_MINUTE > 0) {
        await api.register(rateLimit, {
          // Not a hook per route: those run after the scope's own (the tenant lookup, the
          // origin check, the API key), and what they refused was never counted, so an address
          // guessing API keys or walking tenant ids was never limited (session 37). Routes with
          // a limit of their own (`config.rateLimit`) still get it from the plugin.
          global: false,
          max: config.RATE_LIMIT_PER_MINUTE,
          timeWindow: '1 minute',
          // An IPv6 client by its /64 (lib/limit-address.ts), as every other limit.
          keyGenerator: (request) => limitAddress(request.ip),
          // With Redis every instance counts into the same window (issue 22); a Redis that does
          // not answer lets the request through rather than failing it (the sign-in limits, on
          // ctx.limiter, have their own fallback).
          ...(ctx.redis ? { redis: ctx.redis, nameSpace: 'portal-rl-', skipOnError: true } : {}),
        });
        const perAddress = api.createRateLimit();
        // The first hook of the API: every request counts, whatever refuses it afterwards.
        api.addHook('onRequest', async (request, reply) => {
          // The Redsys notifications have their own limit (payments/routes.ts).
          if (request.routeOptions.config?.rateLimit === false) return;
          const verdict = await perAddress(request);
          if (verdict.isAllowed || !verdict.isExceeded) return;
          void reply.header('retry-after', String(verdict.ttlInSeconds));
          throw Object.assign(new Error('Too many requests'), { statusCode: 429 });
        });
      }
      await api.register(tenant);
      await api.register(sameOrigin, {
        allowedOrigins: config.ALLOWED_ORIGINS,
        formRoutes: [`/:tenant/api/1.0${notificationPath}`],
      });
      await api.register(inputGuard);
      await api.register(tenantRoutes, ctx);
      await api.register(authRoutes, ctx);
      await api.register(customerRoutes, ctx);
      await api.register(invoiceRoutes, ctx);
      await api.register(paymentRoutes, ctx);
      await api.register(documentRoutes, ctx);
      await api.register(paymentMethodRoutes, ctx);
      await api.register(autoPayRoutes, ctx);
      await api.register(notificationRoutes, ctx);
      await api.register(contactRoutes, ctx);
      await api.register(ingestionRoutes, ctx);
      await api.register(returnedDebitRoutes, ctx);
      await api.register(webhookRoutes, ctx);
      await api.register(fiscalDataRoutes, ctx);
      await api.register(invoiceThreadRoutes, ctx);
      await api.register(mandateRoutes, ctx);
      // Sent as stored bytes, compressed once (plugins/app/openapi.ts), not by @fastify/compress.
      api.get('/openapi.json', { schema: { hide: true }, compress: false }, (request, reply) =>
        app.sendOpenapiDocument(request, reply),
      );
    },
    { prefix: '/:tenant/api/1.0' },
  );

  // Background work starts here and only here, once the routes are in place.
  await app.register(jobs, { ctx });
  // The web app's manifest carries the tenant's name and colour: built per host, not a file.
  await app.register(manifestRoutes);
  await app.register(web, { root: config.WEB_DIST });
  return app;
}
