import { ZErrorBody, ZTenantParams, ZValidationErrorBody, type TRouteDef } from '@portal/contract';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  preValidationHookHandler,
} from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';

/** Error answers every route may give, documented in the OpenAPI document. */
const errorResponses = {
  400: ZErrorBody,
  401: ZErrorBody,
  403: ZErrorBody,
  404: ZErrorBody,
  409: ZErrorBody,
  413: ZErrorBody,
  415: ZErrorBody,
  422: ZValidationErrorBody,
  429: ZErrorBody,
  500: ZErrorBody,
  503: ZErrorBody,
};

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

export type RouteInput<R extends TRouteDef> = {
  request: FastifyRequest;
  reply: FastifyReply;
  body: Output<R['body']>;
  params: Output<R['params']>;
  query: Output<R['querystring']>;
};

/**
 * Registers one call of the contract: its method, path, params, body and response schemas come
 * from `@portal/contract`, so the server validates every request and every response with the
 * same schemas the web app is typed with.
 */
export function route<R extends TRouteDef>(
  app: FastifyInstance,
  def: R,
  handler: (input: RouteInput<R>) => Promise<z.input<R['response']>>,
  options: {
    /**
     * Checks that run before the body is even read: the provider's API key, so that a caller
     * without one gets the 401 whatever it sent (docs/ingestion.md), never a 400 about the body.
     */
    onRequest?: onRequestHookHandler[];
    /**
     * Checks that run before the request is validated: the bearer check, so that a caller without
     * a valid token learns nothing of what a valid body looks like (401 before any 422).
     */
    preValidation?: preValidationHookHandler[];
    config?: Record<string, unknown>;
    /**
     * The body is not validated here: the handler gets it as the parser left it (a JSON text, for
     * a batch parsed and validated off the event loop) and validates it itself against `def.body`,
     * which still documents it.
     */
    validateBody?: false;
  } = {},
): void {
  const params = def.params
    ? ZTenantParams.extend((def.params as z.ZodObject).shape)
    : ZTenantParams;
  app.route({
    method: def.method,
    url: def.path,
    config: options.config ?? {},
    ...(def.bodyLimit ? { bodyLimit: def.bodyLimit } : {}),
    schema: {
      summary: def.summary,
      params,
      ...(def.querystring ? { querystring: def.querystring } : {}),
      ...(def.body ? { body: def.body } : {}),
      response: { [def.status ?? 200]: def.response, ...errorResponses },
      ...(def.auth === 'bearer' ? { security: [{ bearer: [] }] } : {}),
      ...(def.auth === 'apiKey' ? { security: [{ apiKey: [] }], tags: ['admin'] } : {}),
    },
    onRequest: options.onRequest ?? [],
    preValidation: options.preValidation ?? [],
    ...(options.validateBody === false
      ? {
          validatorCompiler: (input: { schema: unknown; httpPart?: string }) =>
            input.httpPart === 'body'
              ? (data: unknown) => ({ value: data })
              : validatorCompiler(input as Parameters<typeof validatorCompiler>[0]),
        }
      : {}),
    async handler(request, reply) {
      const result = await handler({
        request,
        reply,
        body: request.body as Output<R['body']>,
        params: request.params as Output<R['params']>,
        query: request.query as Output<R['querystring']>,
      });
      return reply.status(def.status ?? 200).send(result);
    },
  });
}
