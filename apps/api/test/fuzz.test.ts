import { adminRoutes, routes, type TRouteDef } from '@portal/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { engines } from './engines.ts';
import { fuzzTarget } from './fuzz-target.ts';

/** Values that have broken servers before: wrong types, edge numbers, injections, prototypes. */
const nasty = fc.oneof(
  fc.constantFrom(
    null,
    true,
    0,
    -1,
    -0.01,
    1e308,
    Number.MAX_SAFE_INTEGER,
    1.2345,
    '',
    ' ',
    '20250230',
    '00000000',
    '99999999',
    "' OR 1=1 --",
    "'; DROP TABLE invoices; --",
    '${7*7}',
    '<script>alert(1)</script>',
    '\u0000',
    'a\u0000b',
    'x\u0001',
    '\ud800',
    'a\udc00b',
    -1e308,
    2 ** 63,
    -(2 ** 63),
    Number.MAX_SAFE_INTEGER + 2,
    '../../etc/passwd',
    'x'.repeat(100_000),
    [],
    {},
    { __proto__: { admin: true } },
    JSON.parse('{"__proto__": {"polluted": true}}'),
    { constructor: { prototype: { polluted: true } } },
  ),
  fc.string({ maxLength: 300 }),
  fc.integer(),
  fc.double({ noNaN: false }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** A body: some fields of the route's schema (or random keys) with nasty values, maybe deep JSON. */
function bodyFor(def: TRouteDef) {
  const shape =
    def.body && 'shape' in def.body
      ? Object.keys((def.body as unknown as { shape: object }).shape)
      : [];
  const keys = fc.constantFrom(
    ...(shape.length ? shape : ['x']),
    '__proto__',
    'constructor',
    'extra',
  );
  return fc.oneof(fc.dictionary(keys, nasty, { maxKeys: 8 }), nasty, fc.constant(deepJson(200)));
}

function deepJson(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

/**
 * Every call of the contract, hammered with generated bad input: never a 500, never a stack trace
 * or SQL in the answer, always a documented 4xx shape, and nothing written.
 */
describe.each(engines())('bad input at scale on $name', (engine) => {
  const target = fuzzTarget(engine, 'fuzz test');

  const counts = () =>
    target.db.withOwner(async (sql) => {
      const rows = await sql.query<{ t: string; n: number }>(
        `SELECT 'instalments_paid' AS t, count(*)::int AS n FROM instalments WHERE status = 'paid'
         UNION ALL SELECT 'methods', count(*)::int FROM payment_methods WHERE deleted_at IS NULL
         UNION ALL SELECT 'attempts', count(*)::int FROM payment_attempts
         UNION ALL SELECT 'contact', count(*)::int FROM contact_messages
         UNION ALL SELECT 'notifications', count(*)::int FROM notifications
         UNION ALL SELECT 'read', count(*)::int FROM notifications WHERE read_at IS NOT NULL
         UNION ALL SELECT 'requests', count(*)::int FROM payment_method_requests
         UNION ALL SELECT 'resets', count(*)::int FROM password_resets
         UNION ALL SELECT 'customers', count(*)::int FROM customers
         UNION ALL SELECT 'invitations', count(*)::int FROM customer_invitations
         UNION ALL SELECT 'invoices', count(*)::int FROM invoices
         UNION ALL SELECT 'instalments', count(*)::int FROM instalments
         UNION ALL SELECT 'reviewed', count(*)::int FROM payment_method_requests WHERE status <> 'pending'
         UNION ALL SELECT 'webhooks', count(*)::int FROM webhook_endpoints`,
      );
      return Object.fromEntries(rows.map((r) => [r.t, r.n]));
    });

  // The customer calls and the provider's (`/admin/...`, with the tenant's API key).
  const withBody = Object.entries({ ...routes, ...adminRoutes }).filter(
    ([, def]) => (def as TRouteDef).body,
  ) as [string, TRouteDef][];

  // Every field of these is optional: a generated object may be a valid request that writes.
  const validForAnyObject = new Set(['addCard']);

  it.each(withBody)(
    '%s never answers 5xx to generated bad bodies and writes nothing',
    async (name, def) => {
      const before = await counts();
      await fc.assert(
        fc.asyncProperty(bodyFor(def), fc.boolean(), async (body, raw) => {
          const path = def.path.replace(/:(\w+)/g, '00000000-0000-4000-8000-000000000000');
          const res = await target.app.inject({
            method: def.method,
            url: `/demo/api/1.0${path}`,
            headers: {
              authorization: `Bearer ${def.auth === 'apiKey' ? target.apiKey : target.token}`,
              'content-type': 'application/json',
            },
            // Sometimes a raw, possibly malformed payload rather than serialised JSON.
            payload: raw && typeof body === 'string' ? body : JSON.stringify(body),
            remoteAddress: `10.7.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
          });
          expect(res.statusCode, res.body.slice(0, 300)).toBeLessThan(500);
          const json = res.json<{ code?: string; message?: string }>();
          if (res.statusCode >= 400) {
            expect(typeof json.code).toBe('string');
            expect(res.body).not.toMatch(
              /\bat [\w.<>]+ \(|node_modules|SELECT |INSERT |syntax error|stack/i,
            );
          }
        }),
        { numRuns: 60, seed: 20261121 },
      );
      // Bad input changed nothing. (Forgot-password answers 202 to a valid e-mail: none is generated.)
      if (!validForAnyObject.has(name)) expect(await counts()).toEqual(before);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(({} as Record<string, unknown>).admin).toBeUndefined();
    },
  );

  it('answers 404 with no data for unknown or foreign ids in every path parameter', async () => {
    const withParams = Object.values({ ...routes, ...adminRoutes }).filter((def) =>
      /:\w+/.test(def.path),
    ) as TRouteDef[];
    for (const def of withParams) {
      for (const id of [
        '00000000-0000-4000-8000-000000000000',
        'x',
        "1' OR '1'='1",
        '\u0000',
        'a\u0000b',
        'x\u0007',
      ]) {
        const res = await target.app.inject({
          method: def.method,
          url: `/demo/api/1.0${def.path.replace(/:(\w+)/g, encodeURIComponent(id))}`,
          headers: {
            authorization: `Bearer ${def.auth === 'apiKey' ? target.apiKey : target.token}`,
          },
          ...(def.body ? { payload: {} } : {}),
        });
        expect([400, 404, 422], `${def.method} ${def.path} ${id}`).toContain(res.statusCode);
      }
    }
  });
});
