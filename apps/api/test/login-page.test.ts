import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { buildTestApp, engines } from './engines.ts';

const template = `<!doctype html>
<html lang="es">
  <head>
    <title>Oficina Online</title>
    <script type="module" crossorigin src="/assets/index-A1.js"></script>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

/**
 * The prerendered /login's way out (modules/tenants/login-page.ts): a server build that cannot be
 * loaded leaves /login to the browser and never stops the server from starting. (The prerendering
 * itself needs the web app's build: e2e/prerender.spec.ts.)
 */
describe.each(engines())('/login with a broken server build on $name', (engine) => {
  let db: Database;
  let dir: string;

  beforeAll(async () => {
    db = await engine.open();
    dir = mkdtempSync(join(tmpdir(), 'portal-web-'));
    mkdirSync(join(dir, 'dist'));
    mkdirSync(join(dir, 'dist-ssr'));
    writeFileSync(join(dir, 'dist/index.html'), template);
    writeFileSync(join(dir, 'dist-ssr/entry-server.js'), "throw new Error('broken build');\n");
  });
  afterAll(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is ready while the server build still loads, and a /login that comes first waits for it', async () => {
    const slow = mkdtempSync(join(tmpdir(), 'portal-web-'));
    mkdirSync(join(slow, 'dist'));
    mkdirSync(join(slow, 'dist-ssr'));
    writeFileSync(join(slow, 'dist/index.html'), template);
    // Three seconds to load, then it says so (and fails, for a plain page).
    writeFileSync(
      join(slow, 'dist-ssr/entry-server.js'),
      'await new Promise((r) => setTimeout(r, 3000));\n' +
        'globalThis.portalSlowBuildLoaded = true;\n' +
        "throw new Error('broken build');\n",
    );
    const flag = globalThis as { portalSlowBuildLoaded?: boolean };
    const loaded = () => flag.portalSlowBuildLoaded;
    // Set by the other engine's run of this test, in the same process.
    delete flag.portalSlowBuildLoaded;
    const app = await buildTestApp(db, { WEB_DIST: join(slow, 'dist') });
    try {
      const api = await app.inject({ method: 'GET', url: '/demo/api/1.0/visual-config' });
      expect(api.statusCode).toBe(200);
      expect(loaded()).toBeUndefined();
      const res = await app.inject({ method: 'GET', url: '/login' });
      expect(loaded()).toBe(true);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<div id="root"></div>');
    } finally {
      await app.close();
      rmSync(slow, { recursive: true, force: true });
    }
  });

  it('starts, and serves the plain page the browser renders', async () => {
    const app = await buildTestApp(db, { WEB_DIST: join(dir, 'dist') });
    try {
      const res = await app.inject({ method: 'GET', url: '/login' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<div id="root"></div>');
      expect(res.body).toContain('src="/assets/index-A1.js"');
      expect(res.headers['content-security-policy']).not.toContain('sha256-');
    } finally {
      await app.close();
    }
  });
});
