import {
  adminRoutes,
  fieldErrorCodes,
  findUnsafeInput,
  routes,
  type TAdminRouteName,
  ZErrorBody,
  ZValidationErrorBody,
  type TRouteDef,
  type TRouteName,
} from '@portal/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { adminUrlOf, urlOf, validAdminRequests, validRequests } from './contract-examples.ts';
import { engines } from './engines.ts';
import { fuzzTarget } from './fuzz-target.ts';

/** Values that break servers: wrong types, edge numbers, bad dates, injections, huge and deep. */
const nasty = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    false,
    0,
    -1,
    -0.01,
    0.001,
    1.234,
    1e308,
    -1e308,
    Number.MAX_SAFE_INTEGER + 2,
    '',
    '   ',
    '20250230',
    '20251301',
    '2025-01-01',
    '00000000',
    "' OR 1=1 --",
    "'; DROP TABLE invoices; --",
    '1; SELECT pg_sleep(10)',
    '${7*7}{{7*7}}',
    '<script>alert(1)</script>',
    '\u0000\u202e',
    'a\u0000',
    'x\u0001',
    '\ud800',
    'a\udc00b',
    2 ** 63,
    -(2 ** 63),
    '../../etc/passwd',
    'x'.repeat(70_000),
    [],
    [[[[[]]]]],
    {},
    { $gt: '' },
  ),
  fc.string({ maxLength: 80 }),
  fc.integer(),
  fc.double(),
  fc.array(fc.string({ maxLength: 10 }), { maxLength: 300 }),
  fc.constant(deep(500)),
);

function deep(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = { a: [value] };
  return value;
}

/** An own property even for `__proto__` (plain assignment would set the prototype instead). */
function withKey(target: Record<string, unknown>, key: string, value: unknown) {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    configurable: true,
    writable: true,
  });
  return target;
}

type Mutation =
  | { kind: 'drop'; key: string }
  | { kind: 'set'; key: string; value: unknown }
  | { kind: 'extra'; key: string; value: unknown }
  | { kind: 'replace'; value: unknown };

function mutations(keys: string[]): fc.Arbitrary<Mutation[]> {
  const key = fc.constantFrom(...keys);
  const one: fc.Arbitrary<Mutation> = fc.oneof(
    fc.record({ kind: fc.constant('drop' as const), key }),
    fc.record({ kind: fc.constant('set' as const), key, value: nasty }),
    fc.record({
      kind: fc.constant('extra' as const),
      key: fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'id'), fc.string()),
      value: nasty,
    }),
    fc.record({ kind: fc.constant('replace' as const), value: nasty }),
  );
  return fc.array(one, { minLength: 1, maxLength: 3 });
}

function apply(body: unknown, list: Mutation[]): unknown {
  let current: unknown = body;
  for (const m of list) {
    if (m.kind === 'replace') {
      current = m.value;
      continue;
    }
    const base =
      current && typeof current === 'object' && !Array.isArray(current)
        ? { ...(current as Record<string, unknown>) }
        : {};
    if (m.kind === 'drop') {
      const { [m.key]: _dropped, ...rest } = base;
      current = rest;
    } else current = withKey(base, m.key, m.value);
  }
  return current;
}

/**
 * The contract as an oracle: the call's own schema, and the rules every field of every call obeys
 * (no NUL, control character or lone surrogate, no unsafe number: `findUnsafeInput`).
 */
const accepts = (schema: z.ZodType | undefined, value: unknown, context: string) =>
  (schema?.safeParse(value).success ?? true) &&
  Object.keys(findUnsafeInput(value, context)).length === 0;

const shapeKeys = (schema: z.ZodType | undefined, example: object | undefined) => {
  const shape = (schema as unknown as { shape?: object } | undefined)?.shape ?? {};
  return [...new Set([...Object.keys(shape), ...Object.keys(example ?? {})])];
};

/**
 * Requests generated from the contract's own schemas: a valid request of each call, mutated
 * (fields dropped, set to wrong types, huge or deep values, impossible dates, negative or
 * fractional amounts, SQL fragments, `__proto__` and extra keys); the same schema says whether
 * the mutant is valid. Every invalid one must get exactly the documented answer: 422 with field
 * codes of the contract (400 when the JSON itself carries a prototype key), never a 5xx, never
 * anything internal, and nothing written.
 */
