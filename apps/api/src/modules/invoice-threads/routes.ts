import { routes } from '@portal/contract';
import { invoiceThreadAdminRoutes } from '@portal/contract/admin-invoice-threads';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../lib/route.ts';
import { createInvoiceThreadService } from './service.ts';

/** "Ask about this invoice" (issue 23, item 7): the customer's calls and the organisation's. */
export default async function invoiceThreadRoutes(app: FastifyInstance, ctx: AppContext) {
  const service = createInvoiceThreadService(ctx);
  const customer = { preValidation: [ctx.requireCustomer] };
  const actorOf = (request: { tenant: { id: string }; customerId: string }) => ({
    tenantId: request.tenant.id,
    customerId: request.customerId,
  });
  route(
    app,
    routes.invoiceThreads,
    ({ request, body }) => service.list(actorOf(request), body),
    customer,
  );
  route(
    app,
    routes.openInvoiceThread,
    ({ request, body }) => service.open(actorOf(request), body),
    customer,
  );
  route(
    app,
    routes.unreadInvoiceThreads,
    async ({ request }) => ({ unread: await service.unread(actorOf(request)) }),
    customer,
  );
  route(
    app,
    routes.invoiceThread,
    ({ request, params }) => service.get(actorOf(request), params.id),
    customer,
  );
  route(
    app,
    routes.replyInvoiceThread,
    ({ request, params, body }) => service.reply(actorOf(request), params.id, body.message),
    customer,
  );

  // The provider's integration API (tenant API key).
  const apiKey = { onRequest: [ctx.requireApiKey] };
  route(
    app,
    invoiceThreadAdminRoutes.listInvoiceThreads,
    ({ request, query }) => service.listForAdmin(request.tenant.id, query),
    apiKey,
  );
  route(
    app,
    invoiceThreadAdminRoutes.listInvoiceThreadMessages,
    ({ request, query }) => service.messagesForAdmin(request.tenant.id, query),
    apiKey,
  );
  route(
    app,
    invoiceThreadAdminRoutes.answerInvoiceThread,
    ({ request, params, body }) => service.answer(request.tenant.id, params.id, body, request.log),
    apiKey,
  );
  route(
    app,
    invoiceThreadAdminRoutes.readInvoiceThread,
    ({ request, params }) => service.markReadByOrganisation(request.tenant.id, params.id),
    apiKey,
  );
  route(
    app,
    invoiceThreadAdminRoutes.closeInvoiceThread,
    ({ request, params }) => service.close(request.tenant.id, params.id),
    apiKey,
  );
}
