import { findUnsafeInput } from '@portal/contract';
import { ingestionRoutes } from '@portal/contract/admin-ingestion';
import secureJson from 'secure-json-parse';
import type { z } from 'zod';

/** A schema issue as fastify-type-provider-zod reports it (the error handler words it the same). */
export type SchemaIssue = { instancePath: string; keyword: string; message: string };

export type Parsed<T> =
  | { kind: 'malformed' }
  | { kind: 'invalid'; issues: SchemaIssue[] }
  /** Valid by the schema, but holding what no call takes (input-safety.ts): field -> codes. */
  | { kind: 'unsafe'; errors: Record<string, string[]> }
  | { kind: 'valid'; data: T };

/** The batch calls whose bodies are parsed and validated on the heavy-work pool. */
export const batchCalls = [
  'ingestCustomers',
  'changeInstalmentStatus',
  'ingestNotifications',
] as const;
export type BatchCall = (typeof batchCalls)[number];
export type BatchBody<N extends BatchCall> = z.output<(typeof ingestionRoutes)[N]['body']>;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A request body as Fastify's JSON parser and the route's validator would take it: the JSON bytes
 * as they came (decoded here too: 3 MB of UTF-8 is ~5 ms), parsed as Fastify parses (a
 * `__proto__` or `constructor` key is malformed, a 400), then the contract's schema. Anything else
 * (no body at all) is validated as it is.
 */
export function parseBody<T>(body: unknown, schema: z.ZodType<T>): Parsed<T> {
  let json: unknown = body;
  if (typeof body === 'string' || body instanceof Uint8Array) {
    try {
      // Bytes that are not UTF-8 (a Latin-1 export) are malformed: decoded leniently they became
      // U+FFFD, so `REV-é` and `REV-è` were one invoice id and "Ramón" was stored "Ram�n", with a
      // 200 (session 37).
      const text = typeof body === 'string' ? body : strictUtf8.decode(body);
      json = secureJson.parse(text, null, { protoAction: 'error', constructorAction: 'error' });
    } catch {
      return { kind: 'malformed' };
    }
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) {
    // The input guard every other call gets (plugins/app/input-guard.ts) sees only these bytes:
    // the same rule runs here, on the body as sent, after the schema's own codes.
    const unsafe = findUnsafeInput(json, 'body');
    if (Object.keys(unsafe).length > 0) return { kind: 'unsafe', errors: unsafe };
    return { kind: 'valid', data: parsed.data };
  }
  return {
    kind: 'invalid',
    issues: parsed.error.issues.map((issue) => ({
      instancePath: `/${issue.path.join('/')}`,
      keyword: issue.code,
      message: issue.message,
    })),
  };
}

/**
 * A batch of up to 10,000 customers, instalment states or notifications parsed and validated on
 * the heavy-work pool (~100-200 ms of CPU that held the event loop); the data comes back by
 * structured clone.
 */
export function parseBatch<N extends BatchCall>(name: N, body: unknown): Parsed<BatchBody<N>> {
  // The schema of call N gives BatchBody<N>; TypeScript does not follow the index to prove it.
  const schema = ingestionRoutes[name].body as unknown as z.ZodType<BatchBody<N>>;
  return parseBody(body, schema);
}
