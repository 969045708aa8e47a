import { routes } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../lib/route.ts';
import { createPaymentMethodService } from './service.ts';

export default async function paymentMethodRoutes(app: FastifyInstance, ctx: AppContext) {
  const service = createPaymentMethodService(ctx.db);
  const auth = { preValidation: [ctx.requireCustomer] };
  const actorOf = (request: { tenant: { id: string }; customerId: string }) => ({
    tenantId: request.tenant.id,
    customerId: request.customerId,
  });
  route(app, routes.paymentMethods, ({ request }) => service.list(actorOf(request)), auth);
  route(
    app,
    routes.bankTransferInfo,
    ({ request }) => service.transferInfo(actorOf(request)),
    auth,
  );
  route(
    app,
    routes.addBankAccount,
    ({ request, body }) =>
      service.addBankAccount(actorOf(request), body, {
        // The signature's evidence: the client's address as the app resolves it (TRUST_PROXY).
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      }),
    auth,
  );
  route(
    app,
    routes.signBankAccountMandate,
    ({ request, params, body }) =>
      service.signMandate(actorOf(request), params.id, body, {
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      }),
    auth,
  );
  route(
    app,
    routes.updatePaymentMethod,
    ({ request, params, body }) => service.update(actorOf(request), params.id, body),
    auth,
  );
  route(
    app,
    routes.deletePaymentMethod,
    ({ request, params }) => service.remove(actorOf(request), params.id),
    auth,
  );
  route(
    app,
    routes.requestMainMethod,
    ({ request, params }) => service.request(actorOf(request), params.id, 'main_change'),
    auth,
  );
  route(
    app,
    routes.requestVerification,
    ({ request, params }) => service.request(actorOf(request), params.id, 'verification'),
    auth,
  );
}
