import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page, type Request } from '@playwright/test';
import { demoEmail, demoPassword } from '../apps/api/src/db/seed/demo.ts';
import { freePort } from './lib/ports.ts';
import { repoRoot, startServer, tsxBin, type Server } from './lib/processes.ts';
import { median, round } from './lib/stats.ts';

const run = promisify(execFile);

export const chromiumPath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
/** The flags STACK.md lists for the system Chromium (no sandbox in a container, no updates). */
export const chromiumFlags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export type Download = { url: string; type: string; encoding: string; bytes: number };
export type PageBytes = { bytes: number; files: Download[] };
export type LighthouseRun = {
  /** The element Lighthouse took for the largest paint. */
  lcpElement: string;
  /** The longest chain of requests the page waited on, as Lighthouse saw it. */
  longestChain: string[];
  score: number;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  cls: number;
  speedIndexMs: number;
};
export type LighthouseSummary = {
  runs: LighthouseRun[];
  score: number;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
};
export type WebResults = {
  build: { built: boolean; dist: string };
  bytes: { login: PageBytes; invoices: PageBytes };
  /**
   * The floor of /login, built in the same run (bench/react-floor: React 19, react-dom and one
   * form, Vite production build), as Chromium downloads it from the same server; and /login's
   * bytes over it.
   */
  floor: { bytes: PageBytes; loginRatio: number };
  /** Layout shift on /login while the app takes the prerendered form over (Lighthouse, worst run). */
  loginCls: number;
  lighthouse: { login: LighthouseSummary; static: LighthouseSummary; lcpRatio: number };
  /** What the libraries of the first chunk weigh on their own, minified and brotli-compressed. */
  libraries: Record<string, number>;
};

const webDist = join(repoRoot, 'apps/web/dist');
/** The web app's server build (the prerendered /login), beside `dist` as the API looks for it. */
const webServerBuild = join(repoRoot, 'apps/web/dist-ssr');
const benchData = join(repoRoot, 'bench/.data');
/** Where the static copy of /login lives in the served folder. */
const staticPage = 'bench-static-login.html';

/** Where the floor is served from, in the served folder. */
const floorBase = '/bench-react-floor/';

/** Builds bench/react-floor (a minimal React 19 login) for production into `outDir`. */
async function buildFloor(outDir: string): Promise<void> {
  const { build } = await import('vite');
  await build({
    root: join(repoRoot, 'bench/react-floor'),
    base: floorBase,
    configFile: false,
    logLevel: 'warn',
    // JSX with React's automatic runtime, as @vitejs/plugin-react sets it for a production build.
    oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
    build: { outDir, emptyOutDir: true, modulePreload: { polyfill: false } },
  });
  for (const entry of readdirSync(outDir, { recursive: true, encoding: 'utf8' })) {
    const file = join(outDir, entry);
    if (!/\.(js|css|html)$/.test(file)) continue;
    const source = readFileSync(file);
    // As the app's build compresses its files (apps/web/vite.config.ts): quality 11, level 9.
    writeFileSync(`${file}.br`, brotliCompressSync(source));
    writeFileSync(`${file}.gz`, gzipSync(source, { level: 9 }));
  }
}

/** Builds the web app when it has not been built (or when asked to). */
async function ensureBuild(force: boolean, log: (line: string) => void): Promise<boolean> {
  if (!force && existsSync(join(webDist, 'index.html')) && existsSync(webServerBuild)) return false;
  log('  building the web app (npm run build)');
  await run('npm', ['run', 'build'], { cwd: repoRoot, maxBuffer: 64 * 1024 * 1024 });
  return true;
}

/**
 * The portal as `npm start` runs it (embedded database with the demo data, one process), serving
 * a private copy of the built web app: other work may rebuild apps/web/dist meanwhile, and the
 * static page is added to the copy, never to the build.
 */
