import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

const ZBoolean = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const ZDemoProviders = z.partialRecord(
  z.enum(['google', 'apple', 'microsoft']),
  z.object({
    issuer: z.string().url(),
    client_id: z.string().min(1),
    client_secret: z.string().default(''),
  }),
);

/**
 * Configuration comes from the environment only, validated at boot: a wrong value stops the
 * server with a message naming the variable. Defaults give the embedded demo of `npm start`.
 */
const ZEnv = z.object({
  /**
   * `production` refuses to start an unsafe set-up (production-checks.ts, README "Run in
   * production"); it only adds refusals: no protection depends on it.
   */
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('localhost'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Real PostgreSQL. Without it the embedded PGlite in DATA_DIR is used. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * `false` behind PgBouncer in transaction mode (docs/operations.md): the reads are then parsed
   * unnamed in each message instead of prepared once per server connection (decision 013).
   */
  DATABASE_PREPARED_STATEMENTS: ZBoolean.default(true),
  /** Local state of the embedded mode: the PGlite database and the e-mail outbox. */
  DATA_DIR: z.string().min(1).default(`${repoRoot}.data`),
  /** Fill an empty database with the demo tenants and customers (PRODUCT.md "Demo data"). */
  SEED_DEMO: ZBoolean.optional(),
  /** Base URL of tenant `1`; other demo tenants get their label in front of the host. */
  PUBLIC_URL: z.string().url().optional(),
  /** Behind a proxy: trust X-Forwarded-* from it (never on by default). */
  TRUST_PROXY: ZBoolean.default(false),
  /** Requests per minute and IP on the API; 0 turns the global limit off (benchmarks). */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(1200),
  /** Built web app served by this process. */
  WEB_DIST: z.string().default(`${repoRoot}apps/web/dist`),
  /**
   * Root secret (base64, >= 32 random bytes); required with DATABASE_URL, generated in DATA_DIR
   * otherwise. Production refuses a published or non-random one (production-checks.ts).
   */
  APP_SECRET: z.string().optional(),
  /** SMTP server for e-mail (smtp://user:pass@host:port); without it e-mail goes to DATA_DIR/outbox. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    // Said without the value: it holds the mail password (a `/` or `+` in it must be %-encoded).
    .refine((value) => URL.canParse(value), 'is not a valid URL (percent-encode the password)')
    // `smtp://` alone parses, and nodemailer then sent every e-mail to localhost (session 36).
    .refine((value) => !URL.canParse(value) || new URL(value).hostname !== '', 'names no host')
    .optional(),
  /** Redis shared by several API instances for rate limits; in memory without it. */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// URL')
    .optional(),
  /** Multiplies the sign-in and recovery limits (end-to-end suites sign in many times). */
  AUTH_LIMIT_SCALE: z.coerce.number().int().min(1).max(1000).default(1),
  /** Lifetime of an access token. */
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(5).max(3600).default(900),
  /** Origins allowed to make state-changing API calls besides each tenant's canonical URL. */
  ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((s) => s.split(/[\s,]+/).filter(Boolean)),
  /**
   * External sign-in providers the demo seed configures on its tenants (JSON: {"google": {"issuer",
   * "client_id", "client_secret"}, ...}). Used by the end-to-end tests with a local OpenID provider.
   */
  DEMO_SIGN_IN_PROVIDERS: z
    .string()
    .optional()
    .transform((s, ctx) => {
      if (!s) return {};
      try {
        return ZDemoProviders.parse(JSON.parse(s));
      } catch {
        ctx.addIssue({
          code: 'custom',
          message: 'must be JSON {"google": {"issuer","client_id","client_secret"}}',
        });
        return z.NEVER;
      }
    }),
  /** Run the local Redsys simulator in this process (default: on with the embedded database). */
  REDSYS_SIMULATOR: ZBoolean.optional(),
  /** Port of the local Redsys simulator (default PORT + 1). */
  REDSYS_SIMULATOR_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** Where browsers reach the simulator (default http://localhost:<its port>). */
  REDSYS_SIMULATOR_URL: z.string().url().optional(),
  /** Base URL the gateway posts notifications to (default PUBLIC_URL); the tenant is in the path. */
  NOTIFICATION_URL: z.string().url().optional(),
  /** Minutes after which a payment with no notification is settled by asking the gateway. */
  RECONCILE_AFTER_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
  /**
   * Minutes after which a payment the gateway still reports as not final (card or 3DS page left
   * open, no answer) is released and its instalments freed; a later authorisation is still
   * honoured. Never shorter than RECONCILE_AFTER_MINUTES.
   */
  RECONCILE_RELEASE_AFTER_MINUTES: z.coerce.number().int().min(1).max(10_080).default(120),
  /**
   * Redsys notifications accepted per source IP and minute (all tenants together: Redsys sends
   * every merchant's from the same few addresses), far above a real burst; beyond it, 429.
   */
  NOTIFICATION_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /**
   * The bearer token of `/metrics` (Prometheus text). Unset: the endpoint does not exist. At
   * least 32 characters: it is compared in constant time, never logged.
   */
  // Empty is unset (`/metrics` off), as compose passes `${METRICS_TOKEN:-}` (session 36: it was
  // taken as a token too short, and `docker compose up` started nothing).
  METRICS_TOKEN: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.string().min(32).optional(),
  ),
  /**
   * Seconds between SIGTERM and the server ceasing to accept connections, while `/readyz` already
   * answers 503: the time a load balancer needs to stop sending new requests (its check interval
   * times the failures it waits for). 0 (the default) closes at once.
   */
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).max(60).default(0),
  /** How often the reconciliation job looks for stale payments; 0 turns it off. */
  RECONCILE_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(60),
  /**
   * How often the auto-pay sweep looks for instalments to charge with a card on file, and for the
   * notices due before a charge (issue 23); 0 turns auto-pay's background work off.
   */
  AUTO_PAY_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(300),
  /**
   * How often the outboxes (webhook deliveries, customer invitations, refunds, returned-debit
   * e-mails) are looked at for work that is due; 0 turns the background sending off (tests then
   * send by calling the dispatchers).
   */
  OUTBOX_INTERVAL_SECONDS: z.coerce.number().min(0).default(2),
  /** First retry of a failed webhook delivery; each next one waits twice as long (capped). */
  WEBHOOK_RETRY_BASE_SECONDS: z.coerce.number().min(0).default(30),
  /** Longest wait between two attempts of one webhook delivery. */
  WEBHOOK_RETRY_MAX_SECONDS: z.coerce
    .number()
    .min(1)
    .default(6 * 3600),
  /** Attempts after which a webhook delivery is given up as failed (about 3 days with the defaults). */
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(20),
  /** How long the receiver has to answer one webhook POST. */
  WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().min(1).max(60).default(10),
  /**
   * Webhooks go to public https addresses only (no 10/8, 127/8, 169.254/16, fc00::/7...: SSRF), in
   * every mode; true lets them reach a receiver on the server's own machine or private network,
   * over plain http too (the tests' local receiver).
   */
  WEBHOOK_ALLOW_PRIVATE: ZBoolean.default(false),
  /**
   * Worker threads of the heavy-work pool (invoice PDFs, ingestion batches); default one per core
   * but one, which stays with the event loop.
   */
  WORKER_THREADS: z.coerce.number().int().min(1).max(64).optional(),
  /**
   * A cgroup (its directory) with `cpu.idle` 1 that the heavy-work processes' threads join, so that every
   * other process's work takes the core from them at once (workers/idle-group.ts). Unset: on
   * cgroup v1 the portal makes `portal-heavy` under its own cpu cgroup where it may; else none.
   */
  HEAVY_WORK_CGROUP: z.string().startsWith('/').optional(),
  /** Heavy tasks that may wait for a thread (default 16 per thread); beyond, a 503 with Retry-After. */
  WORKER_QUEUE: z.coerce.number().int().min(1).max(10_000).optional(),
  /** Extra origins a payment form may be posted to (the local Redsys simulator). */
  PAYMENT_FORM_ORIGINS: z
    .string()
    .default('')
    .transform((s) => s.split(/[\s,]+/).filter(Boolean)),
});

export type Config = z.infer<typeof ZEnv> & {
  seedDemo: boolean;
  publicUrl: string;
  runSimulator: boolean;
  simulatorPort: number;
  redsysSimulatorUrl: string;
  notificationBaseUrl: string;
};

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ZEnv.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  const publicUrl = (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, '');
  const simulatorPort = c.REDSYS_SIMULATOR_PORT ?? c.PORT + 1;
  return {
    ...c,
    seedDemo: c.SEED_DEMO ?? !c.DATABASE_URL,
    publicUrl,
    runSimulator: c.REDSYS_SIMULATOR ?? !c.DATABASE_URL,
    simulatorPort,
    redsysSimulatorUrl: (c.REDSYS_SIMULATOR_URL ?? `http://localhost:${simulatorPort}`).replace(
      /\/$/,
      '',
    ),
    notificationBaseUrl: (c.NOTIFICATION_URL ?? publicUrl).replace(/\/$/, ''),
  };
}
