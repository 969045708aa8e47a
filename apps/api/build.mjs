/* global console */
// `npm run build -w @portal/api`: the API as JavaScript for `node` (production runs no TypeScript
// loader). esbuild bundles the API's own code and the workspace packages (@portal/*, consumed as
// TypeScript source) into dist/; every npm package stays an import resolved from node_modules.
import { cp, rm } from 'node:fs/promises';
import { build } from 'esbuild';
import { apiBuildOptions, here } from './build-options.mjs';

const dist = here('./dist/');

await rm(dist, { recursive: true, force: true });
await build(apiBuildOptions(dist));
await cp(here('./src/db/migrations/'), `${dist}migrations/`, { recursive: true });
console.log(`API built to ${dist}`);
