import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      name: 'web',
      environment: 'happy-dom',
      include: ['src/**/*.test.{ts,tsx}'],
      setupFiles: ['src/testing/setup-tests.ts'],
      restoreMocks: true,
      testTimeout: 20_000,
      // Lets a test read index.css as text (`?raw`); vitest empties CSS files otherwise.
      css: { include: [/index\.css/] },
    },
  }),
);
