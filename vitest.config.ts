import { defineConfig } from 'vitest/config';

/** One `vitest run` covers every package: the contract, the Redsys protocol and its simulator, the API (both engines), the bench's own tools and the web app. */
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'contract', include: ['packages/contract/src/**/*.test.ts'] } },
      { test: { name: 'redsys', include: ['packages/redsys/src/**/*.test.ts'] } },
      {
        test: {
          name: 'redsys-sim',
          include: ['apps/redsys-sim/src/**/*.test.ts'],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'api',
          include: ['apps/api/**/*.test.ts'],
          globalSetup: ['apps/api/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      { test: { name: 'bench', include: ['bench/**/*.test.ts'] } },
      'apps/web',
    ],
  },
});
