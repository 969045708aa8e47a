import { routes } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../lib/route.ts';
import { createAutoPayService } from './service.ts';

/** Auto-pay with a saved card (issue 23, item 2): what it covers, and turning it on or off. */
export default async function autoPayRoutes(app: FastifyInstance, ctx: AppContext) {
  const service = createAutoPayService(ctx.db);
  const auth = { preValidation: [ctx.requireCustomer] };
  const actorOf = (request: { tenant: { id: string }; customerId: string }) => ({
    tenantId: request.tenant.id,
    customerId: request.customerId,
  });
  route(app, routes.autoPay, ({ request }) => service.summary(actorOf(request)), auth);
  route(
    app,
    routes.setAutoPay,
    ({ request, params, body }) => service.setCard(actorOf(request), params.id, body.enabled),
    auth,
  );
}
