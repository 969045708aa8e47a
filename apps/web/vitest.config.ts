import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default defineConfig((env) =>
  mergeConfig(
    viteConfig(env),
    defineConfig({
      resolve: {
        // `react` and `react-dom` are preact/compat (docs/decisions/011), which has no
        // `react-dom/test-utils`: Testing Library's `act` comes from Preact's own.
        alias: [
          {
            find: /^react-dom\/test-utils$/,
            replacement: fileURLToPath(import.meta.resolve('preact/test-utils')),
          },
          // Testing Library's ES module build: its `main` is CommonJS, which vitest leaves to Node,
          // past the alias above.
          {
            find: /^@testing-library\/react$/,
            replacement: fileURLToPath(
              new URL(
                './@testing-library/react.esm.js',
                import.meta.resolve('@testing-library/react'),
              ),
            ),
          },
        ],
      },
      test: {
        name: 'web',
        environment: 'happy-dom',
        include: ['src/**/*.test.{ts,tsx}'],
        setupFiles: ['src/testing/setup-tests.ts'],
        restoreMocks: true,
        testTimeout: 20_000,
        // Lets a test read index.css as text (`?raw`); vitest empties CSS files otherwise.
        css: { include: [/index\.css/] },
        // Testing Library through Vite, not Node, so that the aliases above apply to it.
        server: { deps: { inline: ['@testing-library/react'] } },
      },
    }),
  ),
);
