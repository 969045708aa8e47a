import { ingestionRoutes as defs } from '@portal/contract/admin-ingestion';
import type { FastifyInstance } from 'fastify';
import { ErrorCode } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { AppError, FieldValidationError } from '../../lib/app-error.ts';
import { toFieldErrors } from '../../plugins/app/error-handler.ts';
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
  // Up to 10,000 invoices: the JSON text goes as it came to the heavy-work pool, which parses,
  // validates and prepares it (~250 ms of CPU that held the event loop); only the checks against
  // the database and the statements run here.
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) =>
      done(null, text),
    );
    route(
      scope,
      defs.ingestInvoices,
      async ({ request }) => {
        const prepared = await ctx.heavyWork.prepareInvoices(request.body);
        if (prepared.kind === 'malformed') {
          throw new AppError(400, ErrorCode.badRequest, 'Bad request');
        }
        if (prepared.kind === 'invalid')
          throw new FieldValidationError(toFieldErrors(prepared.issues));
        return service.ingestInvoices(request.tenant.id, prepared.batch);
      },
      { ...auth, validateBody: false },
    );
  });
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
