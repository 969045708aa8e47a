import type { SwaggerOptions } from '@fastify/swagger';
import Fastify, { type RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import {
  serializerCompiler,
  validatorCompiler,
  zodSchemaController,
} from '../../lib/zod-compilers.ts';

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  interface FastifyInstance {
    /** The OpenAPI document of every route registered after this plugin, written on first call. */
    openapiDocument(): Promise<unknown>;
  }
}

const swaggerOptions: SwaggerOptions = {
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
};

/** What @fastify/swagger reads of a route (lib/spec/openapi): the rest stays with the API. */
type RouteForDocument = Pick<RouteOptions, 'method' | 'url' | 'schema' | 'config' | 'constraints'>;

/**
 * The OpenAPI document is generated from the routes' zod schemas, which are the contract's: it
 * cannot drift from what the server validates. Served per tenant at `/{tenant}/api/1.0/openapi.json`.
 *
 * At start only the routes are noted (what they are, not a copy). @fastify/swagger and what it loads
 * (yaml, a JSON-schema resolver: about 90 files, 60-90 ms of every start, decision 043) load when
 * the document is first asked for: a Fastify of its own, never listening, takes the same routes
 * with @fastify/swagger registered first, exactly as the API registered it before, and writes the
 * document once.
 */
export default fp(
  async (app) => {
    const routes: RouteForDocument[] = [];
    app.addHook('onRoute', (route) => {
      // @fastify/swagger leaves out the HEAD routes Fastify adds beside each GET; so does the copy.
      if (route.method === 'HEAD') return;
      const { method, url, schema, config, constraints } = route;
      routes.push({ method, url, schema, config, constraints });
    });
    let document: Promise<unknown> | undefined;
    app.decorate('openapiDocument', () => {
      document ??= writeDocument(routes).catch((error: unknown) => {
        document = undefined;
        throw error;
      });
      return document;
    });
  },
  { name: 'openapi' },
);

async function writeDocument(routes: readonly RouteForDocument[]): Promise<unknown> {
  const { default: swagger } = await import('@fastify/swagger');
  const writer = Fastify({ logger: false, schemaController: zodSchemaController });
  writer.setValidatorCompiler(validatorCompiler);
  writer.setSerializerCompiler(serializerCompiler);
  await writer.register(swagger, swaggerOptions);
  const handler = async () => null;
  for (const route of routes) writer.route({ ...route, handler, exposeHeadRoute: false });
  await writer.ready();
  try {
    return writer.swagger();
  } finally {
    await writer.close();
  }
}