export async function startDemoPortal(options: {
  dataDir: string;
  webDir?: string;
  simulator?: boolean;
  name?: string;
}): Promise<Server> {
  const port = await freePort();
  const simulatorPort = await freePort();
  return startServer({
    name: options.name ?? 'portal (embedded, demo data)',
    command: tsxBin,
    args: ['src/server.ts'],
    cwd: join(repoRoot, 'apps/api'),
    port,
    host: 'localhost',
    env: {
      PORT: String(port),
      DATA_DIR: options.dataDir,
      LOG_LEVEL: 'warn',
      // The demo on the embedded database: not production, which refuses it (README).
      NODE_ENV: 'test',
      REDSYS_SIMULATOR: options.simulator ? 'true' : 'false',
      REDSYS_SIMULATOR_PORT: String(simulatorPort),
      // The demo data keeps the URL of the first start; the port changes from run to run.
      ALLOWED_ORIGINS: `http://localhost:${port}`,
      ...(options.webDir ? { WEB_DIST: options.webDir } : {}),
    },
    readyPath: '/1/api/1.0/visual-config',
    timeoutMs: 180_000,
  });
}

/** JS and CSS bytes as they came over the wire (compressed bodies), per file. */
async function countBytes(page: Page, go: () => Promise<void>): Promise<PageBytes> {
  const files: Download[] = [];
  const pending: Promise<void>[] = [];
  const onFinished = (request: Request) => {
    const type = request.resourceType();
    if (type !== 'script' && type !== 'stylesheet') return;
    pending.push(
      (async () => {
        const [sizes, response] = await Promise.all([request.sizes(), request.response()]);
        files.push({
          url: new URL(request.url()).pathname,
          type,
          encoding: (await response?.headerValue('content-encoding')) ?? 'identity',
          bytes: sizes.responseBodySize,
        });
      })(),
    );
  };
  page.on('requestfinished', onFinished);
  await go();
  await page.waitForLoadState('networkidle');
  // What this page loaded, not what signing in loads next.
  page.off('requestfinished', onFinished);
  await Promise.all(pending);
  const counted = [...files].sort((a, b) => b.bytes - a.bytes);
  return { bytes: counted.reduce((sum, f) => sum + f.bytes, 0), files: counted };
}

async function measureBytes(browser: Browser, origin: string) {
  const fresh = () => browser.newContext({ viewport: { width: 412, height: 823 } });

  const loginContext = await fresh();
  const loginPage = await loginContext.newPage();
  const login = await countBytes(loginPage, async () => {
    await loginPage.goto(`${origin}/login`);
    // The scripts come after the first paint (apps/web/src/lib/prerender.ts), which a loaded
    // machine may hold back longer than the network's idle time: counted once the form is live.
    await loginPage.locator('#root:not([data-prerendered])').waitFor({ state: 'attached' });
  });
  // Sign in as a person does; the signed-in state (storage, cookies) moves to a new context,
  // whose empty cache then loads /invoices as a returning customer with a cold cache would.
  await loginPage.locator('input[type="email"]').fill(demoEmail);
  await loginPage.locator('input[type="password"]').first().fill(demoPassword);
  await loginPage.locator('input[type="password"]').first().press('Enter');
  await loginPage.waitForURL((url) => !url.pathname.startsWith('/login'), { timeout: 20_000 });
  // Signing in loads the next screen, whose start restores the session (a refresh that renews the
  // cookie): the state is taken once that is done, not with the cookie it replaces.
  await loginPage.waitForLoadState('networkidle');
  const state = await loginContext.storageState();
  await loginContext.close();

  const invoicesContext = await browser.newContext({
    viewport: { width: 412, height: 823 },
    storageState: state,
  });
  const invoicesPage = await invoicesContext.newPage();
  const invoices = await countBytes(invoicesPage, async () => {
    await invoicesPage.goto(`${origin}/invoices`);
  });
  if (new URL(invoicesPage.url()).pathname !== '/invoices') {
    throw new Error(`/invoices did not stay signed in (ended on ${invoicesPage.url()})`);
  }
  await invoicesContext.close();
  return { login, invoices };
}

