import { returnedDebitRoutes as defs } from '@portal/contract/admin-returned-debits';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../lib/route.ts';
import { createReturnedDebitService } from './service.ts';

/** The provider reports returned direct debits (docs/ingestion.md), with a tenant API key. */
export default async function returnedDebitRoutes(app: FastifyInstance, ctx: AppContext) {
  const service = createReturnedDebitService({ db: ctx.db, mailer: ctx.mailer, log: app.log });
  route(
    app,
    defs.reportReturnedDebits,
    ({ request, body }) => service.report(request.tenant.id, body.returns),
    { onRequest: [ctx.requireApiKey] },
  );
}
