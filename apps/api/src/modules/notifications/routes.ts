import { isNotificationLink, pageSize, routes } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../lib/route.ts';
import { createNotificationRepository } from './repository.ts';

/**
 * The notification inbox. Notifications are created by real events (payments, requests reviewed,
 * new invoices ingested): see the modules that insert them. Ids of someone else's notifications
 * are silently ignored: the counts say how many of the customer's own changed.
 */
export default async function notificationRoutes(app: FastifyInstance, ctx: AppContext) {
  const repository = createNotificationRepository();
  const auth = { preValidation: [ctx.requireCustomer] };

  route(
    app,
    routes.notifications,
    async ({ request, body }) => {
      const page = body.page ?? 1;
      const { rows, unread } = await ctx.db.withTenant(request.tenant.id, async (sql) => ({
        rows: await repository.list(sql, {
          customerId: request.customerId,
          filter: body.filter ?? 'all',
          limit: pageSize + 1,
          offset: (page - 1) * pageSize,
        }),
        unread: await repository.unread(sql, request.customerId),
      }));
      return {
        notifications: rows.slice(0, pageSize).map((n) => ({
          id: n.id,
          title: n.title,
          message: n.message,
          date: n.date,
          time: n.time,
          isRead: n.is_read,
          type: n.type,
          // A link stored before links.ts checked them is not passed on (nor followed by the app).
          link: isNotificationLink(n.link) ? n.link : null,
          params: n.params,
        })),
        has_more: rows.length > pageSize,
        unread,
      };
    },
    auth,
  );

  route(
    app,
    routes.unreadNotifications,
    async ({ request }) => ({
      unread: await ctx.db.readTenant(request.tenant.id, (sql) =>
        repository.unread(sql, request.customerId),
      ),
    }),
    auth,
  );

  route(
    app,
    routes.readNotifications,
    async ({ request, body }) => ({
      count: await ctx.db.withTenant(request.tenant.id, (sql) =>
        repository.markRead(sql, request.customerId, body.ids),
      ),
    }),
    auth,
  );

  route(
    app,
    routes.deleteNotifications,
    async ({ request, body }) => ({
      count: await ctx.db.withTenant(request.tenant.id, (sql) =>
        repository.remove(sql, request.customerId, body.ids),
      ),
    }),
    auth,
  );
}
