import { routes } from '@portal/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../lib/route.ts';
import { createNotificationInbox } from './service.ts';

/**
 * The notification inbox. Notifications are created by real events (payments, requests reviewed,
 * new invoices ingested) through `service.ts`, the table's only writer. Ids of someone else's notifications
 * are silently ignored: the counts say how many of the customer's own changed.
 */
export default async function notificationRoutes(app: FastifyInstance, ctx: AppContext) {
  const inbox = createNotificationInbox(ctx.db);
  const auth = { preValidation: [ctx.requireCustomer] };
  const actorOf = (request: FastifyRequest) => ({
    tenantId: request.tenant.id,
    customerId: request.customerId,
  });

  route(
    app,
    routes.notifications,
    async ({ request, body }) => inbox.list(actorOf(request), body),
    auth,
  );

  route(
    app,
    routes.unreadNotifications,
    async ({ request }) => ({ unread: await inbox.unread(actorOf(request)) }),
    auth,
  );

  route(
    app,
    routes.readNotifications,
    async ({ request, body }) => ({ count: await inbox.markRead(actorOf(request), body.ids) }),
    auth,
  );

  route(
    app,
    routes.deleteNotifications,
    async ({ request, body }) => ({ count: await inbox.remove(actorOf(request), body.ids) }),
    auth,
  );
}
