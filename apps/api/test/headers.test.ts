import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { demoEmail, demoPassword } from '../src/db/seed/demo.ts';
import { buildTestApp, engines } from './engines.ts';

/** The raw Set-Cookie lines of an answer, by cookie name. */
function setCookies(header: string | string[] | undefined): Record<string, string> {
  const lines = Array.isArray(header) ? header : header ? [header] : [];
  return Object.fromEntries(lines.map((line) => [line.split('=')[0] ?? '', line]));
}
const attributes = (line = '') =>
  line
    .split(';')
    .slice(1)
    .map((a) => a.trim().split('=')[0]?.toLowerCase());

/**
 * Security headers and cookie flags as a browser receives them, over plain http (the local demo)
 * and behind TLS (PUBLIC_URL https), on API answers, errors and the web app's pages.
 */
describe.each(engines())('security headers and cookies on $name', (engine) => {
  let db: Database;
  let webDist: string;
  const apps: Record<'http' | 'https', FastifyInstance | undefined> = {
    http: undefined,
    https: undefined,
  };
  let ip = 0;

  beforeAll(async () => {
    db = await engine.open();
    webDist = mkdtempSync(join(tmpdir(), 'portal-web-'));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Oficina</title>');
    apps.http = await buildTestApp(db, { PUBLIC_URL: 'http://localhost:3000', WEB_DIST: webDist });
    apps.https = await buildTestApp(db, {
      PUBLIC_URL: 'https://portal.example',
      WEB_DIST: webDist,
    });
  });
  afterAll(async () => {
    await apps.http?.close();
    await apps.https?.close();
    await db.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  const get = (scheme: 'http' | 'https', url: string) =>
    (apps[scheme] as FastifyInstance).inject({ method: 'GET', url });
  const login = (scheme: 'http' | 'https', remember = false) =>
    (apps[scheme] as FastifyInstance).inject({
      method: 'POST',
      url: '/demo/api/1.0/login',
      payload: { email: demoEmail, password: demoPassword, remember },
      remoteAddress: `10.6.0.${++ip}`,
    });

  it.each([
    ['an API answer', '/1/api/1.0/visual-config'],
    ['an API error', '/1/api/1.0/no-such-call'],
    ['an unknown tenant', '/nope/api/1.0/visual-config'],
    ['a page of the web app', '/login'],
  ])('sends a strict Content-Security-Policy that forbids framing on %s', async (_what, url) => {
    for (const scheme of ['http', 'https'] as const) {
      const res = await get(scheme, url);
      const csp = String(res.headers['content-security-policy']);
      for (const directive of [
        "default-src 'self'",
        "script-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "frame-ancestors 'none'",
      ])
        expect(csp, `${scheme} ${url}`).toContain(directive);
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });

  it("lets mail clients load the tenant's logo (the e-mails' image): cross-origin for it alone", async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
      'base64',
    );
    await db.withOwner((sql) =>
      sql.query(`UPDATE tenants SET logo_mime = 'image/png', logo_data = $1 WHERE id = '1'`, [png]),
    );
    for (const scheme of ['http', 'https'] as const) {
      const logo = await get(scheme, '/1/api/1.0/logo');
      expect(logo.statusCode).toBe(200);
      expect(logo.headers['content-type']).toBe('image/png');
      expect(logo.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(logo.headers['x-content-type-options']).toBe('nosniff');
      // Everything else stays same-origin: the API, its errors, a missing logo, the pages.
      for (const url of [
        '/1/api/1.0/visual-config',
        '/nope/api/1.0/logo',
        '/1/api/1.0/no-such-call',
        '/1/api/1.0/user/profile/x',
        '/login',
        '/',
      ]) {
        const res = await get(scheme, url);
        expect(res.headers['cross-origin-resource-policy'], `${scheme} ${url}`).toBe('same-origin');
      }
    }
  });

  it('sends HSTS and upgrade-insecure-requests behind TLS only', async () => {
    const tls = await get('https', '/1/api/1.0/visual-config');
    expect(tls.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(String(tls.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
    const plain = await get('http', '/1/api/1.0/visual-config');
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    expect(String(plain.headers['content-security-policy'])).not.toContain(
      'upgrade-insecure-requests',
    );
  });

  it('serves the password-reset page (its URL carries the token) with Referrer-Policy: no-referrer', async () => {
    for (const url of [
      '/reset-password?token=secret-token&email=cliente%40demo.test',
      '/reset-password',
      '/reset-password/',
    ]) {
      const res = await get('https', url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<title>Oficina</title>');
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
    }
    // Other pages keep the default, which sends no path to other sites either.
    for (const url of ['/login', '/reset-passwords', '/x/reset-password'])
      expect((await get('https', url)).headers['referrer-policy'], url).toBe(
        'strict-origin-when-cross-origin',
      );
  });

  it('sets the refresh cookie HttpOnly, SameSite=Strict, on the API path, and Secure behind TLS', async () => {
    for (const scheme of ['http', 'https'] as const) {
      const res = await login(scheme);
      expect(res.statusCode).toBe(200);
      const cookies = setCookies(res.headers['set-cookie']);
      const refresh = cookies.refresh_token ?? '';
      expect(refresh, scheme).toMatch(/; Path=\/demo\/api\/1\.0(;|$)/);
      expect(attributes(refresh)).toContain('httponly');
      expect(refresh).toMatch(/; SameSite=Strict/);
      expect(attributes(refresh).includes('secure'), `${scheme} refresh`).toBe(scheme === 'https');
      // Browser session unless remember-me.
      expect(attributes(refresh)).not.toContain('max-age');
      // The XSRF cookie is read by the app (not HttpOnly) but otherwise as strict.
      const xsrf = cookies['XSRF-TOKEN'] ?? '';
      expect(attributes(xsrf)).not.toContain('httponly');
      expect(xsrf).toMatch(/; SameSite=Strict/);
      expect(attributes(xsrf).includes('secure'), `${scheme} xsrf`).toBe(scheme === 'https');
      // The device id (new devices, issue 24) as strict, kept for 400 days.
      const device = cookies.device_id ?? '';
      expect(device).toMatch(/; Path=\/demo\/api\/1\.0(;|$)/);
      expect(attributes(device)).toContain('httponly');
      expect(device).toMatch(/; SameSite=Strict/);
      expect(device).toMatch(/; Max-Age=34560000/);
      expect(attributes(device).includes('secure'), `${scheme} device`).toBe(scheme === 'https');
      // The access token travels in the body only, never in a cookie.
      expect(Object.keys(cookies).sort()).toEqual(['XSRF-TOKEN', 'device_id', 'refresh_token']);
    }
  });

  it('keeps the flags on a remembered session and when logout clears the cookies', async () => {
    for (const scheme of ['http', 'https'] as const) {
      const res = await login(scheme, true);
      const refresh = setCookies(res.headers['set-cookie']).refresh_token ?? '';
      expect(refresh).toMatch(/; Max-Age=2592000/);
      expect(attributes(refresh)).toContain('httponly');
      const xsrf = /XSRF-TOKEN=([^;]+)/.exec(String(res.headers['set-cookie']))?.[1] ?? '';
      const out = await (apps[scheme] as FastifyInstance).inject({
        method: 'POST',
        url: '/demo/api/1.0/logout',
        cookies: {
          refresh_token: /refresh_token=([^;]+)/.exec(refresh)?.[1] ?? '',
          'XSRF-TOKEN': xsrf,
        },
        headers: { 'x-xsrf-token': xsrf },
      });
      expect(out.statusCode).toBe(200);
      const cleared = setCookies(out.headers['set-cookie']);
      expect(cleared.refresh_token).toMatch(/^refresh_token=;/);
      expect(attributes(cleared.refresh_token)).toContain('httponly');
      expect(cleared.refresh_token).toMatch(/; SameSite=Strict/);
      expect(attributes(cleared.refresh_token).includes('secure')).toBe(scheme === 'https');
    }
  });
});
