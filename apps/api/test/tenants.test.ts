import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { ZVisualConfig } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { demoTenants } from '../src/db/seed/demo.ts';
import { buildTestApp, engines } from './engines.ts';

describe.each(engines())('tenants and the API skeleton on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    db = await engine.open();
    app = await buildTestApp(db);
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  it.each(demoTenants.map((t) => [t.id, t]))(
    'answers the branding of tenant %s',
    async (id, tenant) => {
      const res = await app.inject({ method: 'GET', url: `/${id}/api/1.0/visual-config` });
      expect(res.statusCode).toBe(200);
      const body = ZVisualConfig.parse(res.json());
      expect(body.company_name).toBe(tenant.companyName);
      expect(body.primary_color).toBe(tenant.color);
      expect(body.description).toBe(tenant.description);
      expect(body.logo_url).toMatch(new RegExp(`^/${id}/api/1\\.0/logo\\?v=\\d+$`));
      const logo = await app.inject({ method: 'GET', url: body.logo_url ?? '' });
      expect(logo.statusCode).toBe(200);
      expect(logo.headers['content-type']).toBe('image/svg+xml');
      expect(logo.body).toContain(`#${tenant.color}`);
    },
  );

  it.each(demoTenants.map((t) => [t.id, t]))(
    'answers the company identity and mailboxes of tenant %s for the legal pages',
    async (id, tenant) => {
      const res = await app.inject({ method: 'GET', url: `/${id}/api/1.0/visual-config` });
      const { legal } = ZVisualConfig.parse(res.json());
      expect(legal).toEqual({
        name: tenant.legalName,
        tax_id: tenant.legalNif,
        address: tenant.legalAddress,
        contact_email: `secretaria@${tenant.domain}`,
        privacy_email: `privacidad@${tenant.domain}`,
        dpo_email: tenant.dpoEmail,
        phone: tenant.phone,
        website: tenant.website,
        opening_hours: tenant.openingHours,
      });
    },
  );

  it.each(demoTenants.map((t) => [t.id]))(
    'says tenant %s is in test mode: the demo seed puts its tenants there',
    async (id) => {
      const res = await app.inject({ method: 'GET', url: `/${id}/api/1.0/visual-config` });
      expect(ZVisualConfig.parse(res.json()).test_mode).toBe(true);
    },
  );

  it('says a tenant is in test mode when the operator put it there, or it pays on a test gateway', async () => {
    const modeOf = async (testMode: boolean, environment: string) => {
      await db.withOwner((sql) =>
        sql.query('UPDATE tenants SET test_mode = $1, redsys_environment = $2 WHERE id = $3', [
          testMode,
          environment,
          'demo',
        ]),
      );
      // A fresh app: running ones keep a tenant's row for 30 seconds.
      const fresh = await buildTestApp(db);
      try {
        const res = await fresh.inject({ method: 'GET', url: '/demo/api/1.0/visual-config' });
        return ZVisualConfig.parse(res.json()).test_mode;
      } finally {
        await fresh.close();
      }
    };
    try {
      expect(await modeOf(false, 'production')).toBe(false);
      expect(await modeOf(true, 'production')).toBe(true);
      expect(await modeOf(false, 'test')).toBe(true);
      expect(await modeOf(false, 'simulator')).toBe(true);
    } finally {
      await modeOf(true, 'simulator');
    }
  });

  describe('the web app manifest (GET /manifest.webmanifest)', () => {
    const hosts = [
      ['localhost:3000', '1'],
      ['127.0.0.1:3000', '1'],
      ['demo.localhost:3000', 'demo'],
      ['demo.portal.example', 'demo'],
    ] as const;

    it.each(hosts)('on %s carries the name and colour of tenant %s', async (host, id) => {
      const tenant = demoTenants.find((t) => t.id === id);
      const res = await app.inject({
        method: 'GET',
        url: '/manifest.webmanifest',
        headers: { host },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/manifest+json; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      const manifest = res.json<Record<string, unknown>>();
      expect(manifest).toMatchObject({
        id: '/',
        name: tenant?.companyName,
        short_name: tenant?.companyName,
        description: tenant?.description,
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: `#${tenant?.color}`,
      });
      expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/);
    });

    it('lists PNG icons of 192 and 512 pixels and a maskable one', async () => {
      const res = await app.inject({ method: 'GET', url: '/manifest.webmanifest' });
      const { icons } = res.json<{ icons: { src: string; sizes: string; purpose: string }[] }>();
      expect(icons.map((i) => `${i.sizes} ${i.purpose}`)).toEqual([
        '192x192 any',
        '512x512 any',
        '512x512 maskable',
      ]);
      for (const icon of icons) expect(icon.src).toMatch(/^\/icons\/[\w-]+\.png$/);
    });

    it.each(['nope.localhost', 'a_b.example.com', 'x.example.com:3000'])(
      'answers 404 for the unknown tenant of %s',
      async (host) => {
        const res = await app.inject({
          method: 'GET',
          url: '/manifest.webmanifest',
          headers: { host },
        });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ message: 'Unknown tenant', code: 'tenant_not_found' });
      },
    );

    it('is allowed by the Content-Security-Policy, as the service worker is', async () => {
      const res = await app.inject({ method: 'GET', url: '/manifest.webmanifest' });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("manifest-src 'self'");
      expect(csp).toContain("worker-src 'self'");
    });
  });

  it.each(['nope', 'UPPER', 'a_b', '-x', 'x'.repeat(64)])(
    'answers 404 for the unknown tenant %s',
    async (id) => {
      const res = await app.inject({ method: 'GET', url: `/${id}/api/1.0/visual-config` });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Unknown tenant', code: 'tenant_not_found' });
    },
  );

  it('answers a JSON 404 for an unknown call, never the web app', async () => {
    const res = await app.inject({ method: 'GET', url: '/1/api/1.0/no-such-call' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Not found', code: 'not_found' });
  });

  it('serves the OpenAPI document generated from the contract', async () => {
    const res = await app.inject({ method: 'GET', url: '/demo/api/1.0/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{
      openapi: string;
      paths: Record<string, Record<string, { responses: object }>>;
    }>();
    expect(doc.openapi).toBe('3.1.0');
    const visual = doc.paths['/{tenant}/api/1.0/visual-config']?.get;
    expect(visual).toBeDefined();
    expect(Object.keys(visual?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '404', '500']),
    );
  });

  it('sends the OpenAPI document as bytes written once: br or gzip as asked, a 304 for its ETag', async () => {
    const url = '/demo/api/1.0/openapi.json';
    const plain = await app.inject({ method: 'GET', url });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toContain('accept-encoding');
    const doc = plain.json<object>();
    // The same document in each encoding, each with an ETag of its own.
    const br = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(doc);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 20);
    const gz = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(doc);
    const etags = [plain, br, gz].map((res) => String(res.headers.etag));
    expect(new Set(etags).size).toBe(3);
    // A client that has it gets a 304 with no body; another tenant's path, the same bytes.
    const again = await app.inject({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    const other = await app.inject({ method: 'GET', url: '/1/api/1.0/openapi.json' });
    expect(other.headers.etag).toBe(plain.headers.etag);
    expect(other.rawPayload.equals(plain.rawPayload)).toBe(true);
  });

  it('sends the security headers with a strict Content-Security-Policy', async () => {
    const res = await app.inject({ method: 'GET', url: '/1/api/1.0/visual-config' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain('form-action');
    expect(csp).toContain('https://sis.redsys.es');
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    // Plain http (the local demo): no HSTS.
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('sends HSTS when the public URL is https', async () => {
    const tls = await buildTestApp(db, { PUBLIC_URL: 'https://portal.example' });
    const res = await tls.inject({ method: 'GET', url: '/1/api/1.0/visual-config' });
    expect(res.headers['strict-transport-security']).toContain('max-age=31536000');
    await tls.close();
  });

  it('rate limits per IP with 429 and Retry-After', async () => {
    const limited = await buildTestApp(db, { RATE_LIMIT_PER_MINUTE: '3' });
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 5; i++) {
      last = await limited.inject({ method: 'GET', url: '/1/api/1.0/visual-config' });
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(last?.json()).toEqual({ message: 'Too many requests', code: 'rate_limited' });
    expect(Number(last?.headers['retry-after'])).toBeGreaterThan(0);
    await limited.close();
  });
});
