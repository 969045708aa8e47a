import {
  adminRoutes,
  fieldErrorCodes,
  routes,
  type TAdminRouteName,
  ZValidationErrorBody,
  type TRouteDef,
  type TRouteName,
} from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { adminUrlOf, urlOf, validAdminRequests, validRequests } from './contract-examples.ts';
import { engines } from './engines.ts';
import { fuzzTarget } from './fuzz-target.ts';
import { dumpTables } from './table-dump.ts';

// The poison half of the contract fuzz tests (fuzz-contract.test.ts), a file of its own so that
// the test workers share the two halves instead of one worker running both in a row.

/** Walks every leaf of a JSON value: the path of each string, number, boolean and null. */
function leafPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => leafPaths(v, [...path, i]));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => leafPaths(v, [...path, k]));
  return [path];
}

function setAt(value: unknown, path: (string | number)[], leaf: unknown): unknown {
  if (path.length === 0) return leaf;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<
    string | number,
    unknown
  >;
  copy[head] = setAt(copy[head], rest, leaf);
  return copy;
}

/**
 * Values no field of any call may take, whatever its type: a NUL byte (PostgreSQL refuses it in
 * text, 22021, and in jsonb, 22P05), other control characters, lone UTF-16 surrogates (not text at
 * all), strings longer than any field, numbers beyond any column (1e308, 2^63, unsafe integers)
 * and a negative zero.
 */
const poison: readonly unknown[] = [
  '\u0000',
  'a\u0000b',
  'x\u0001',
  '\ud800',
  'a\udc00b',
  'x'.repeat(70_000),
  1e308,
  -1e308,
  2 ** 63,
  -(2 ** 63),
  Number.MAX_SAFE_INTEGER + 2,
  -0,
];

/** Values some fields may take: each must still be a 4xx or a success, never a 5xx. */
const edges: readonly unknown[] = [
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53,
  1e21,
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '1e308',
  '9'.repeat(40),
  '-1',
];

/** A valid string with each poison string at its end: it passes every pattern that ends in `+$`. */
function embedded(original: unknown, values: readonly unknown[]): string[] {
  if (typeof original !== 'string') return [];
  return values
    .filter((v): v is string => typeof v === 'string' && v.length < 10)
    .map((v) => `${original}${v}`);
}

/** JSON text of a request body, where a negative zero stays one (JSON.stringify writes `0`). */
function jsonOf(body: unknown): string {
  const marker = '"\\u0000-0-marker"';
  return JSON.stringify(body, (_k, v: unknown) =>
    Object.is(v, -0) ? '\u0000-0-marker' : v,
  ).replaceAll(marker, '-0');
}

type Poisoned = { where: string; method: string; url: string; body?: unknown };

/** Every request of a call with one field (of the body, the path or the query) poisoned. */
function poisonedRequests(
  def: { method: string },
  example: { params?: Record<string, string>; body?: object; query?: Record<string, string> },
  urlFor: (params?: Record<string, string>, query?: Record<string, string>) => string,
  values: readonly unknown[],
): Poisoned[] {
  const out: Poisoned[] = [];
  const base = { method: def.method, body: example.body };
  for (const path of example.body ? leafPaths(example.body) : []) {
    const original = path.reduce<unknown>(
      (v, k) => (v as Record<string | number, unknown>)[k],
      example.body,
    );
    for (const value of [...values, ...embedded(original, values)])
      out.push({
        ...base,
        where: `body.${path.join('.')}=${JSON.stringify(value)?.slice(0, 20)}`,
        url: urlFor(),
        body: setAt(example.body, path, value),
      });
  }
  for (const [part, record] of [
    ['params', example.params],
    ['query', example.query],
  ] as const) {
    for (const key of Object.keys(record ?? {}))
      for (const value of [...values, ...embedded(record?.[key], values)]) {
        const text = String(Object.is(value, -0) ? '-0' : value);
        const changed = { ...record, [key]: text };
        out.push({
          ...base,
          where: `${part}.${key}=${JSON.stringify(text).slice(0, 20)}`,
          url: part === 'params' ? urlFor(changed, example.query) : urlFor(example.params, changed),
        });
      }
  }
  return out;
}

/**
 * Poison in every field of every call, customer and provider-integration alike: each value goes
 * into each field of a valid request in turn. A poison value is always a documented 4xx and
 * writes nothing; an edge value may be valid, but is never a 5xx.
 */
describe.each(engines())('poison values in every field on $name', (engine) => {
  const target = fuzzTarget(engine, 'poison test');

  // Every table of the schema: a refused call writes to none of them. The integration's first call
  // authenticates with its API key, refused or not: the key's last use (what an operator reads to
  // find keys nobody uses) is the one thing it may set.
  const snapshot = () =>
    target.db.withOwner((sql) => dumpTables(sql, { api_keys: ['last_used_at'] }));

  const calls = [
    ...(Object.keys(routes) as TRouteName[]).map((name) => ({
      name: name as string,
      def: routes[name] as TRouteDef,
      example: validRequests[name],
      urlFor: (params?: Record<string, string>) => urlOf('demo', name, params),
      admin: false,
    })),
    ...(Object.keys(adminRoutes) as TAdminRouteName[]).map((name) => ({
      name: name as string,
      def: adminRoutes[name] as TRouteDef,
      example: validAdminRequests[name],
      urlFor: (params?: Record<string, string>, query?: Record<string, string>) =>
        adminUrlOf('demo', name, params, query),
      admin: true,
    })),
  ].filter((c) => c.example.body || c.example.params || 'query' in c.example);

  const send = (call: (typeof calls)[number], req: Poisoned) =>
    target.app.inject({
      method: req.method as 'GET',
      url: req.url,
      headers: {
        authorization: `Bearer ${call.admin ? target.apiKey : target.token}`,
        ...(req.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(req.body === undefined ? {} : { payload: jsonOf(req.body) }),
      remoteAddress: `10.5.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
    });

  it.each(calls.map((c) => [c.name, c]))(
    '%s: a poison value in any field is a 4xx with a field code and writes nothing',
    async (_name, call) => {
      const before = await snapshot();
      const failures: string[] = [];
      for (const req of poisonedRequests(call.def, call.example, call.urlFor, poison)) {
        const res = await send(call, req);
        const ok =
          res.statusCode === 422
            ? Object.values(ZValidationErrorBody.parse(res.json()).errors)
                .flat()
                .every((code) => fieldErrorCodes.has(code))
            : res.statusCode === 400 || res.statusCode === 404;
        if (!ok) failures.push(`${req.where} -> ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
      // Work the server does after answering (the forgot-password lookup) runs before the check.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(failures).toEqual([]);
      expect(await snapshot()).toEqual(before);
    },
  );

  it.each(calls.map((c) => [c.name, c]))(
    '%s: an edge value in any field is never a 5xx',
    async (_name, call) => {
      const failures: string[] = [];
      for (const req of poisonedRequests(call.def, call.example, call.urlFor, edges)) {
        const res = await send(call, req);
        if (res.statusCode >= 500)
          failures.push(`${req.where} -> ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
      expect(failures).toEqual([]);
    },
  );
});
