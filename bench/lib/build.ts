import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { build } from 'esbuild';
import { npmPackagesExternal } from '../../apps/api/esbuild-externals.mjs';
import { repoRoot } from './processes.ts';

let apiBuilt = false;

/**
 * The API as production runs it (`npm run build`, then `node apps/api/dist/server.js`: no
 * TypeScript loader, no source maps), compiled from the tree being measured once per bench run.
 * Answers the server's path, relative to the repository.
 */
export function compiledApi(): string {
  if (!apiBuilt) {
    const compiled = spawnSync(process.execPath, ['apps/api/build.mjs'], { cwd: repoRoot });
    if (compiled.status !== 0) throw new Error(`API build failed: ${String(compiled.stderr)}`);
    apiBuilt = true;
  }
  return 'apps/api/dist/server.js';
}

/**
 * A baseline server of `bench/servers/` bundled the way `apps/api/build.mjs` builds the API (npm
 * packages stay in node_modules, the workspace's TypeScript is bundled), so that the portal and
 * the floors it is measured against run alike, under plain `node`. Answers the bundle's path.
 */
export async function bundledServer(file: string): Promise<string> {
  const outdir = join(repoRoot, 'bench/.build');
  mkdirSync(outdir, { recursive: true });
  const name = basename(file, '.ts');
  await build({
    entryPoints: { [name]: join(repoRoot, file) },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    logLevel: 'warning',
    plugins: [npmPackagesExternal],
  });
  return join(outdir, `${name}.mjs`);
}
