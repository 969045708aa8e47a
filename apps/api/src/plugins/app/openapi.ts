import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { SwaggerOptions } from '@fastify/swagger';
import Fastify, { type FastifyReply, type FastifyRequest, type RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import Negotiator from 'negotiator';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import {
  serializerCompiler,
  validatorCompiler,
  zodSchemaController,
} from '../../lib/zod-compilers.ts';

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  interface FastifyInstance {
    /**
     * Answers with the OpenAPI document of every route registered after this plugin: written on
     * the first request, then sent as stored bytes (identity, gzip or br) with an ETag.
     */
    sendOpenapiDocument(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>;
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
 *
 * Anyone may ask for it, unauthenticated, and it is 1.2 MB of JSON: serialised on every request
 * it took ~30 ms of the event loop each time, which every tenant's requests waited behind. It is
 * serialised and compressed once (br 16 KB, gzip 28 KB; the compression off the event loop, in
 * zlib's threads) and each request sends those bytes, or a 304 for the ETag it already has.
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
    let stored: Promise<StoredDocument> | undefined;
    const document = () =>
      (stored ??= writeDocument(routes)
        .then(storeDocument)
        .catch((error: unknown) => {
          stored = undefined;
          throw error;
        }));
    app.decorate('sendOpenapiDocument', async (request: FastifyRequest, reply: FastifyReply) => {
      const doc = await document();
      const encoding = preferredEncoding(request.headers['accept-encoding']);
      const etag = `"${doc.hash}-${encoding}"`;
      void reply
        .header('cache-control', 'no-cache')
        .header('vary', 'accept-encoding')
        .header('etag', etag);
      if (ifNoneMatch(request.headers['if-none-match'], etag)) return reply.status(304).send();
      if (encoding !== 'identity') void reply.header('content-encoding', encoding);
      return reply.type('application/json; charset=utf-8').send(doc[encoding]);
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

type Encoding = 'br' | 'gzip' | 'identity';
type StoredDocument = Record<Encoding, Buffer> & { hash: string };

async function storeDocument(document: unknown): Promise<StoredDocument> {
  const identity = Buffer.from(JSON.stringify(document));
  const [br, gz] = await Promise.all([
    promisify(brotliCompress)(identity, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length },
    }),
    promisify(gzip)(identity, { level: 9 }),
  ]);
  const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 22);
  return { identity, br, gzip: gz, hash };
}

const encodings: readonly Encoding[] = ['br', 'gzip', 'identity'];

/** The client's preferred of br, gzip and identity (Accept-Encoding, by its q-values). */
function preferredEncoding(acceptEncoding: string | undefined): Encoding {
  const [first] = new Negotiator({
    headers: { 'accept-encoding': acceptEncoding ?? '' },
  }).encodings([...encodings]);
  return encodings.find((encoding) => encoding === first) ?? 'identity';
}

/** Whether If-None-Match names this ETag (or is `*`), weak or strong. */
function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*');
}