/**
 * A static HTML copy of what /login shows once rendered: the rendered DOM without any script,
 * the same stylesheet, and the inline styles the app set at run time moved into a stylesheet
 * (the Content-Security-Policy forbids style attributes in markup). Written, with its brotli and
 * gzip copies, into the served folder.
 */
async function writeStaticLogin(browser: Browser, origin: string, webDir: string) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
  const page = await context.newPage();
  await page.goto(`${origin}/login`);
  await page.waitForLoadState('networkidle');
  const { html, css } = await page.evaluate(() => {
    const rules: string[] = [];
    let n = 0;
    for (const element of Array.from(document.querySelectorAll('[style]'))) {
      const style = element.getAttribute('style') ?? '';
      if (element === document.documentElement) {
        rules.push(`:root{${style}}`);
      } else {
        n += 1;
        element.setAttribute('data-bench-style', String(n));
        rules.push(`[data-bench-style="${n}"]{${style}}`);
      }
      element.removeAttribute('style');
    }
    // The prerendered page's brand colours (an inline style its CSP allows by hash) go into the
    // stylesheet as well.
    for (const element of Array.from(document.querySelectorAll('style'))) {
      rules.push(element.textContent ?? '');
      element.remove();
    }
    for (const element of Array.from(
      document.querySelectorAll('script, link[rel="modulepreload"], link[rel="preload"]'),
    )) {
      element.remove();
    }
    return { html: document.documentElement.outerHTML, css: rules.join('\n') };
  });
  await context.close();
  const page_ = `<!doctype html>\n${html.replace('</head>', '<link rel="stylesheet" href="/bench-static-login.css"></head>')}`;
  for (const [name, content] of [
    [staticPage, page_],
    ['bench-static-login.css', css],
  ] as const) {
    const file = join(webDir, name);
    writeFileSync(file, content);
    writeFileSync(`${file}.br`, brotliCompressSync(Buffer.from(content)));
    writeFileSync(`${file}.gz`, gzipSync(Buffer.from(content), { level: 9 }));
  }
}

type Chain = {
  request: { url: string; endTime: number };
  children?: Record<string, Chain>;
};

/** The request path that ends last in Lighthouse's critical request chains. */
function longestChain(chains: Record<string, Chain>): string[] {
  let best: { end: number; path: string[] } = { end: -1, path: [] };
  const walk = (chain: Chain, path: string[]) => {
    const here = [...path, chain.request.url];
    const children = Object.values(chain.children ?? {});
    if (children.length === 0 && chain.request.endTime > best.end) {
      best = { end: chain.request.endTime, path: here };
    }
    for (const child of children) walk(child, here);
  };
  for (const chain of Object.values(chains)) walk(chain, []);
  return best.path;
}

/** Lighthouse now and then fails to record a trace (NO_NAVSTART): such a run is tried again. */
async function lighthouseOnce(url: string, outFile: string): Promise<LighthouseRun> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await lighthouseAttempt(url, outFile);
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}

