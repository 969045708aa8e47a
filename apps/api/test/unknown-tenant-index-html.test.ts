import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { buildTestApp, engines } from './engines.ts';

const indexHtml = `<!doctype html><html><head><title>Portal</title></head><body>${'<p>app</p>'.repeat(20)}</body></html>`;

/**
 * Before session 37: the unknown-portal 404 (SECURITY.md "Production mode": "A host whose tenant does
 * not exist gets a static 404 page ... no app ... never a sign-in form") is only given by the
 * not-found handler of plugins/external/web.ts. The app shell itself is also a plain file of the
 * build, and @fastify/static (registered with `index: false` but serving every file) answers
 * `GET /index.html` with it on any host: `nope.portal.example.com/index.html` is the web app,
 * which boots and shows the sign-in screen for a portal that does not exist.
 *
 * Why it matters: the promise is that a host with no tenant shows no app and no sign-in form (a
 * look-alike sub-domain or a deleted tenant's old address must not present a portal's sign-in);
 * one well-known path gets around it.
 *
 * Right behaviour: `/index.html` (the one file that is the app's page) goes through the same page
 * handler as `/`: the translated 404 on an unknown tenant's host, the app on a known one.
 */
describe.each(engines())("the app shell on an unknown tenant's host, on $name", (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let webDist: string;

  beforeAll(async () => {
    db = await engine.open();
    webDist = mkdtempSync(join(tmpdir(), 'portal-web-'));
    mkdirSync(join(webDist, 'assets'));
    writeFileSync(join(webDist, 'index.html'), indexHtml);
    app = await buildTestApp(db, { WEB_DIST: webDist });
  });
  afterAll(async () => {
    await app.close();
    await db.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it('answers /index.html on an unknown host with the 404 page, not the app', async () => {
    // The control: `/` on that host is the 404 page.
    const root = await app.inject({ method: 'GET', url: '/', headers: { host: 'nope.localhost' } });
    expect(root.statusCode).toBe(404);
    expect(root.body).not.toContain('<p>app</p>');

    const res = await app.inject({
      method: 'GET',
      url: '/index.html',
      headers: { host: 'nope.localhost' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('<p>app</p>');
    expect(res.body).toContain('<h1>Este portal no existe</h1>');
  });
});
