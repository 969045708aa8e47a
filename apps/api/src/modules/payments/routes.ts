import { routes } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { runEvery } from '../../lib/background-loop.ts';
import { route } from '../../lib/route.ts';
import { createReceiptMailer } from './receipt-mail.ts';
import { createReconciler } from './reconcile.ts';
import { createRefunder } from './refunds.ts';
import { createRedsysClient } from './redsys-client.ts';
import { createPaymentService } from './service.ts';

export const notificationPath = '/redsys/notification';

export default async function paymentRoutes(app: FastifyInstance, ctx: AppContext) {
  const service = createPaymentService({
    db: ctx.db,
    secretBox: ctx.secretBox,
    simulatorUrl: ctx.config.redsysSimulatorUrl,
    notificationBaseUrl: ctx.config.notificationBaseUrl,
    onPaid: createReceiptMailer(ctx.db, ctx.mailer),
    log: app.log,
  });
  const auth = { preValidation: [ctx.requireCustomer] };

  const client = createRedsysClient({ simulatorUrl: ctx.config.redsysSimulatorUrl });
  // Payments the gateway never notified are settled by asking it (see reconcile.ts).
  const every = ctx.config.RECONCILE_INTERVAL_SECONDS;
  if (every > 0) {
    const reconciler = createReconciler({
      db: ctx.db,
      secretBox: ctx.secretBox,
      service,
      client,
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
      refundGateway: (gateway, request) => client.refund(gateway, request),
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
  // signature with this tenant's key. Outside the JSON contract; never rate limited per IP.
  app.post(
    notificationPath,
    { schema: { hide: true }, config: { rateLimit: false } },
    async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const outcome = await service.handleNotification(request.tenant.id, {
        Ds_SignatureVersion: body.Ds_SignatureVersion,
        Ds_MerchantParameters: body.Ds_MerchantParameters,
        Ds_Signature: body.Ds_Signature,
      });
      request.log.info({ outcome }, 'Redsys notification');
      // A refused signature is a 400 (nothing was done); everything else was handled: 200.
      return reply
        .status(outcome === 'bad_signature' ? 400 : 200)
        .type('text/plain')
        .send(outcome === 'bad_signature' ? 'KO' : 'OK');
    },
  );
}
