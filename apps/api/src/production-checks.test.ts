import { randomBytes } from 'node:crypto';
import { PUBLIC_TEST_MERCHANT } from '@portal/redsys';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import {
  appSecretProblem,
  configProblems,
  publicUrlProblem,
  publishedAppSecrets,
  refusalText,
} from './production-checks.ts';
import { tenantModeProblems } from './modules/tenants/payment-mode.ts';
import type { TenantPaymentMode } from './modules/tenants/repository.ts';

const strongSecret = randomBytes(32).toString('base64');

/** Everything production needs, right. */
const goodEnv = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://portal@db.internal:5432/portal',
  APP_SECRET: strongSecret,
  SMTP_URL: 'smtps://portal:pw@smtp.example.com:465',
  PUBLIC_URL: 'https://portal.example.com',
};

describe('APP_SECRET in production', () => {
  it('accepts 32 random bytes, base64-encoded (openssl rand -base64 32)', () => {
    for (let i = 0; i < 50; i++)
      expect(appSecretProblem(randomBytes(32).toString('base64'))).toBeNull();
    expect(appSecretProblem(randomBytes(64).toString('base64'))).toBeNull();
  });

  it.each([
    [undefined, /^APP_SECRET is not set/],
    ['', /^APP_SECRET is not set/],
    ['not base64 at all!', /^APP_SECRET is not base64/],
    [randomBytes(16).toString('base64'), /^APP_SECRET holds 16 bytes, at least 32/],
    [Buffer.alloc(32).toString('base64'), /^APP_SECRET is not random/],
    [Buffer.alloc(32, 0xff).toString('base64'), /^APP_SECRET is not random/],
    [Buffer.from('0123456789abcdef'.repeat(4), 'hex').toString('base64'), /not random/],
    [Buffer.alloc(48, 'ab').toString('base64'), /^APP_SECRET is not random/],
    [Buffer.from('my very own secret phrase, 32 b!').toString('base64'), /readable text/],
    [Buffer.from('changeme-changeme-changeme-change').toString('base64'), /not random|readable/],
    [publishedAppSecrets[0], /published in this repository/],
  ])('refuses %s', (value, problem) => {
    expect(appSecretProblem(value)).toMatch(problem);
  });
});

describe('PUBLIC_URL in production', () => {
  it.each([
    'https://portal.example.com',
    'https://portal.example.com:8443/',
    // A trial on this machine (the tests, `docker compose up` with its defaults).
    'http://localhost:8080',
    'http://demo.localhost:3000',
    'http://127.0.0.1:4000',
    'http://[::1]:3000',
  ])('accepts %s', (value) => {
    expect(publicUrlProblem(value)).toBeNull();
  });

  it.each([
    [undefined, /^PUBLIC_URL is not set: production needs the https:\/\/ address/],
    [
      'http://portal.example.com',
      /^PUBLIC_URL is http:\/\/portal\.example\.com: production is served over https/,
    ],
    ['http://10.0.0.5:3000', /^PUBLIC_URL is http:\/\/10\.0\.0\.5:3000: /],
    ['http://localhost.example.com', /^PUBLIC_URL is http:/],
  ])('refuses %s', (value, problem) => {
    expect(publicUrlProblem(value)).toMatch(problem);
  });
});

