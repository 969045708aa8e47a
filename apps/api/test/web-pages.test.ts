import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { buildTestApp, engines } from './engines.ts';

const indexHtml = `<!doctype html><html><head><title>Portal</title></head><body>${'<p>app</p>'.repeat(200)}</body></html>`;
const appJs = `console.log(${JSON.stringify('x'.repeat(4000))});`;

/**
 * The web app's pages and files, as clients that send no `Accept-Encoding` get them (curl, health
 * checks, some crawlers and proxies) and as browsers do: the same answer, compressed or not.
 */
describe.each(engines())('web pages without Accept-Encoding on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let webDist: string;

  beforeAll(async () => {
    db = await engine.open();
    webDist = mkdtempSync(join(tmpdir(), 'portal-web-'));
    mkdirSync(join(webDist, 'assets'));
    // As `npm run build` leaves it: every file with its brotli and gzip copies.
    for (const [name, text] of [
      ['index.html', indexHtml],
      ['assets/app-1a2b3c.js', appJs],
      ['robots.txt', 'User-agent: *\n'],
    ] as const) {
      writeFileSync(join(webDist, name), text);
      writeFileSync(join(webDist, `${name}.br`), brotliCompressSync(text));
      writeFileSync(join(webDist, `${name}.gz`), gzipSync(text));
    }
    app = await buildTestApp(db, { WEB_DIST: webDist });
  });
  afterAll(async () => {
    await app.close();
    await db.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  const cases = [
    ['/', indexHtml],
    ['/home', indexHtml],
    ['/invoice-detail/F-1', indexHtml],
    ['/index.html', indexHtml],
    ['/assets/app-1a2b3c.js', appJs],
    ['/robots.txt', 'User-agent: *\n'],
  ] as const;

  it.each(cases)('GET %s with no Accept-Encoding is 200 and plain', async (url, body) => {
    const res = await app.inject({ method: 'GET', url });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe(body);
  });

  it.each(cases)('GET %s with Accept-Encoding: identity is 200 and plain', async (url, body) => {
    const res = await app.inject({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'identity' },
    });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.body).toBe(body);
  });

  it.each(cases)('GET %s with gzip or brotli is 200 and the same content', async (url, body) => {
    for (const encoding of ['gzip', 'br']) {
      const res = await app.inject({
        method: 'GET',
        url,
        headers: { 'accept-encoding': encoding },
      });
      expect(res.statusCode, `${encoding} ${res.body.slice(0, 200)}`).toBe(200);
      expect(res.headers['content-encoding'], encoding).toBe(encoding);
      const plain = (encoding === 'br' ? brotliDecompressSync : gunzipSync)(res.rawPayload);
      expect(plain.toString()).toBe(body);
    }
  });

  it('answers HEAD / like GET /, without a body', async () => {
    const res = await app.inject({ method: 'HEAD', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
  });

  it.each([
    ['/', undefined, 'Este portal no existe'],
    ['/login', 'eu-ES,eu;q=0.9', 'Atari hau ez dago'],
    ['/metodos-de-pago', 'en-GB', 'This portal does not exist'],
  ])(
    "GET %s on an unknown tenant's host is a translated 404, not the sign-in form",
    async (url, language, title) => {
      const res = await app.inject({
        method: 'GET',
        url,
        headers: { host: 'nope.localhost', ...(language ? { 'accept-language': language } : {}) },
      });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain(`<h1>${title}</h1>`);
      expect(res.body).not.toContain('<p>app</p>');
      // Its one inline style is allowed by hash, nothing else loosened.
      expect(res.headers['content-security-policy']).toContain("'sha256-");
    },
  );

  it("serves the app on a known tenant's host", async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/home',
      headers: { host: 'demo.localhost' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(indexHtml);
  });
});
