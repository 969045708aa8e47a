import { findUnsafeInput } from '@portal/contract';
import fp from 'fastify-plugin';
import { FieldValidationError } from '../../lib/app-error.ts';

const sent = Symbol('input as sent');

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  interface FastifyRequest {
    [sent]?: { params: unknown; query: unknown; body: unknown };
  }
}

/**
 * The one check every call of the API gets, on top of its own schema: no NUL byte, control
 * character, lone surrogate, negative zero or unsafe integer anywhere in the path, the query string
 * or the body as the client sent them, unknown keys included (`@portal/contract` input-safety.ts).
 * The input is kept before the schema transforms it; the check runs after the credentials check
 * and the schema (401 before 422; the schema's own codes first) and before any handler touches the
 * database: such input is a 422 with the field's path and code, never a PostgreSQL error.
 */
export default fp(
  async (app) => {
    app.addHook('preValidation', async (request) => {
      request[sent] = { params: request.params, query: request.query, body: request.body };
    });
    app.addHook('preHandler', async (request) => {
      const input = request[sent] ?? request;
      const errors: Record<string, string[]> = {};
      for (const found of [
        findUnsafeInput(input.params, 'params'),
        findUnsafeInput(input.query, 'querystring'),
        // A body kept as bytes (the ingestion batches) is checked where it is parsed, on the
        // worker pool (modules/ingestion/parse-batch.ts): walking megabytes here byte by byte
        // would hold the event loop for seconds.
        findUnsafeInput(input.body instanceof Uint8Array ? undefined : input.body, 'body'),
      ])
        for (const [field, codes] of Object.entries(found))
          errors[field] = [...new Set([...(errors[field] ?? []), ...codes])];
      if (Object.keys(errors).length > 0) throw new FieldValidationError(errors);
    });
  },
  { name: 'input-guard' },
);
