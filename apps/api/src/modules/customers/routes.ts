import { routes } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../lib/app-error.ts';
import { route } from '../../lib/route.ts';
import { createCustomerRepository } from './repository.ts';

export default async function customerRoutes(app: FastifyInstance, ctx: AppContext) {
  const repository = createCustomerRepository();
  route(
    app,
    routes.userProfile,
    async ({ request, params }) => {
      // Someone else's id or code is a 404, exactly like an id that does not exist.
      const profile = await ctx.db.readTenant(request.tenant.id, (sql) =>
        repository.findOwnProfile(sql, request.customerId, params.id),
      );
      if (!profile) throw notFound('Customer');
      return profile;
    },
    { preValidation: [ctx.requireCustomer] },
  );
}
