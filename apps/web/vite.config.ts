import { defineConfig, transformWithOxc, type Plugin, type Rolldown } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

const compressible = /\.(js|css|html|svg|json)$/;

/** The browser's build, not the server's (`vite build --ssr`, the prerendered /login). */
const browserBuild = (_config: unknown, env: { command: string; isSsrBuild?: boolean }) =>
  env.command === 'build' && !env.isSsrBuild;

/**
 * Writes `.br` (quality 11) and `.gz` (level 9) beside every text asset of the build, so the API
 * serves them with @fastify/static `preCompressed` instead of compressing on every request.
 */
function precompress(options: { onlyThisBundle?: boolean } = {}): Plugin {
  let outDir = '';
  let written: string[] = [];
  return {
    name: 'portal:precompress',
    apply: browserBuild,
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    writeBundle(_options, bundle) {
      written = Object.keys(bundle);
    },
    closeBundle() {
      // The /login entry's build writes beside the app's, whose files are compressed already.
      const files = options.onlyThisBundle
        ? written
        : readdirSync(outDir, { recursive: true, encoding: 'utf8' });
      for (const entry of files) {
        const file = join(outDir, entry);
        if (!compressible.test(file) || !statSync(file).isFile()) continue;
        const source = readFileSync(file);
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(source, {
            params: {
              [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
              [zlib.BROTLI_PARAM_SIZE_HINT]: source.length,
            },
          }),
        );
        writeFileSync(`${file}.gz`, gzipSync(source, { level: 9 }));
      }
    },
  };
}

const serviceWorkerSource = decodeURIComponent(
  new URL('./src/pwa/service-worker.ts', import.meta.url).pathname,
);

/**
 * The screens the app opens with no network, besides the entry: /login (most visits start on the
 * server-rendered /login, whose own chunks are not the app's; offline, the worker answers any
 * navigation with index.html, which then needs the app's /login route) and the `common` and `auth`
 * texts of every language. Each with the chunks and CSS it imports.
 */
const offlineModules = [
  /\/src\/app\/routes\/login\.tsx$/,
  /\/src\/locales\/[a-z]+\/(?:common|auth)\.json$/,
];

function offlineScreenFiles(bundle: Rolldown.OutputBundle): string[] {
  const files = new Set<string>();
  const visit = (fileName: string) => {
    const chunk = bundle[fileName];
    if (!chunk || chunk.type !== 'chunk' || files.has(`/${fileName}`)) return;
    files.add(`/${fileName}`);
    for (const css of chunk.viteMetadata?.importedCss ?? []) files.add(`/${css}`);
    chunk.imports.forEach(visit);
  };
  for (const chunk of Object.values(bundle)) {
    if (chunk.type !== 'chunk' || !chunk.isDynamicEntry) continue;
    const id = chunk.facadeModuleId ?? '';
    if (offlineModules.some((pattern) => pattern.test(id))) visit(chunk.fileName);
  }
  return [...files].sort();
}

/**
 * Writes `/sw.js` (src/pwa/service-worker.ts) beside the built app, preceded by what it keeps:
 * index.html, the files index.html loads (entry chunk, preloads, CSS), the build's images, the
 * favicon and the icons;
 * and a version that changes with any file of the build, so a deployment replaces the old cache.
 */