async function lighthouseAttempt(url: string, outFile: string): Promise<LighthouseRun> {
  await run(
    join(repoRoot, 'node_modules/.bin/lighthouse'),
    [
      url,
      '--output=json',
      `--output-path=${outFile}`,
      '--only-categories=performance',
      `--chrome-flags=${chromiumFlags.join(' ')}`,
      '--quiet',
    ],
    {
      cwd: repoRoot,
      env: { ...process.env, CHROME_PATH: chromiumPath },
      maxBuffer: 64 * 1024 * 1024,
      timeout: 120_000,
    },
  );
  const report = JSON.parse(readFileSync(outFile, 'utf8')) as {
    categories: { performance: { score: number } };
    audits: Record<string, { numericValue?: number; details?: unknown }>;
    runtimeError?: { message: string };
  };
  if (report.runtimeError) throw new Error(`Lighthouse on ${url}: ${report.runtimeError.message}`);
  const metric = (id: string) => round(report.audits[id]?.numericValue ?? Number.NaN, 0);
  const lcpElement = (
    report.audits['largest-contentful-paint-element']?.details as
      { items?: { items?: { node?: { snippet?: string } }[] }[] } | undefined
  )?.items?.[0]?.items?.[0]?.node?.snippet;
  const chains = (
    report.audits['critical-request-chains']?.details as
      { chains?: Record<string, Chain> } | undefined
  )?.chains;
  return {
    lcpElement: (lcpElement ?? '').slice(0, 120),
    longestChain: longestChain(chains ?? {}).map((url) => {
      const u = new URL(url);
      return u.pathname + u.search;
    }),
    score: Math.round(report.categories.performance.score * 100),
    lcpMs: metric('largest-contentful-paint'),
    fcpMs: metric('first-contentful-paint'),
    tbtMs: metric('total-blocking-time'),
    cls: round(report.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN, 3),
    speedIndexMs: metric('speed-index'),
  };
}

const summarise = (runs: LighthouseRun[]): LighthouseSummary => ({
  runs,
  score: median(runs.map((r) => r.score)),
  lcpMs: median(runs.map((r) => r.lcpMs)),
  fcpMs: median(runs.map((r) => r.fcpMs)),
  tbtMs: median(runs.map((r) => r.tbtMs)),
});

/** The imports of the web app's source from `packages`, as one entry module re-exporting them. */
function entryOf(packages: readonly string[]): string {
  const named = new Map<string, Set<string>>();
  const defaults = new Set<string>();
  const sourceDir = join(repoRoot, 'apps/web/src');
  const files = (readdirSync(sourceDir, { recursive: true, encoding: 'utf8' }) as string[]).filter(
    (f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f),
  );
  const pattern = /import\s+(type\s+)?([\w$]+)?\s*,?\s*(?:\{([^}]*)\})?\s*from\s+'([^']+)'/g;
  for (const file of files) {
    const text = readFileSync(join(sourceDir, file), 'utf8');
    for (const [, typeOnly, defaultName, names, from] of text.matchAll(pattern)) {
      if (typeOnly || !from || !packages.includes(from)) continue;
      if (defaultName) defaults.add(from);
      for (const raw of (names ?? '').split(',')) {
        const name = raw.trim();
        if (!name || name.startsWith('type ')) continue;
        const set = named.get(from) ?? new Set<string>();
        set.add(name.split(/\s+as\s+/)[0] as string);
        named.set(from, set);
      }
    }
  }
  const lines = packages.map((pkg, i) => {
    const names = [...(named.get(pkg) ?? [])];
    const parts = [...names, ...(defaults.has(pkg) ? [`default as default${i}`] : [])];
    // A package the app loads only for its side effects or as a whole still costs its size.
    return parts.length > 0 ? `export { ${parts.join(', ')} } from '${pkg}';` : `import '${pkg}';`;
  });
  return lines.join('\n');
}

/**
 * The floor of the shell: the libraries of the first chunk bundled for production with esbuild,
 * with exactly the imports the app's source makes of them, minified and brotli-compressed. What
 * they cost before the first line of the app. (The translations are the app's own since decision 030:
 * lib/i18n.ts, about 2 KiB, counted with the app.)
 */
