import { routes } from '@portal/contract';
import { ingestionRoutes } from '@portal/contract/admin-ingestion';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../lib/route.ts';
import { createCustomerService } from './service.ts';

export default async function customerRoutes(app: FastifyInstance, ctx: AppContext) {
  const service = createCustomerService(ctx.db);
  const customer = { preValidation: [ctx.requireCustomer] };
  route(
    app,
    routes.userProfile,
    async ({ request, params }) =>
      // Someone else's id or code is a 404, exactly like an id that does not exist.
      service.ownProfile(
        { tenantId: request.tenant.id, customerId: request.customerId },
        params.id,
      ),
    customer,
  );
  route(
    app,
    routes.updateContactData,
    async ({ request, body }) =>
      service.updateContactData(
        { tenantId: request.tenant.id, customerId: request.customerId },
        body,
      ),
    customer,
  );
  // The provider's integration API (tenant API key): the same changes, to read.
  route(
    app,
    ingestionRoutes.listContactChanges,
    ({ request, query }) => service.listContactChanges(request.tenant.id, query),
    { onRequest: [ctx.requireApiKey] },
  );
}
