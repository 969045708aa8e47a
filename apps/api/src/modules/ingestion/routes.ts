import { ingestionRoutes as defs } from '@portal/contract/admin-ingestion';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { runEvery } from '../../lib/background-loop.ts';
import { route } from '../../lib/route.ts';
import { createInvitationSender } from './invitations.ts';
import { createIngestionService } from './service.ts';

/**
 * Provider integration: the ingestion API (docs/ingestion.md), authenticated by a tenant API key.
 * Invitations of new customers leave through an outbox that a background loop empties.
 */
export default async function ingestionRoutes(app: FastifyInstance, ctx: AppContext) {
  const service = createIngestionService({ db: ctx.db });
  const auth = { preValidation: [ctx.requireApiKey] };

  const every = ctx.config.OUTBOX_INTERVAL_SECONDS;
  if (every > 0) {
    const sender = createInvitationSender({ db: ctx.db, mailer: ctx.mailer, log: app.log });
    runEvery(app, every, 'invitation outbox', () => sender.sendDue());
  }

  route(
    app,
    defs.ingestCustomers,
    ({ request, body }) => service.ingestCustomers(request.tenant.id, body.customers),
    auth,
  );
  route(
    app,
    defs.inviteCustomers,
    ({ request, body }) => service.inviteCustomers(request.tenant.id, body.codes),
    auth,
  );
  route(
    app,
    defs.listPaymentMethodRequests,
    ({ request, query }) => service.listRequests(request.tenant.id, query),
    auth,
  );
  route(
    app,
    defs.ingestInvoices,
    ({ request, body }) => service.ingestInvoices(request.tenant.id, body.invoices),
    auth,
  );
  route(
    app,
    defs.changeInstalmentStatus,
    ({ request, body }) => service.changeInstalmentStatus(request.tenant.id, body.changes),
    auth,
  );
  route(
    app,
    defs.ingestNotifications,
    ({ request, body }) => service.ingestNotifications(request.tenant.id, body.notifications),
    auth,
  );
  route(
    app,
    defs.reviewPaymentMethodRequest,
    ({ request, params, body }) => service.reviewRequest(request.tenant.id, params.id, body.status),
    auth,
  );
}
