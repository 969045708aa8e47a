import { configDefaults, defineConfig, mergeConfig, type TestUserConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

/**
 * The files that replace a module with `vi.mock`: each needs its own module registry, so they run
 * isolated (vitest.isolated.config.ts).
 */
export const mockingFiles = ['src/entry-server.test.tsx'];

/** What both web projects share: the browser-like DOM, the setup, the CSS the tests read. */
export const webTest: TestUserConfig = {
  environment: 'happy-dom',
  setupFiles: ['src/testing/setup-tests.ts'],
  restoreMocks: true,
  testTimeout: 20_000,
  // Lets a test read index.css as text (`?raw`); vitest empties CSS files otherwise.
  css: { include: [/index\.css/] },
};

export default defineConfig((env) =>
  mergeConfig(
    viteConfig(env),
    defineConfig({
      test: {
        ...webTest,
        name: 'web',
        include: ['src/**/*.test.{ts,tsx}'],
        exclude: [...configDefaults.exclude, ...mockingFiles],
        // One DOM and one module registry per worker, not per file: a quarter of the time. The
        // setup (src/testing/setup-tests.ts) cleans the DOM and storage after every test.
        isolate: false,
      },
    }),
  ),
);
