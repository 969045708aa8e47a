import type { FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';

type SchemaController = NonNullable<FastifyServerOptions['schemaController']>;
type CompilersFactory = NonNullable<SchemaController['compilersFactory']>;

/**
 * Every schema is the contract's zod: Fastify's own JSON-schema compilers (ajv and
 * fast-json-stringify, a tenth of the start) are never loaded. The API's Fastify and the one that
 * writes the OpenAPI document (plugins/app/openapi.ts) both take it.
 */
export const zodSchemaController: SchemaController = {
  compilersFactory: {
    // Fastify types the factories after ajv's; at run time both take the route's schema.
    buildValidator: (() => validatorCompiler) as unknown as CompilersFactory['buildValidator'],
    buildSerializer: (() => serializerCompiler) as unknown as CompilersFactory['buildSerializer'],
  },
};

export { serializerCompiler, validatorCompiler };
