import { ingestionRoutes as defs } from '@portal/contract/admin-ingestion';
import type { FastifyInstance } from 'fastify';
import { ErrorCode } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { AppError, FieldValidationError } from '../../lib/app-error.ts';
import { toFieldErrors } from '../../plugins/app/error-handler.ts';
import { route } from '../../lib/route.ts';
import type { Parsed } from './parse-batch.ts';
import {
  createReturnMailSender,
  recordReturnFeesCollected,
  returnInstalmentsFromStatus,
} from '../returned-debits/service.ts';
import { createIngestionService } from './service.ts';
import { outcomeResult } from '../../workers/ingest-invoices.ts';

/**
 * Provider integration: the ingestion API (docs/ingestion.md), authenticated by a tenant API key.
 * Invitations of new customers leave through an outbox that a job empties (jobs.ts).
 */
export default async function ingestionRoutes(app: FastifyInstance, ctx: AppContext) {
  const returnMails = createReturnMailSender({ db: ctx.db, mailer: ctx.mailer, log: app.log });
  const service = createIngestionService({
    db: ctx.db,
    revocations: ctx.revocations,
    returns: {
      apply: returnInstalmentsFromStatus,
      feesCollected: recordReturnFeesCollected,
      sendMails: (tenantId, ids) =>
        returnMails
          .sendTenant(tenantId, ids)
          .catch((error: unknown) =>
            app.log.error({ err: error, tenantId }, 'returned debit e-mail failed'),
          ),
    },
  });
  const auth = { onRequest: [ctx.requireApiKey] };

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
  // The batch calls (up to 10,000 items, several MB): the JSON goes as it came to the
  // heavy-work pool, which parses and validates it (~100-250 ms of CPU that held the event loop
  // in one piece) and, for invoices, prepares the statements' parameters; only the checks against
  // the database and the statements run here.
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    // The bytes as they came: even decoding them to a string is left to the pool.
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, bytes, done) =>
      done(null, bytes),
    );
    const offLoop = { ...auth, validateBody: false } as const;
    const refuse = (parsed: Exclude<Parsed<unknown>, { kind: 'valid' }>): never => {
      if (parsed.kind === 'malformed') throw new AppError(400, ErrorCode.badRequest, 'Bad request');
      if (parsed.kind === 'invalid') throw new FieldValidationError(toFieldErrors(parsed.issues));
      throw new FieldValidationError(parsed.errors);
    };
    const accepted = <T>(parsed: Parsed<T>): T =>
      parsed.kind === 'valid' ? parsed.data : refuse(parsed);
    route(
      scope,
      defs.ingestInvoices,
      async ({ request }) => {
        // On PostgreSQL the whole batch runs in a heavy-work process with its own connections
        // (workers/ingest-invoices.ts); on the embedded database, here, its writes in a slot.
        const onThread = ctx.heavyWork.ingestInvoices;
        if (onThread) return outcomeResult(await onThread(request.tenant.id, request.body), refuse);
        const batch = accepted(
          await ctx.heavyWork.prepareInvoices(request.tenant.id, request.body),
        );
        return ctx.heavyWork.inSlot(request.tenant.id, () =>
          service.ingestInvoices(request.tenant.id, batch),
        );
      },
      offLoop,
    );
    route(
      scope,
      defs.ingestCustomers,
      async ({ request }) => {
        const body = accepted(
          await ctx.heavyWork.parseBatch(request.tenant.id, 'ingestCustomers', request.body),
        );
        return ctx.heavyWork.inSlot(request.tenant.id, () =>
          service.ingestCustomers(request.tenant.id, body.customers),
        );
      },
      offLoop,
    );
    route(
      scope,
      defs.changeInstalmentStatus,
      async ({ request }) => {
        const body = accepted(
          await ctx.heavyWork.parseBatch(request.tenant.id, 'changeInstalmentStatus', request.body),
        );
        return service.changeInstalmentStatus(request.tenant.id, body.changes);
      },
      offLoop,
    );
    route(
      scope,
      defs.ingestNotifications,
      async ({ request }) => {
        const body = accepted(
          await ctx.heavyWork.parseBatch(request.tenant.id, 'ingestNotifications', request.body),
        );
        return ctx.heavyWork.inSlot(request.tenant.id, () =>
          service.ingestNotifications(request.tenant.id, body.notifications),
        );
      },
      offLoop,
    );
  });
  route(
    app,
    defs.reviewPaymentMethodRequest,
    ({ request, params, body }) => service.reviewRequest(request.tenant.id, params.id, body.status),
    auth,
  );
}
