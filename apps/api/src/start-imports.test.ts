import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a JavaScript module of the build, without declarations
import { apiBuildOptions } from '../build-options.mjs';

type Output = Metafile['outputs'][string];

/**
 * What `node apps/api/dist/server.js` loads before it serves: the server entry and every chunk it
 * imports statically, with their npm imports. A dynamic import() loads only when its line runs.
 */
function loadedAtStart(metafile: Metafile): { sources: string[]; packages: string[] } {
  const outputs = metafile.outputs;
  const entry = Object.keys(outputs).find((file) => outputs[file]?.entryPoint?.endsWith('main.ts'));
  if (!entry) throw new Error('no server entry in the build');
  const seen = new Set<string>();
  const packages = new Set<string>();
  // main.ts imports server.ts dynamically (tracing, when configured, starts first): follow that one.
  const follow = (file: string, dynamicToo: boolean) => {
    if (seen.has(file)) return;
    seen.add(file);
    const output = outputs[file] as Output;
    for (const imported of output.imports) {
      const statically = imported.kind === 'import-statement';
      if (!statically && !(dynamicToo && imported.kind === 'dynamic-import')) continue;
      if (imported.external) packages.add(imported.path);
      else follow(imported.path, false);
    }
  };
  const entryOutput = outputs[entry] as Output;
  const server = entryOutput.imports.find(
    (i) =>
      i.kind === 'dynamic-import' &&
      Object.keys(outputs[i.path]?.inputs ?? {}).some((input) => input.endsWith('src/server.ts')),
  );
  if (!server) throw new Error('main.ts does not import server.ts');
  follow(entry, false);
  follow(server.path, false);
  const sources = [...seen].flatMap((file) => Object.keys((outputs[file] as Output).inputs));
  return { sources, packages: [...packages] };
}

describe('the compiled server at start', () => {
  it('loads none of the demo (seed, Redsys simulator) nor the OpenAPI writer, and still the API', async () => {
    const options = apiBuildOptions('/tmp/portal-start-imports/');
    const result = await build({ ...options, write: false, metafile: true, sourcemap: false });
    if (!result.metafile) throw new Error('esbuild wrote no metafile');
    const { sources, packages } = loadedAtStart(result.metafile);
    // What production never runs (the demo seed, the simulator) and what only the first request for
    // /openapi.json needs (@fastify/swagger, its yaml and JSON-schema resolver: ~90 files).
    expect(sources.filter((s) => /apps\/redsys-sim\/|src\/db\/seed\//.test(s))).toEqual([]);
    expect(packages).not.toContain('@fastify/swagger');
    // …and the check sees what the server does load.
    expect(sources.some((s) => s.endsWith('src/app.ts'))).toBe(true);
    expect(sources.some((s) => s.endsWith('src/plugins/app/openapi.ts'))).toBe(true);
    expect(packages).toEqual(expect.arrayContaining(['fastify', 'pg', 'zod']));
  });
});
