import { adminRoutes, type TAdminRouteName, type TRouteDef } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { createApiKey, revokeApiKey } from '../src/modules/admin/api-keys.ts';
import { buildTestApp, engines } from './engines.ts';
import { signedIn } from './session.ts';

/**
 * Every provider-integration call (`adminRoutes`) takes a live API key of the tenant in its path
 * and nothing else: not a customer's access token, not another tenant's key, not a revoked key.
 * The check runs before validation, so a caller without a key learns no field rule.
 */
const names = Object.keys(adminRoutes) as TAdminRouteName[];
const unauthorized = { message: 'Invalid API key', code: 'unauthorized' };

/** A path with every `:param` filled with a well-formed value. */
const pathOf = (tenant: string, name: TAdminRouteName): string =>
  `/${tenant}/api/1.0${adminRoutes[name].path.replace(/:(\w+)/g, '00000000-0000-4000-8000-000000000000')}`;

describe.each(engines())('admin API keys on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let demoKey: string;
  let oneKey: string;
  let revokedKey: string;

  beforeAll(async () => {
    db = await engine.open();
    app = await buildTestApp(db);
    demoKey = (await db.withTenant('demo', (sql) => createApiKey(sql, 'demo integration'))).key;
    oneKey = (await db.withTenant('1', (sql) => createApiKey(sql, 'tenant 1 integration'))).key;
    const revoked = await db.withTenant('demo', (sql) => createApiKey(sql, 'old'));
    await db.withTenant('demo', (sql) => revokeApiKey(sql, revoked.row.id));
    revokedKey = revoked.key;
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  it('has admin calls, all of them authenticated by an API key', () => {
    expect(names.length).toBeGreaterThan(5);
    for (const name of names) expect(adminRoutes[name].auth, name).toBe('apiKey');
    for (const name of names) expect(adminRoutes[name].path, name).toMatch(/^\/admin\//);
  });

  it('refuses a missing key, a customer token, a foreign key and a revoked key, before validation', async () => {
    const customer = await signedIn(app, 'demo');
    const bad: [string, Record<string, string>][] = [
      ['no key', {}],
      ['customer token', { authorization: `Bearer ${customer.token}` }],
      ["tenant 1's key", { authorization: `Bearer ${oneKey}` }],
      ['revoked key', { authorization: `Bearer ${revokedKey}` }],
      ['malformed key', { authorization: `Bearer ${demoKey.slice(0, -1)}` }],
      ['key without the scheme', { authorization: demoKey }],
    ];
    for (const name of names) {
      const def = adminRoutes[name];
      for (const [label, headers] of bad) {
        const res = await app.inject({
          method: def.method,
          url: pathOf('demo', name),
          headers,
          ...(def.method === 'GET' || def.method === 'DELETE'
            ? {}
            : { payload: { unexpected: ['x'] } }),
        });
        expect(res.statusCode, `${name} with ${label}: ${res.body}`).toBe(401);
        expect(res.json()).toEqual(unauthorized);
      }
    }
  });

  it("does not let a tenant's key in through another tenant's path", async () => {
    for (const name of names) {
      const def = adminRoutes[name];
      const res = await app.inject({
        method: def.method,
        url: pathOf('1', name),
        headers: { authorization: `Bearer ${demoKey}` },
        ...(def.method === 'GET' || def.method === 'DELETE' ? {} : { payload: {} }),
      });
      expect(res.statusCode, `${name}: ${res.body}`).toBe(401);
    }
  });

  it('lets the live key through to validation, and records when it was used', async () => {
    const before = await db.withTenant('demo', (sql) =>
      sql.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM api_keys WHERE last_used_at IS NOT NULL',
      ),
    );
    for (const name of names) {
      const def: TRouteDef = adminRoutes[name];
      if (def.method === 'GET' || def.method === 'DELETE' || !def.body) continue;
      const res = await app.inject({
        method: def.method,
        url: pathOf('demo', name),
        headers: { authorization: `Bearer ${demoKey}` },
        payload: { unexpected: ['x'] },
      });
      expect(res.statusCode, `${name}: ${res.body}`).toBe(422);
    }
    const after = await db.withTenant('demo', (sql) =>
      sql.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM api_keys WHERE last_used_at IS NOT NULL',
      ),
    );
    expect(after[0]?.n).toBe((before[0]?.n ?? 0) + 1);
  });

  it('stores only a hash of each key', async () => {
    const rows = await db.withOwner((sql) =>
      sql.query<{ prefix: string; key_hash: Uint8Array }>('SELECT prefix, key_hash FROM api_keys'),
    );
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const row of rows) {
      expect(row.key_hash.length).toBe(32);
      expect(
        demoKey.startsWith(row.prefix) ||
          oneKey.startsWith(row.prefix) ||
          revokedKey.startsWith(row.prefix),
      ).toBe(true);
      expect(Buffer.from(row.key_hash).toString('utf8')).not.toContain(demoKey);
    }
  });

  it('documents every admin call in the OpenAPI document with the API-key scheme', async () => {
    const res = await app.inject({ method: 'GET', url: '/demo/api/1.0/openapi.json' });
    const doc = res.json<{
      paths: Record<string, Record<string, { security?: unknown }>>;
      components: { securitySchemes: Record<string, unknown> };
    }>();
    expect(doc.components.securitySchemes.apiKey).toBeDefined();
    for (const name of names) {
      const def = adminRoutes[name];
      const path = `/{tenant}/api/1.0${def.path.replace(/:(\w+)/g, '{$1}')}`;
      const op = doc.paths[path]?.[def.method.toLowerCase()];
      expect(op, `${name} at ${path}`).toBeDefined();
      expect(op?.security).toEqual([{ apiKey: [] }]);
    }
  });
});
