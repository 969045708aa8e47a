import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, devices } from '@playwright/test';
import { demoSignInProviders, e2ePort, shortTokenPort, smtpPort } from './e2e/support/env.ts';

/**
 * End-to-end tests run the production build served by the real API on a fresh embedded database
 * (a throw-away data folder), in the system Chromium: no browser is downloaded.
 */
const port = e2ePort;
// Absolute: `rm -rf` runs here, but the server runs in apps/api, where a relative path would land.
const inRepo = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const dataDir = inRepo(process.env.E2E_DATA_DIR ?? `.data/e2e-${port}`);
const shortTokenDataDir = inRepo(`.data/e2e-${shortTokenPort}`);
/**
 * Debian's chrome-headless-shell (package chromium-headless-shell, which .ci/run installs): the
 * headless browser Playwright itself prefers for tests, without the full browser's GPU process and
 * user-interface work; the full `chromium` otherwise.
 */
const headlessShell = '/usr/bin/chromium-headless-shell';
const chromium =
  process.env.CHROMIUM_PATH ?? (existsSync(headlessShell) ? headlessShell : '/usr/bin/chromium');

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: true,
  // Three browsers on two cores: with two, a third of the machine waited (the tests wait on the
  // server, SMTP and Redsys simulator as much as they compute). Measured on one machine: 2 workers
  // with traces 739 s; traces off, 3 workers 392 s and 4 workers 339 s. Three keep the longest
  // test (33 s) within its minute on a runner 1.7 times slower.
  workers: 3,
  retries: 0,
  // CI also keeps each test's duration (.data/e2e-report.json): where the suite's time goes.
  reporter: process.env.CI ? [['line'], ['json', { outputFile: '.data/e2e-report.json' }]] : 'list',
  // Generous: several axe scans per test on a 2-core machine.
  timeout: 60_000,
  // CI's runner has been about 1.5 times slower than a development machine, and a context's first
  // page loads the whole app: an assertion waits up to 10 s there (5 s is Playwright's default;
  // a passing assertion returns as soon as it holds, so this costs nothing when all is well).
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://localhost:${port}`,
    // Off: recording a trace of every test (a screencast and a DOM snapshot per action, thrown
    // away when the test passes) took 40% of the run (4 workers: 574 s with, 339 s without;
    // snapshots alone 432 s). A failure still leaves its screenshot and the page's error context;
    // `npx playwright test <file> --trace on` records one to step through.
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromium,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: [
    {
      command: `rm -rf ${dataDir} && npm run serve`,
      url: `http://localhost:${port}/1/api/1.0/visual-config`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        PORT: String(port),
        DATA_DIR: dataDir,
        // The demo on the embedded database, with the local simulator: what `npm start` runs, not
        // production (NODE_ENV=production refuses all three: README "Run in production").
        NODE_ENV: 'test',
        SEED_DEMO: 'true',
        LOG_LEVEL: 'warn',
        // Every journey signs in from 127.0.0.1: scale the per-account limits up for the suite.
        AUTH_LIMIT_SCALE: '20',
        // The recovery test listens here (e2e/auth-recovery.spec.ts); mail sent while nobody
        // listens only fails in the server log.
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        // Google, Apple and Microsoft on both demo tenants, played by local OpenID providers that
        // e2e/auth-external.spec.ts starts.
        DEMO_SIGN_IN_PROVIDERS: demoSignInProviders,
        // The local Redsys simulator (e2e/payments-checkout*.spec.ts pays through it); the API
        // adds its origin to the CSP form-action.
        REDSYS_SIMULATOR_PORT: process.env.E2E_SIMULATOR_PORT ?? '3180',
      },
    },
    {
      // Access tokens that expire after 5 s: only the silent-refresh test uses this server.
      command: `rm -rf ${shortTokenDataDir} && npm run serve`,
      url: `http://localhost:${shortTokenPort}/1/api/1.0/visual-config`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        PORT: String(shortTokenPort),
        DATA_DIR: shortTokenDataDir,
        NODE_ENV: 'test',
        SEED_DEMO: 'true',
        LOG_LEVEL: 'warn',
        ACCESS_TOKEN_TTL_SECONDS: '5',
        REDSYS_SIMULATOR: 'false',
      },
    },
  ],
});
