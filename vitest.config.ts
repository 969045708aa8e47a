import { defineConfig } from 'vitest/config';

/** One `vitest run` covers every package: the contract, the Redsys protocol and its simulator, the API (both engines), the bench's own tools and the web app. */
export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one on a two-core runner, and the files
    // then run one after another. Many wait on PostgreSQL, Redis and the processes they start as
    // much as they compute: three at once keep both cores busy.
    maxWorkers: 3,
    // CI also keeps each file's and test's duration (.data/unit-report.json): where the time goes.
    ...(process.env.CI
      ? { reporters: ['default', ['json', { outputFile: '.data/unit-report.json' }]] }
      : {}),
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
          // The app's modules loaded once per worker, not once per file: each file builds its own
          // app on its own copy of the database (test/engines.ts), and nothing else is shared.
          isolate: false,
          // So each worker runs its share of the ~200 files in one process, whose heap grows with
          // them: in session 37 two workers reached V8's default limit (about 4 GB here) near the
          // end of the run and died, taking two files with them. 6 GB each, 3 workers: 18 of the
          // machine's 24 GB at worst (what grows is noted in the session's note).
          execArgv: ['--max-old-space-size=6144'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      { test: { name: 'bench', include: ['bench/**/*.test.ts'] } },
      'apps/web/vitest.config.ts',
      'apps/web/vitest.isolated.config.ts',
    ],
  },
});
