import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';
import { mockingFiles, webTest } from './vitest.config.ts';

/** The web tests that mock modules, each file with its own DOM and module registry. */
export default defineConfig((env) =>
  mergeConfig(
    viteConfig(env),
    defineConfig({ test: { ...webTest, name: 'web-isolated', include: mockingFiles } }),
  ),
);
