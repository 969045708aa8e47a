import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../gateway.ts';

/**
 * Test-only windows into the simulator (option `inspect`): the notifications it sent with every
 * delivery attempt, a way to send one again (Redsys retries), and a reset between tests.
 */
export function registerInspectRoutes(app: FastifyInstance, gateway: Gateway) {
  app.get<{ Querystring: { order?: string } }>(
    '/__sim/notifications',
    { schema: { querystring: { type: 'object', properties: { order: { type: 'string' } } } } },
    async (request) => ({ notifications: gateway.listNotifications(request.query.order) }),
  );

  // The merchant-initiated charges answered (auto-pay tests count them).
  app.get('/__sim/mit-charges', async () => ({ charges: gateway.listMitCharges() }));

  app.delete('/__sim/notifications', async (_request, reply) => {
    gateway.clearNotifications();
    return reply.code(204).send();
  });

  app.post<{ Params: { order: string } }>(
    '/__sim/notifications/:order/resend',
    async (request, reply) => {
      const record = await gateway.resendNotification(request.params.order);
      if (!record) return reply.code(404).send({ error: 'NO_NOTIFICATION_FOR_ORDER' });
      return record;
    },
  );
}
