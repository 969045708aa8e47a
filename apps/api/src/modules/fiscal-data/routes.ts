import { routes } from '@portal/contract';
import { fiscalDataAdminRoutes } from '@portal/contract/admin-fiscal-data';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../lib/route.ts';
import { createFiscalDecisionMailer } from './decision-mail.ts';
import { createFiscalDataService } from './service.ts';

/** Fiscal data requests: the customer's calls and the organisation's (tenant API key). */
export default async function fiscalDataRoutes(app: FastifyInstance, ctx: AppContext) {
  const service = createFiscalDataService({
    db: ctx.db,
    sendDecisionMail: createFiscalDecisionMailer(ctx.db, ctx.mailer),
    onBackgroundError: (error) => app.log.error({ err: error }, 'a fiscal data e-mail failed'),
  });
  const customer = { preValidation: [ctx.requireCustomer] };
  const actor = (request: { tenant: { id: string }; customerId: string }) => ({
    tenantId: request.tenant.id,
    customerId: request.customerId,
  });
  route(app, routes.fiscalDataRequests, ({ request }) => service.state(actor(request)), customer);
  route(
    app,
    routes.requestFiscalDataChange,
    ({ request, body }) => service.request(actor(request), body),
    customer,
  );
  route(
    app,
    routes.withdrawFiscalDataRequest,
    ({ request, params }) => service.withdraw(actor(request), params.id),
    customer,
  );
  route(
    app,
    routes.dismissFiscalDataDecision,
    ({ request, params }) => service.dismiss(actor(request), params.id),
    customer,
  );

  const provider = { onRequest: [ctx.requireApiKey] };
  route(
    app,
    fiscalDataAdminRoutes.listFiscalDataRequests,
    ({ request, query }) => service.list(request.tenant.id, query),
    provider,
  );
  route(
    app,
    fiscalDataAdminRoutes.decideFiscalDataRequest,
    ({ request, params, body }) => service.decide(request.tenant.id, params.id, body),
    provider,
  );
}
