import { routes } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../lib/route.ts';
import { createContactService } from './service.ts';

export default async function contactRoutes(app: FastifyInstance, ctx: AppContext) {
  const service = createContactService(ctx);
  route(
    app,
    routes.contact,
    async ({ request, body }) => {
      const { id } = await service.send(
        { tenantId: request.tenant.id, customerId: request.customerId },
        body,
        request.log,
      );
      return { id, message: 'Message received' };
    },
    { preValidation: [ctx.requireCustomer] },
  );
}
