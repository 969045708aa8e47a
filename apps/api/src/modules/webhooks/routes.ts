import { webhookRoutes as defs } from '@portal/contract/admin-webhooks';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../lib/route.ts';
import { webhookTargetPolicyOf } from './address.ts';
import { createWebhookService } from './service.ts';

/**
 * Provider integration: the tenant's webhook endpoint and delivery log (`/admin/webhook...`, tenant
 * API key). The outbox's sender is a job (jobs.ts). See docs/webhooks.md.
 */
export default async function webhooksRoutes(app: FastifyInstance, ctx: AppContext) {
  const service = createWebhookService({
    db: ctx.db,
    secretBox: ctx.secretBox,
    targets: webhookTargetPolicyOf(ctx.config),
  });
  const auth = { onRequest: [ctx.requireApiKey] };

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
}
