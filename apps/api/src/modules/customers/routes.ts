import { routes } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../lib/route.ts';
import { createCustomerService } from './service.ts';

export default async function customerRoutes(app: FastifyInstance, ctx: AppContext) {
  const service = createCustomerService(ctx.db);
  route(
    app,
    routes.userProfile,
    async ({ request, params }) =>
      // Someone else's id or code is a 404, exactly like an id that does not exist.
      service.ownProfile(
        { tenantId: request.tenant.id, customerId: request.customerId },
        params.id,
      ),
    { preValidation: [ctx.requireCustomer] },
  );
}
