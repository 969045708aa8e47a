import { webhookRoutes as defs } from '@portal/contract/admin-webhooks';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { runEvery } from '../../lib/background-loop.ts';
import { route } from '../../lib/route.ts';
import { webhookTargetPolicyOf } from './address.ts';
import { createWebhookDispatcher, webhookLimitsOf } from './dispatcher.ts';
import { createWebhookService } from './service.ts';

/**
 * Provider integration: the tenant's webhook endpoint and delivery log (`/admin/webhook...`, tenant
 * API key), and the background sender of the webhook outbox. See docs/webhooks.md.
 */
export default async function webhooksRoutes(app: FastifyInstance, ctx: AppContext) {
  const service = createWebhookService({
    db: ctx.db,
    secretBox: ctx.secretBox,
    targets: webhookTargetPolicyOf(ctx.config),
  });
  const auth = { preValidation: [ctx.requireApiKey] };

  route(app, defs.getWebhook, ({ request }) => service.get(request.tenant.id), auth);
  route(app, defs.putWebhook, ({ request, body }) => service.put(request.tenant.id, body), auth);
  route(
    app,
    defs.rotateWebhookSecret,
    ({ request }) => service.rotateSecret(request.tenant.id),
    auth,
  );
  route(app, defs.deleteWebhook, ({ request }) => service.remove(request.tenant.id), auth);
  route(
    app,
    defs.webhookEvents,
    ({ request, query }) => service.events(request.tenant.id, query),
    auth,
  );
  route(
    app,
    defs.redeliverWebhookEvent,
    ({ request, params }) => service.redeliver(request.tenant.id, params.id),
    auth,
  );
  route(app, defs.testWebhook, ({ request }) => service.ping(request.tenant.id), auth);

  // The outbox sender, as the reconciliation timer of payments: one run at a time per process;
  // several processes share the work safely (events are leased, see dispatcher.ts).
  const every = ctx.config.OUTBOX_INTERVAL_SECONDS;
  if (every > 0) {
    const dispatcher = createWebhookDispatcher({
      db: ctx.db,
      secretBox: ctx.secretBox,
      limits: webhookLimitsOf(ctx.config),
      log: app.log,
      targets: webhookTargetPolicyOf(ctx.config),
    });
    // A run in flight finishes on close (each POST is bounded by the timeout).
    runEvery(app, every, 'webhook dispatch', () => dispatcher.dispatchDue());
  }
}
