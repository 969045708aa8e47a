/* global URL */
// The esbuild options of the API's build (build.mjs): one place, so that a test can build the same
// bundle in memory and check what the server loads at start (src/start-imports.test.ts).
import { fileURLToPath } from 'node:url';
import { npmPackagesExternal } from './esbuild-externals.mjs';

export const here = (path) => fileURLToPath(new URL(path, import.meta.url));

/** @param {string} outdir @returns {import('esbuild').BuildOptions} */
export const apiBuildOptions = (outdir) => ({
  entryPoints: {
    // main.ts starts tracing (when configured) before it imports server.ts.
    server: here('./src/main.ts'),
    migrate: here('./src/db/migrate-cli.ts'),
    admin: here('./src/admin-cli.ts'),
    heavy: here('./src/workers/heavy-process.ts'),
  },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  sourcemap: true,
  // Chunks beside the entries: the code finds the migrations and the worker relative to itself.
  chunkNames: 'chunk-[hash]',
  logLevel: 'warning',
  plugins: [npmPackagesExternal],
});
