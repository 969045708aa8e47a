import { ErrorCode, routes } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { route } from '../../lib/route.ts';
import { createDeclineMailSender } from '../auto-pay/declines.ts';
import { createAutoPayMailer } from '../auto-pay/mail.ts';
import { createReceiptMailer } from './receipt-mail.ts';
import { createPaymentService, notificationPath } from './service.ts';
import { limitAddress } from '../../lib/limit-address.ts';

export { notificationPath };
/** A real notification is 1-3 KB (base64 JSON of ~20 fields); 16 KB leaves room, beyond is 413. */
export const NOTIFICATION_BODY_LIMIT = 16 * 1024;

export default async function paymentRoutes(app: FastifyInstance, ctx: AppContext) {
  const declineMails = createDeclineMailSender({
    db: ctx.db,
    mail: createAutoPayMailer(ctx.db, ctx.mailer),
    log: app.log,
  });
  const service = createPaymentService({
    db: ctx.db,
    secretBox: ctx.secretBox,
    simulatorUrl: ctx.config.redsysSimulatorUrl,
    notificationBaseUrl: ctx.config.notificationBaseUrl,
    onPaid: createReceiptMailer(ctx.db, ctx.mailer),
    onAutoPayDeclined: async (tenantId) => {
      await declineMails.sendTenant(tenantId);
    },
    log: app.log,
    now: ctx.now,
  });
  const auth = { preValidation: [ctx.requireCustomer] };

  const actorOf = (request: { tenant: { id: string }; customerId: string }) => ({
    tenantId: request.tenant.id,
    customerId: request.customerId,
  });

  route(
    app,
    routes.checkoutPreview,
    ({ request, body }) => service.checkoutPreview(actorOf(request), body),
    auth,
  );
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
          `redsys-notification:${limitAddress(request.ip)}`,
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
      ctx.metrics.countNotification(outcome);
      if (outcome === 'paid' || outcome === 'overpaid' || outcome === 'failed')
        ctx.metrics.countPayment(outcome, 'notification');
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
