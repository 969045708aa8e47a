import type { FastifyServerOptions } from 'fastify';
import { ResponseSerializationError, validatorCompiler } from 'fastify-type-provider-zod';
import { safeEncode, safeParse, type $ZodType } from 'zod/v4/core';

type SchemaController = NonNullable<FastifyServerOptions['schemaController']>;
type CompilersFactory = NonNullable<SchemaController['compilersFactory']>;

/** The parts of a zod schema's definition the walk below reads (zod 4 core). */
type Def = {
  type: string;
  shape?: Record<string, $ZodType>;
  catchall?: $ZodType;
  element?: $ZodType;
  innerType?: $ZodType;
  options?: readonly $ZodType[];
  left?: $ZodType;
  right?: $ZodType;
  keyType?: $ZodType;
  valueType?: $ZodType;
  items?: readonly $ZodType[];
  rest?: $ZodType | null;
};

/** Kinds whose value is checked, never changed, in either direction. */
const leaves = new Set([
  'string',
  'number',
  'int',
  'boolean',
  'bigint',
  'null',
  'undefined',
  'void',
  'never',
  'any', // zod's kind name for z.any() (a string, not the TypeScript type)
  'unknown',
  'enum',
  'literal',
  'nan',
  'template_literal',
  'custom',
]);

/**
 * Whether reading a value through `schema` gives the same answer forwards (parse) and backwards
 * (encode): no transform, pipe or codec, default, prefault or catch anywhere in it. A kind this
 * walk does not know (a lazy schema, a map) counts as two-way, so it keeps zod's encode.
 */
export function readsTheSameBothWays(schema: $ZodType): boolean {
  const def = schema._zod.def as Def;
  if (leaves.has(def.type)) return true;
  const all = (list: readonly ($ZodType | null | undefined)[]) =>
    list.every((s) => s == null || readsTheSameBothWays(s));
  switch (def.type) {
    case 'object':
      return all([...Object.values(def.shape ?? {}), def.catchall]);
    case 'array':
      return all([def.element]);
    case 'optional':
    case 'nullable':
    case 'nonoptional':
    case 'readonly':
      return all([def.innerType]);
    case 'union':
      return all(def.options ?? []);
    case 'intersection':
      return all([def.left, def.right]);
    case 'record':
      return all([def.keyType, def.valueType]);
    case 'tuple':
      return all([...(def.items ?? []), def.rest]);
    default:
      return false;
  }
}

/** Fastify gives a response schema as the schema itself or wrapped as `{ properties }`. */
function schemaOf(maybe: unknown): $ZodType {
  const wrapped = (maybe as { properties?: unknown }).properties;
  return (wrapped ?? maybe) as $ZodType;
}

/**
 * Every answer is checked against its contract schema before it is written. zod 4's `encode` (what
 * fastify-type-provider-zod calls) checks each schema twice in its backward direction, a first pass
 * without checks and then with them: 9-12 µs for the twenty invoices of a `/invoices` page against
 * 1.1-1.5 µs for `parse` on this machine (session 36). For a schema with nothing that reads
 * differently by direction, both give the same value and the same issues, so it is parsed; any
 * other keeps `encode`.
 */
export function serializerCompiler({
  schema: maybe,
  method,
  url,
}: {
  schema: unknown;
  method: string;
  url: string;
}): (data: unknown) => string {
  const schema = schemaOf(maybe);
  const check = readsTheSameBothWays(schema) ? safeParse : safeEncode;
  return (data) => {
    const result = check(schema, data);
    if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
}

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

export { validatorCompiler };
