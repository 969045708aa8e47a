import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import { createGateway } from './gateway.ts';
import { resolveOptions } from './options.ts';
import type { SimulatorOptions } from './options.ts';
import { registerInspectRoutes } from './routes/inspect-routes.ts';
import { PAYMENT_PATH, registerPaymentRoutes } from './routes/payment-routes.ts';
import {
  QUERY_SERVICE_PATH,
  REST_SERVICE_PATH,
  registerServiceRoutes,
} from './routes/service-routes.ts';

export type { SimulatorMerchant, SimulatorOptions } from './options.ts';
export { DEFAULT_MERCHANT } from './options.ts';
export type { NotificationAttempt, NotificationRecord } from './notifier.ts';
export { CHALLENGE_CODE, TEST_CARDS } from './cards.ts';
export { DS_RESPONSE, REFUND_ERRORS, SIS_ERRORS } from './codes.ts';
export { PAYMENT_PATH, QUERY_SERVICE_PATH, REST_SERVICE_PATH };

// The gateway's pages load nothing from elsewhere and run no script. No form-action directive:
// Chromium applies it to the redirect after a form POST, which must reach the shop's UrlOK.
const PAGE_SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; frame-ancestors 'none'",
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

/**
 * The local Redsys simulator as a Fastify instance (not yet listening): tests `inject` into it,
 * server.ts listens. Speaks the redirection protocol of Redsys' real gateway:
 * POST /sis/realizarPago (signed form) -> card page -> [3DS challenge] -> signed notification to
 * Ds_Merchant_MerchantURL -> 302 to UrlOK/UrlKO; and its server-to-server services, the SOAP
 * query `consultaOperaciones` and REST refunds (routes/service-routes.ts).
 */
export function buildSimulator(options: SimulatorOptions = {}): FastifyInstance {
  const resolved = resolveOptions(options);
  const app = Fastify({ logger: options.logger ?? false });
  const gateway = createGateway(resolved, app.log);

  app.register(formbody);
  app.addHook('onSend', async (_request, reply, payload) => {
    if (String(reply.getHeader('content-type') ?? '').startsWith('text/html')) {
      reply.headers(PAGE_SECURITY_HEADERS);
    }
    return payload;
  });

  app.get('/health', async () => ({ ok: true }));
  registerPaymentRoutes(app, gateway, resolved.publicUrl);
  registerServiceRoutes(app, gateway);
  if (resolved.inspect) registerInspectRoutes(app, gateway);
  return app;
}
