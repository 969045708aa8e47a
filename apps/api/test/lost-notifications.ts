import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildSimulator } from '@portal/redsys-sim';
import type { Database } from '../src/db/database.ts';
import { createSecretBox, type SecretBox } from '../src/lib/secret-box.ts';
import { createReconciler } from '../src/modules/payments/reconcile.ts';
import {
  createRedsysClient,
  type RedsysClientOptions,
} from '../src/modules/payments/redsys-client.ts';
import {
  createPaymentService,
  type PaymentService,
  type PaymentServiceDeps,
} from '../src/modules/payments/service.ts';
import { buildTestApp, type Engine } from './engines.ts';

/*
 * What the tests of card payments whose notification is lost start from: the Redsys simulator,
 * the app whose notifications go to port 9 (discard, which refuses), and the payment service and
 * reconciliation the background jobs would build, made by hand and quiet.
 */

/** Port 9 (discard) refuses: notifications sent there, or a gateway asked there, are lost. */
export const down = 'http://127.0.0.1:9';
/** The log of a service built by a test: says nothing. */
export const quiet = { warn: () => {}, error: () => {} };
/**
 * The secret box of the services a test builds (one per test file): the seeded Redsys keys are
 * plaintext (sealed only at a server's start), which any box opens.
 */
export const testSecretBox: SecretBox = createSecretBox(randomBytes(32));

export type LostNotifications = {
  db: Database;
  app: FastifyInstance;
  sim: FastifyInstance;
  simUrl: string;
  close(): Promise<void>;
};

/**
 * A private copy of the seeded database, the simulator (one notification attempt, 500 ms; `sim`
 * adds options) and the app paying at it, whose notifications are lost; `env` adds to the app's.
 */
export async function openLostNotifications(
  engine: Engine,
  sim: Parameters<typeof buildSimulator>[0] = {},
  env: Record<string, string> = {},
): Promise<LostNotifications> {
  const db = await engine.open();
  const simulator = buildSimulator({ notificationAttempts: 1, notificationTimeoutMs: 500, ...sim });
  await simulator.listen({ host: '127.0.0.1', port: 0 });
  const simUrl = `http://127.0.0.1:${(simulator.server.address() as { port: number }).port}`;
  const app = await buildTestApp(db, {
    REDSYS_SIMULATOR_URL: simUrl,
    NOTIFICATION_URL: down,
    ...env,
  });
  return {
    db,
    app,
    sim: simulator,
    simUrl,
    async close() {
      await app.close();
      await simulator.close();
      await db.close();
    },
  };
}

/**
 * The payment service of the demo tenant's background jobs, its gateway at `gatewayUrl`, its
 * notifications lost, doing nothing after a payment unless `onPaid` says, quiet.
 */
export function testPaymentService(
  db: Database,
  gatewayUrl: string = down,
  onPaid: PaymentServiceDeps['onPaid'] = async () => {},
  secretBox: SecretBox = testSecretBox,
) {
  return createPaymentService({
    db,
    secretBox,
    simulatorUrl: gatewayUrl,
    notificationBaseUrl: down,
    onPaid,
    log: quiet,
  });
}

/**
 * The reconciliation (attempts older than a minute), asking the gateway at `gatewayUrl` (or
 * `hosts` for the test and production environments) through the service of `testPaymentService`.
 */
export function testReconciler(options: {
  db: Database;
  gatewayUrl: string;
  timeoutMs: number;
  releaseAfterMinutes: number;
  hosts?: RedsysClientOptions['hosts'];
  onPaid?: PaymentServiceDeps['onPaid'];
  secretBox?: SecretBox;
  /** The service that records what the gateway says (`testPaymentService` on `gatewayUrl`). */
  service?: PaymentService;
}) {
  const { db, gatewayUrl, secretBox = testSecretBox } = options;
  return createReconciler({
    db,
    secretBox,
    service: options.service ?? testPaymentService(db, gatewayUrl, options.onPaid, secretBox),
    client: createRedsysClient({
      simulatorUrl: gatewayUrl,
      ...(options.hosts ? { hosts: options.hosts } : {}),
      timeoutMs: options.timeoutMs,
    }),
    afterMinutes: 1,
    releaseAfterMinutes: options.releaseAfterMinutes,
    log: quiet,
  });
}