function serviceWorker(): Plugin {
  let outDir = '';
  let publicDir = '';
  return {
    name: 'portal:service-worker',
    apply: browserBuild,
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
      publicDir = config.publicDir;
    },
    async writeBundle(_options, bundle) {
      const html = readFileSync(join(outDir, 'index.html'), 'utf8');
      const entry = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
      // Images of the build (the default logo, shown when the tenant's cannot be had: offline).
      const images = Object.keys(bundle)
        .filter((file) => /^assets\/.+\.(svg|png|webp)$/.test(file))
        .map((file) => `/${file}`);
      const icons = readdirSync(join(publicDir, 'icons')).map((file) => `/icons/${file}`);
      const offline = offlineScreenFiles(bundle).filter((file) => !entry.includes(file));
      const shell = [
        '/index.html',
        ...entry,
        ...offline,
        ...images.sort(),
        '/favicon.svg',
        ...icons.sort(),
      ];
      const source = readFileSync(serviceWorkerSource, 'utf8');
      const version = createHash('sha256')
        .update(Object.keys(bundle).sort().join('\n'))
        .update(html)
        .update(source)
        .digest('hex')
        .slice(0, 16);
      const { code } = await transformWithOxc(source, serviceWorkerSource, { lang: 'ts' });
      writeFileSync(
        join(outDir, 'sw.js'),
        `const __PORTAL_SW__ = ${JSON.stringify({ version, shell })};\n${code}`,
      );
    },
  };
}

/**
 * react-router publishes a production build (`dist/production`, without its development warnings)
 * that its package exports never select (react-router issue 14102): the build takes it; the dev
 * server and the tests keep the development one, warnings included.
 */
function reactRouterProduction(): Plugin {
  const entry = fileURLToPath(
    new URL('../production/index.mjs', import.meta.resolve('react-router')),
  );
  return {
    name: 'portal:react-router-production',
    apply: 'build',
    enforce: 'pre',
    resolveId(source) {
      return source === 'react-router' ? entry : null;
    },
  };
}

/**
 * Marks the chunks /login runs at start (the entry, the login screen and what they import) for
 * V8's eager compilation (`//# allFunctionsCalledOnLoad`, Chrome 136+): their functions are
 * compiled off the main thread while they download, instead of on it at their first call, which
 * is what made the start-up's tasks long on a slow phone (issue 6, Total Blocking Time). Chunks
 * of the other screens stay lazily compiled.
 */
function compileHints(): Plugin {
  const hint = '//# allFunctionsCalledOnLoad\n';
  return {
    name: 'portal:compile-hints',
    apply: browserBuild,
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((file) => file.type === 'chunk');
      const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const login = chunks.find((chunk) =>
        chunk.facadeModuleId?.endsWith('/src/app/routes/login.tsx'),
      );
      // Renamed or moved, it would silently lose its hint: the build says so instead.
      if (!login) this.error('compile hints: no chunk for src/app/routes/login.tsx');
      const start = [...chunks.filter((chunk) => chunk.isEntry), login];
      const marked = new Set<string>();
      const visit = (fileName: string) => {
        const chunk = byName.get(fileName);
        if (!chunk || marked.has(fileName)) return;
        marked.add(fileName);
        for (const imported of chunk.imports) visit(imported);
      };
      for (const chunk of start) visit(chunk.fileName);
      for (const fileName of marked) {
        const chunk = byName.get(fileName);
        if (chunk) chunk.code = hint + chunk.code;
      }
    },
  };
}

/** Every chunk of the /login entry's build runs at start: all get the hint (see above). */
function compileHintsAll(): Plugin {
  return {
    name: 'portal:compile-hints-all',
    apply: browserBuild,
    generateBundle(_options, bundle) {
      for (const file of Object.values(bundle)) {
        if (file.type === 'chunk' && !file.isDynamicEntry) {
          file.code = `//# allFunctionsCalledOnLoad\n${file.code}`;
        }
      }
    },
  };
}

const fromHere = (path: string) => decodeURIComponent(new URL(path, import.meta.url).pathname);

/**
 * `vite build --mode login`: the /login entry (src/login/main.tsx, docs/decisions/018), written
 * beside the app's build into `dist/assets/login-*` with its manifest in
 * `dist/.vite/login-manifest.json`, which the API reads to load it on the prerendered /login.
 */
const loginEntry = fromHere('./src/login/main.tsx');
const loginBuild = {
  outDir: 'dist',
  emptyOutDir: false,
  copyPublicDir: false,
  manifest: '.vite/login-manifest.json',
  modulePreload: { polyfill: false },
  assetsInlineLimit: 0,
  rolldownOptions: {
    input: loginEntry,
    output: {
      entryFileNames: 'assets/login-[hash].js',
      chunkFileNames: 'assets/login-[name]-[hash].js',
    },
  },
};

