import { fileURLToPath } from 'node:url';
import { build, type Rollup } from 'vite';
import { expect, it } from 'vitest';

const webRoot = fileURLToPath(new URL('../../../../web/', import.meta.url));

/**
 * The web app's server build (`vite build --ssr src/entry-server.tsx`), which this module loads to
 * prerender /login (login-page.ts), is a built
 * artefact like the browser's: React's CommonJS entries must not choose their build by the API's
 * NODE_ENV when the API loads it. Before, the module carried both builds of react and
 * react-dom/server (1.6 MB against 0.8 MB), the API compiled both at every start, and rendered
 * /login with the development build wherever NODE_ENV was not `production`.
 */
it('the server build carries the production builds of React only', async () => {
  const result = await build({
    root: webRoot,
    configFile: `${webRoot}vite.config.ts`,
    logLevel: 'silent',
    build: { ssr: 'src/entry-server.tsx', write: false, outDir: 'dist-ssr' },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
  const code = outputs
    .flatMap((output) => output.output)
    .map((file) => (file.type === 'chunk' ? file.code : ''))
    .join('\n');
  // The bundler names each module it takes in a comment: the production builds are there…
  expect(code).toContain('react-dom/cjs/react-dom-server.node.production.js');
  expect(code).toContain('react/cjs/react.production.js');
  // …and no development build, nor a choice left to run time.
  expect(code).not.toMatch(/cjs\/[\w.-]+\.development\.js/);
  expect(code).not.toContain('process.env.NODE_ENV');
}, 60_000);