describe.each(engines())('requests generated from the contract on $name', (engine) => {
  const target = fuzzTarget(engine, 'fuzz test');

  const counts = () =>
    target.db.withOwner(async (sql) => {
      const rows = await sql.query<{ t: string; n: number }>(
        `SELECT 'paid' AS t, count(*)::int AS n FROM instalments WHERE status = 'paid'
         UNION ALL SELECT 'methods', count(*)::int FROM payment_methods
         UNION ALL SELECT 'methods_changed', count(*)::int FROM payment_methods WHERE deleted_at IS NOT NULL OR alias = 'x'
         UNION ALL SELECT 'attempts', count(*)::int FROM payment_attempts
         UNION ALL SELECT 'contact', count(*)::int FROM contact_messages
         UNION ALL SELECT 'notifications', count(*)::int FROM notifications
         UNION ALL SELECT 'read', count(*)::int FROM notifications WHERE read_at IS NOT NULL
         UNION ALL SELECT 'requests', count(*)::int FROM payment_method_requests
         UNION ALL SELECT 'resets', count(*)::int FROM password_resets
         UNION ALL SELECT 'sessions', count(*)::int FROM refresh_tokens
         UNION ALL SELECT 'customers', count(*)::int FROM customers
         UNION ALL SELECT 'invitations', count(*)::int FROM customer_invitations
         UNION ALL SELECT 'invoices', count(*)::int FROM invoices
         UNION ALL SELECT 'lines', count(*)::int FROM invoice_lines
         UNION ALL SELECT 'instalments', count(*)::int FROM instalments
         UNION ALL SELECT 'reviewed', count(*)::int FROM payment_method_requests WHERE status <> 'pending'
         UNION ALL SELECT 'webhooks', count(*)::int FROM webhook_endpoints
         UNION ALL SELECT 'events', count(*)::int FROM webhook_events`,
      );
      return Object.fromEntries(rows.map((r) => [r.t, r.n]));
    });

  const send = (
    name: TRouteName | TAdminRouteName,
    body: unknown,
    params?: Record<string, string>,
  ) =>
    target.app.inject({
      method: (name in routes ? routes[name as TRouteName] : adminRoutes[name as TAdminRouteName])
        .method,
      url:
        name in routes
          ? urlOf('demo', name as TRouteName, params)
          : adminUrlOf('demo', name as TAdminRouteName, params),
      headers: {
        authorization: `Bearer ${name in routes ? target.token : target.apiKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      remoteAddress: `10.4.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
    });

  function expectDocumentedRefusal(res: Awaited<ReturnType<typeof send>>, json: string) {
    const poisoned = /"(__proto__|constructor)"\s*:/.test(json);
    expect(res.statusCode, res.body.slice(0, 300)).toBeLessThan(500);
    expect(res.body).not.toMatch(/\bat [\w.<>]+ \(|node_modules|SELECT |INSERT |syntax error/i);
    if (res.statusCode === 422) {
      const body = ZValidationErrorBody.parse(res.json());
      const codes = Object.values(body.errors).flat();
      expect(codes.length).toBeGreaterThan(0);
      for (const code of codes) expect(fieldErrorCodes.has(code), code).toBe(true);
    } else {
      expect(ZErrorBody.parse(res.json()).code).toBe('bad_request');
      expect(res.statusCode, `${res.statusCode} ${res.body}`).toBe(400);
      // Only a body that is not JSON an object can be (prototype keys) is a 400 and not a 422.
      expect(poisoned || !json.startsWith('{'), json.slice(0, 200)).toBe(true);
    }
  }

  it('has a valid example of every call, accepted by its own schemas', () => {
    for (const name of Object.keys(routes) as TRouteName[]) {
      const example = validRequests[name];
      const def: TRouteDef = routes[name];
      if (def.body) expect(def.body.safeParse(example.body).success, name).toBe(true);
      if (def.params) expect(def.params.safeParse(example.params).success, name).toBe(true);
    }
  });

  it('has a valid example of every provider-integration call, accepted by its own schemas', () => {
    for (const name of Object.keys(adminRoutes) as TAdminRouteName[]) {
      const example = validAdminRequests[name];
      const def: TRouteDef = adminRoutes[name];
      if (def.body) expect(def.body.safeParse(example.body).success, name).toBe(true);
      if (def.params) expect(def.params.safeParse(example.params).success, name).toBe(true);
      if (def.querystring)
        expect(def.querystring.safeParse(example.query).success, name).toBe(true);
    }
  });

  const defOf = (name: TRouteName): TRouteDef => routes[name];
  const withBody = (Object.keys(routes) as TRouteName[]).filter((n) => defOf(n).body);
  // The provider's calls too: their examples name nothing, so even a valid mutant writes nothing.
  const adminWithBody = (Object.keys(adminRoutes) as TAdminRouteName[]).filter(
    (n) => (adminRoutes[n] as TRouteDef).body,
  );

  it.each([...withBody, ...adminWithBody].map((n) => [n]))(
    '%s: every invalid mutant gets the documented 422 (or 400), and nothing is written',
    async (name) => {
      const def = (
        name in routes ? routes[name as TRouteName] : adminRoutes[name as TAdminRouteName]
      ) as TRouteDef;
      const example =
        name in routes
          ? validRequests[name as TRouteName]
          : validAdminRequests[name as TAdminRouteName];
      const before = await counts();
      let tried = 0;
      await fc.assert(
        fc.asyncProperty(mutations(shapeKeys(def.body, example.body)), async (list) => {
          const body = apply(example.body, list);
          const json = JSON.stringify(body) ?? 'null';
          const sent = JSON.parse(json) as unknown;
          // The contract is the oracle: only mutants it refuses are sent here.
          fc.pre(!accepts(def.body, sent, 'body'));
          tried++;
          const res = await send(name, sent, example.params);
          expectDocumentedRefusal(res, json);
          if (res.statusCode === 400 && json.startsWith('{')) return;
          expect(res.statusCode, `${json.slice(0, 200)} -> ${res.body.slice(0, 200)}`).toBe(422);
        }),
        { numRuns: 40, seed: 9_2026, endOnFailure: true },
      );
      expect(tried).toBeGreaterThan(20);
      expect(await counts()).toEqual(before);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    },
  );

  const withParams = (Object.keys(routes) as TRouteName[]).filter((n) => defOf(n).params);

  it.each(withParams.filter((n) => routes[n].auth === 'bearer').map((n) => [n]))(
    '%s: a generated id is a 404 when the schema takes it, a 422 when not',
    async (name) => {
      const def = routes[name] as TRouteDef;
      const example = validRequests[name];
      const before = await counts();
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.string({ minLength: 1, maxLength: 80 }),
            fc.uuid(),
            fc.constantFrom(
              "' OR '1'='1",
              '..',
              '%00',
              '\u0000',
              'a\u0000b',
              'x\u001f',
              'x'.repeat(65),
              '1; DROP TABLE x',
            ),
          ),
          async (id) => {
            const valid = accepts(def.params, { id }, 'params');
            const res = await send(name, example.body, { id });
            expect(res.statusCode, res.body).toBeLessThan(500);
            // A path segment that is empty or a dot segment does not reach the route: 404 too.
            expect(res.statusCode, `${id} -> ${res.body}`).toBe(valid ? 404 : 422);
          },
        ),
        { numRuns: 40, seed: 9_2026 },
      );
      expect(await counts()).toEqual(before);
    },
  );

  it.each([
    [
      'an impossible date',
      'invoices',
      { datefrom: '20250230', dateto: '20251231', page: '1' },
      'datefrom',
      'invalid_date',
    ],
    [
      'a reversed range',
      'payments',
      { datefrom: '20251231', dateto: '20250101', page: '1' },
      'dateto',
      'invalid_range',
    ],
    ['a negative amount', 'initPayment', { amount: -5, payment_ids: ['x'] }, 'amount', 'too_small'],
    [
      'a fractional cent',
      'initPayment',
      { amount: 1.234, payment_ids: ['x'] },
      'amount',
      'invalid_format',
    ],
    [
      'an amount as text',
      'initPayment',
      { amount: '10', payment_ids: ['x'] },
      'amount',
      'invalid_type',
    ],
    [
      'a page zero',
      'invoices',
      { datefrom: '20250101', dateto: '20251231', page: '0' },
      'page',
      'too_small',
    ],
    ['a missing e-mail', 'login', { password: 'x' }, 'email', 'required'],
    [
      'a huge message',
      'contact',
      { ...validRequests.contact.body, message: 'x'.repeat(6000) },
      'message',
      'too_long',
    ],
  ] as const)('answers %s with 422 and the field code', async (_what, name, body, field, code) => {
    const res = await send(name, body);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json<{ errors: Record<string, string[]> }>().errors[field]).toContain(code);
  });

  it('answers a body over 1 MB with 413, malformed JSON with 400 and a wrong type with 415', async () => {
    const huge = await send('contact', {
      ...validRequests.contact.body,
      message: 'x'.repeat(1_100_000),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toEqual({ message: 'Payload too large', code: 'payload_too_large' });
    const malformed = await target.app.inject({
      method: 'POST',
      url: '/demo/api/1.0/invoices',
      headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' },
      payload: '{"datefrom": "2025',
    });
    expect(malformed.statusCode).toBe(400);
    const xml = await target.app.inject({
      method: 'POST',
      url: '/demo/api/1.0/invoices',
      headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/xml' },
      payload: '<invoices/>',
    });
    expect(xml.statusCode).toBe(415);
    expect(xml.json()).toEqual({
      message: 'Unsupported media type',
      code: 'unsupported_media_type',
    });
  });
});