export default defineConfig(({ isSsrBuild, mode }) => ({
  plugins:
    mode === 'login'
      ? [react(), compileHintsAll(), precompress({ onlyThisBundle: true })]
      : [
          // JSX with React's automatic runtime, and fast refresh on the dev server.
          react(),
          tailwindcss(),
          reactRouterProduction(),
          compileHints(),
          serviceWorker(),
          precompress(),
        ],
  resolve: {
    alias: {
      // The /login entry's stand-ins for what the sign-in screen uses of these two (before `@`,
      // which would take the second otherwise).
      ...(mode === 'login'
        ? {
            'react-router': fromHere('./src/login/react-router.tsx'),
            '@/lib/use-translation': fromHere('./src/login/use-translation.tsx'),
          }
        : {}),
      '@': fromHere('./src'),
    },
  },
  // The server's build (src/entry-server.tsx) is one self-contained module: the shim's alias
  // applies to the libraries too, as in the browser's build, and the API needs no web packages.
  ...(isSsrBuild
    ? {
        ssr: { noExternal: true },
        // React's CommonJS entries choose their build by NODE_ENV when they load. Left to the
        // server's NODE_ENV, the module carried both (1.6 MB, the development builds of react and
        // react-dom/server included) and the API compiled it all at every start; the prerendered
        // /login is a built artefact like the browser's bundle, made by the same production React.
        define: { 'process.env.NODE_ENV': JSON.stringify('production') },
      }
    : {}),
  build:
    mode === 'login'
      ? loginBuild
      : {
          outDir: 'dist',
          emptyOutDir: true,
          // The public folder is the browser's; the server's build needs none of it.
          copyPublicDir: !isSsrBuild,
          // Every browser we target supports <link rel="modulepreload">.
          modulePreload: { polyfill: false },
          // No `data:` URLs: the server's Content-Security-Policy may not allow them for images.
          assetsInlineLimit: 0,
          rolldownOptions: {
            output: isSsrBuild
              ? {}
              : {
                  codeSplitting: {
                    // React Query's modules in one chunk instead of six small ones (the
                    // signed-in screens load nearly all): /invoices 159.1 -> 156.4 KiB (br). Grouping
                    // the app's small shared modules, or inlining small common chunks, cost more
                    // than it saved (156.9 and 158.3 KiB: code loaded twice or not needed).
                    groups: [{ name: 'query', test: /node_modules[\\/]@tanstack[\\/]/ }],
                  },
                },
            onwarn(warning, warn) {
              // react-router's and react-query's "use client" marks mean nothing in a single-page app.
              if (
                warning.code === 'MODULE_LEVEL_DIRECTIVE' &&
                warning.message.includes('use client')
              ) {
                return;
              }
              // The server's build bundles every language of /login's texts, which the browser's
              // loads lazily: said once per file, and meaningless there.
              if (isSsrBuild && warning.code === 'INEFFECTIVE_DYNAMIC_IMPORT') return;
              warn(warning);
            },
          },
        },
  server: {
    // API calls are `/{tenant}/api/1.0/...`: everything else is the app.
    proxy: {
      '^/[^/]+/api/': {
        target: 'http://localhost:3000',
        // The API takes writes only from the tenant's own origin (plugins/app/same-origin.ts): the
        // page's origin is this dev server's, so name the API's port, as the built app would.
        configure(proxy) {
          proxy.on('proxyReq', (request) => {
            const origin = request.getHeader('origin');
            if (typeof origin === 'string') {
              request.setHeader('origin', origin.replace(/:\d+$/, ':3000'));
            }
          });
        },
      },
      // Built per tenant by the API (apps/api/src/modules/tenants/manifest.ts).
      '/manifest.webmanifest': { target: 'http://localhost:3000' },
    },
  },
}));