describe('the environment in production', () => {
  it('has no problem when everything production needs is set', () => {
    expect(configProblems(loadConfig(goodEnv))).toEqual([]);
  });

  it('names every problem at once, one line each', () => {
    const problems = configProblems(
      loadConfig({
        NODE_ENV: 'production',
        SEED_DEMO: 'true',
        REDSYS_SIMULATOR: 'true',
        DEMO_SIGN_IN_PROVIDERS: JSON.stringify({
          google: { issuer: 'http://127.0.0.1:1/', client_id: 'c', client_secret: 's' },
        }),
      }),
    );
    expect(problems.map((p) => p.split(' ')[0])).toEqual([
      'DATABASE_URL',
      'APP_SECRET',
      'PUBLIC_URL',
      'SMTP_URL',
      'SEED_DEMO=true:',
      'REDSYS_SIMULATOR=true:',
      'DEMO_SIGN_IN_PROVIDERS',
    ]);
    for (const p of problems) expect(p).not.toContain('\n');
  });

  it('refuses a demo secret with an otherwise complete set-up', () => {
    expect(configProblems(loadConfig({ ...goodEnv, APP_SECRET: publishedAppSecrets[0] }))).toEqual([
      expect.stringMatching(/^APP_SECRET is a value published/),
    ]);
  });

  it('leaves the simulator and the seed alone when they are off (false)', () => {
    expect(
      configProblems(loadConfig({ ...goodEnv, SEED_DEMO: 'false', REDSYS_SIMULATOR: 'false' })),
    ).toEqual([]);
  });

  it('says every problem under one heading', () => {
    const text = refusalText(['A is wrong.', 'B is wrong.']);
    expect(text.split('\n')).toEqual([
      'The server refuses to start in production (NODE_ENV=production): 2 problems.',
      '  - A is wrong.',
      '  - B is wrong.',
      'See "Run in production" in README.md.',
    ]);
  });
});

describe("a tenant's payment mode in production", () => {
  const tenant = (over: Partial<TenantPaymentMode>): TenantPaymentMode => ({
    id: 'acme',
    test_mode: false,
    redsys_environment: 'production',
    redsys_merchant_code: '123456789',
    redsys_secret_key: 'sealed',
    ...over,
  });
  const ownKey = randomBytes(24).toString('base64');

  it('accepts a live tenant on the production host with its own merchant and key', () => {
    expect(tenantModeProblems(tenant({}), ownKey)).toEqual([]);
    // Card payments not set up yet: nothing to refuse (they stay off).
    expect(tenantModeProblems(tenant({ redsys_merchant_code: null }), null)).toEqual([]);
  });

  it('accepts a tenant in test mode on the simulator or the test host, even with the public merchant', () => {
    for (const env of ['simulator', 'test'] as const) {
      expect(
        tenantModeProblems(
          tenant({
            test_mode: true,
            redsys_environment: env,
            redsys_merchant_code: PUBLIC_TEST_MERCHANT.merchantCode,
          }),
          PUBLIC_TEST_MERCHANT.secretKey,
        ),
      ).toEqual([]);
    }
  });

  it.each(['simulator', 'test'] as const)(
    'refuses a live tenant on the %s, naming it and the command',
    (env) => {
      const [problem, ...rest] = tenantModeProblems(tenant({ redsys_environment: env }), ownKey);
      expect(rest).toEqual([]);
      expect(problem).toMatch(/^tenant acme: live but paying through /);
      expect(problem).toContain('npm run admin -- tenant update --id acme --test-mode');
    },
  );

  it("refuses a live tenant with Redsys' public test merchant or key, one line each", () => {
    const problems = tenantModeProblems(
      tenant({ redsys_merchant_code: PUBLIC_TEST_MERCHANT.merchantCode }),
      PUBLIC_TEST_MERCHANT.secretKey,
    );
    expect(problems).toEqual([
      expect.stringMatching(/^tenant acme: live with Redsys' public test merchant 999008881/),
      expect.stringMatching(/^tenant acme: live with Redsys' public test key/),
    ]);
    expect(tenantModeProblems(tenant({}), PUBLIC_TEST_MERCHANT.secretKey)).toHaveLength(1);
  });

  it('refuses a tenant in test mode on the production host (its portal would say payments are not real)', () => {
    expect(tenantModeProblems(tenant({ test_mode: true }), ownKey)).toEqual([
      expect.stringMatching(
        /^tenant acme: in test mode but paying through Redsys' production host/,
      ),
    ]);
  });
});
