import { ErrorCode, routes } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { runEvery } from '../../lib/background-loop.ts';
import { route } from '../../lib/route.ts';
import { createReceiptMailer } from './receipt-mail.ts';
import { createReconciler } from './reconcile.ts';
import { createRefunder } from './refunds.ts';
import { createRedsysClient } from './redsys-client.ts';
import { createPaymentService } from './service.ts';

export const notificationPath = '/redsys/notification';
/** A real notification is 1-3 KB (base64 JSON of ~20 fields); 16 KB leaves room, beyond is 413. */
export const NOTIFICATION_BODY_LIMIT = 16 * 1024;

export default async function paymentRoutes(app: FastifyInstance, ctx: AppContext) {
  // The one server-to-server client of every tenant's gateway (SOAP query, REST refunds).
  const redsys = createRedsysClient({ simulatorUrl: ctx.config.redsysSimulatorUrl });
  const service = createPaymentService({
    db: ctx.db,
    secretBox: ctx.secretBox,
    simulatorUrl: ctx.config.redsysSimulatorUrl,
    notificationBaseUrl: ctx.config.notificationBaseUrl,
    onPaid: createReceiptMailer(ctx.db, ctx.mailer),
    log: app.log,
  });
  const auth = { preValidation: [ctx.requireCustomer] };

  // Payments the gateway never notified are settled by asking it (see reconcile.ts).
  const every = ctx.config.RECONCILE_INTERVAL_SECONDS;
  if (every > 0) {
    const reconciler = createReconciler({
      db: ctx.db,
      secretBox: ctx.secretBox,
      service,
      client: redsys,
      afterMinutes: ctx.config.RECONCILE_AFTER_MINUTES,
      releaseAfterMinutes: ctx.config.RECONCILE_RELEASE_AFTER_MINUTES,
      log: app.log,
    });
    runEvery(app, every, 'reconciliation', () => reconciler.reconcileAll());
  }
  // Overpayments are refunded through the gateway by the refund outbox (refunds.ts), on the
  // outboxes' timer: each refund leased, sent once, retried or left for the operator.
  const outboxEvery = ctx.config.OUTBOX_INTERVAL_SECONDS;
  if (outboxEvery > 0) {
    const refunder = createRefunder({
      db: ctx.db,
      secretBox: ctx.secretBox,
      refundGateway: (gateway, request) => redsys.refund(gateway, request),
      log: app.log,
    });
    runEvery(app, outboxEvery, 'refund outbox', () => refunder.sendDue());
  }
  const actorOf = (request: { tenant: { id: string }; customerId: string }) => ({
    tenantId: request.tenant.id,
    customerId: request.customerId,
  });

  route(
    app,
    routes.initPayment,
    ({ request, body }) => service.initPayment(actorOf(request), body),
    auth,
  );
  route(app, routes.addCard, ({ request, body }) => service.addCard(actorOf(request), body), auth);
  route(
    app,
    routes.paymentStatus,
    ({ request, params }) => service.status(actorOf(request), params.id),
    auth,
  );

  // Redsys' server-to-server notification: a form POST with no session, authenticated only by its
  // signature with this tenant's key. Outside the JSON contract and the global per-IP limit; it
  // has its own, bounded body and per-IP limit, and nothing is written before the signature
  // verifies (handleNotification), so junk costs no storage.
  app.post(
    notificationPath,
    {
      schema: { hide: true },
      config: { rateLimit: false },
      bodyLimit: NOTIFICATION_BODY_LIMIT,
      onRequest: async (request) => {
        const verdict = await ctx.limiter.hit(
          `redsys-notification:${request.ip}`,
          ctx.config.NOTIFICATION_RATE_LIMIT_PER_MINUTE,
          60,
        );
        if (!verdict.allowed) {
          throw new AppError(429, ErrorCode.rateLimited, 'Too many notifications', {
            'retry-after': String(verdict.retryAfterSeconds),
          });
        }
        // Redsys posts a form; anything else is refused before its body is even read.
        const type = String(request.headers['content-type'] ?? '')
          .split(';')[0]
          ?.trim();
        if (type !== 'application/x-www-form-urlencoded') {
          throw new AppError(415, ErrorCode.unsupportedMediaType, 'Unsupported media type');
        }
      },
    },
    async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const outcome = await service.handleNotification(request.tenant.id, {
        Ds_SignatureVersion: body.Ds_SignatureVersion,
        Ds_MerchantParameters: body.Ds_MerchantParameters,
        Ds_Signature: body.Ds_Signature,
      });
      request.log.info({ outcome }, 'Redsys notification');
      // Refused before any write: a malformed or unverifiable message (400), a tenant with no
      // card gateway (404). Everything else was handled: 200.
      const status = outcome === 'bad_signature' ? 400 : outcome === 'not_configured' ? 404 : 200;
      return reply
        .status(status)
        .type('text/plain')
        .send(status === 200 ? 'OK' : 'KO');
    },
  );
}
