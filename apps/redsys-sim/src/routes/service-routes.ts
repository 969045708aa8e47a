import type { FastifyInstance } from 'fastify';
import { QUERY_SERVICE_PATH, REST_SERVICE_PATH } from '@portal/redsys';
import type { Gateway } from '../gateway.ts';

export { QUERY_SERVICE_PATH, REST_SERVICE_PATH };

/** A query or refund request is well under 2 KB; anything much bigger is refused (413). */
const SERVICE_BODY_LIMIT = 64 * 1024;

/**
 * Redsys' server-to-server services, at Redsys' own paths and in its shapes, so the portal's one
 * gateway client serves the simulator and the real hosts alike:
 * - POST /apl02/services/SerClsWSConsulta: the SOAP query `consultaOperaciones` (text/xml);
 * - POST /sis/rest/trataPeticionREST: refunds (type 3) and merchant-initiated charges of a saved
 *   card (type 0, MIT), JSON.
 * Both always answer 200, with the outcome in the body, as Redsys does.
 */
export function registerServiceRoutes(app: FastifyInstance, gateway: Gateway) {
  app.register(async (soap) => {
    soap.addContentTypeParser(
      ['text/xml', 'application/xml', 'application/soap+xml'],
      { parseAs: 'string', bodyLimit: SERVICE_BODY_LIMIT },
      (_request, body, done) => done(null, body),
    );
    soap.post(QUERY_SERVICE_PATH, async (request, reply) =>
      reply
        .type('text/xml; charset=utf-8')
        .send(gateway.queryOperations(typeof request.body === 'string' ? request.body : '')),
    );
  });

  app.post(REST_SERVICE_PATH, { bodyLimit: SERVICE_BODY_LIMIT }, async (request) => {
    const body = request.body;
    const fields =
      typeof body === 'object' && body !== null && !Array.isArray(body)
        ? (body as Record<string, unknown>)
        : {};
    return gateway.restOperation(fields);
  });
}