async function librarySizes(): Promise<Record<string, number>> {
  const { build } = await import('esbuild');
  const groups: Record<string, string[]> = {
    'react + react-dom': ['react', 'react-dom', 'react-dom/client'],
    'react-router': ['react-router'],
    '@tanstack/react-query': ['@tanstack/react-query'],
  };
  const sizes: Record<string, number> = {};
  for (const [name, packages] of Object.entries(groups)) {
    const result = await build({
      stdin: { contents: entryOf(packages), resolveDir: join(repoRoot, 'apps/web'), loader: 'js' },
      bundle: true,
      minify: true,
      format: 'esm',
      write: false,
      // react is shared by the other groups: count it once, in its own group.
      external: name.startsWith('react +') ? [] : ['react', 'react-dom'],
      define: { 'process.env.NODE_ENV': '"production"' },
      // As the app's build does: react-router's production build.
      alias: {
        'react-router': join(repoRoot, 'node_modules/react-router/dist/production/index.mjs'),
      },
      logLevel: 'silent',
    });
    const code = result.outputFiles[0]?.contents ?? new Uint8Array();
    sizes[name] = brotliCompressSync(code).length;
  }
  return sizes;
}

export async function benchWeb(options: {
  rebuild: boolean;
  lighthouseRuns: number;
  log: (line: string) => void;
}): Promise<WebResults> {
  const { log } = options;
  const built = await ensureBuild(options.rebuild, log);
  // Under a `dist` folder, which lint and formatting leave alone like the build itself.
  const webDir = join(benchData, 'web/dist');
  rmSync(webDir, { recursive: true, force: true });
  mkdirSync(webDir, { recursive: true });
  cpSync(webDist, webDir, { recursive: true });
  rmSync(join(webDir, '../dist-ssr'), { recursive: true, force: true });
  cpSync(webServerBuild, join(webDir, '../dist-ssr'), { recursive: true });

  log('  building the React floor (bench/react-floor)');
  await buildFloor(join(webDir, floorBase));

  const server = await startDemoPortal({ dataDir: join(benchData, 'web-demo'), webDir });
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
  try {
    const origin = server.url;
    const bytes = await measureBytes(browser, origin);
    const floorContext = await browser.newContext({ viewport: { width: 412, height: 823 } });
    const floorPage = await floorContext.newPage();
    const floor = await countBytes(floorPage, async () => {
      await floorPage.goto(`${origin}${floorBase}index.html`);
      await floorPage.locator('form').waitFor();
    });
    await floorContext.close();
    const kib = (n: number) => (n / 1024).toFixed(1);
    log(
      `  bytes: /login ${kib(bytes.login.bytes)} KiB, /invoices ${kib(bytes.invoices.bytes)} KiB, ` +
        `React floor ${kib(floor.bytes)} KiB (${bytes.login.files[0]?.encoding ?? '?'})`,
    );
    await writeStaticLogin(browser, origin, webDir);
    await browser.close();

    const runs = { login: [] as LighthouseRun[], static: [] as LighthouseRun[] };
    const report = join(benchData, 'lighthouse.json');
    for (let r = 0; r < options.lighthouseRuns; r++) {
      for (const [name, path] of [
        ['login', '/login'],
        ['static', `/${staticPage}`],
      ] as const) {
        const result = await lighthouseOnce(origin + path, report);
        runs[name].push(result);
        log(
          `  lighthouse ${r + 1}/${options.lighthouseRuns} ${path.padEnd(26)} score ${result.score}  LCP ${result.lcpMs} ms  FCP ${result.fcpMs} ms  TBT ${result.tbtMs} ms`,
        );
      }
    }
    const login = summarise(runs.login);
    const staticSummary = summarise(runs.static);
    return {
      build: { built, dist: webDist },
      bytes,
      floor: { bytes: floor, loginRatio: round(bytes.login.bytes / floor.bytes, 2) },
      loginCls: Math.max(...runs.login.map((r) => r.cls)),
      lighthouse: {
        login,
        static: staticSummary,
        lcpRatio: round(login.lcpMs / staticSummary.lcpMs, 2),
      },
      libraries: await librarySizes(),
    };
  } finally {
    await browser.close().catch(() => {});
    await server.stop();
  }
}
