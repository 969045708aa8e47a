/* global URL, console */
// `npm run build -w @portal/api`: the API as JavaScript for `node` (production runs no TypeScript
// loader). esbuild bundles the API's own code and the workspace packages (@portal/*, consumed as
// TypeScript source) into dist/; every npm package stays an import resolved from node_modules.
import { cp, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { npmPackagesExternal } from './esbuild-externals.mjs';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const dist = here('./dist/');

await rm(dist, { recursive: true, force: true });
await build({
  entryPoints: {
    // main.ts starts tracing (when configured) before it imports server.ts.
    server: here('./src/main.ts'),
    migrate: here('./src/db/migrate-cli.ts'),
    admin: here('./src/admin-cli.ts'),
    heavy: here('./src/workers/heavy-process.ts'),
  },
  outdir: dist,
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
await cp(here('./src/db/migrations/'), `${dist}migrations/`, { recursive: true });
console.log(`API built to ${dist}`);
