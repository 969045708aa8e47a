import swagger from '@fastify/swagger';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/**
 * The OpenAPI document is generated from the routes' zod schemas, which are the contract's: it
 * cannot drift from what the server validates. Served per tenant at `/{tenant}/api/1.0/openapi.json`.
 */
export default fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Oficina online API',
          version: '1.0',
          description:
            'Customer portal API. Every path starts with the tenant id. Amounts are numbers with two decimals in euros; dates are yyyymmdd strings.',
        },
        components: {
          securitySchemes: {
            bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
            apiKey: {
              type: 'http',
              scheme: 'bearer',
              bearerFormat: 'ptk_…',
              description:
                'A tenant API key, made with `npm run admin -- api-key create`. Only the provider integration calls (`/admin/...`) accept it.',
            },
          },
        },
      },
      transform: jsonSchemaTransform,
    });
  },
  { name: 'openapi' },
);
