import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { PUBLIC_TEST_MERCHANT } from '@portal/redsys';
import { buildSimulator, type SimulatorMerchant } from '@portal/redsys-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { createSecretBox } from '../src/lib/secret-box.ts';
import { createRedsysClient } from '../src/modules/payments/redsys-client.ts';
import { createRefunder, refundsThrough } from '../src/modules/payments/refunds.ts';
import { runAdmin } from '../src/modules/tenants/admin/cli.ts';
import { secondEmail } from '../src/db/seed/demo.ts';
import { buildTestApp, engines } from './engines.ts';
import { payAtSimulator, startCheckout } from './checkout.ts';
import { postNotification, signedNotification } from './redsys-notification.ts';
import { signedIn } from './session.ts';

/*
 * Session 34's money review, the merchant-change code: Redsys ROTATES the merchant's key (same FUC, same
 * terminal, a new key; the operator types it with `tenant update --redsys-key-file`). From then on
 * Redsys signs and accepts only the new key, for old orders too — which the code knows:
 * handleNotification falls back to the current key ("a key Redsys rotated signs every later
 * message, of old orders too") and the reconciliation asks again with it on XML0023. The refund
 * outbox has no such fallback: `gatewayOfOrder` hands it the retired key, Redsys (the simulator,
 * whose merchant now has the new key) answers SIS0042, and the surplus the customer paid twice is
 * not refunded: it is left for the operator as "refused" (payment.refund_failed).
 */

const NEW_KEY = 'Mk9m98IfEblmPfrpsawt7BmxObt98Jev';
const quiet = { warn: () => {}, error: () => {} };

describe.each(engines())('a refund after Redsys rotated the key on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let sim: FastifyInstance;
  let simUrl: string;
  const rootSecret = randomBytes(32);
  // The simulator's merchant: Redsys' public test merchant, whose key Redsys rotates below.
  const merchant: SimulatorMerchant = {
    merchantCode: PUBLIC_TEST_MERCHANT.merchantCode,
    terminal: PUBLIC_TEST_MERCHANT.terminal,
    secretKey: PUBLIC_TEST_MERCHANT.secretKey,
    allowedVersions: PUBLIC_TEST_MERCHANT.allowedVersions,
  };

  beforeAll(async () => {
    db = await engine.open();
    sim = buildSimulator({
      merchants: [merchant],
      notificationAttempts: 1,
      notificationTimeoutMs: 500,
    });
    await sim.listen({ host: '127.0.0.1', port: 0 });
    simUrl = `http://127.0.0.1:${(sim.server.address() as { port: number }).port}`;
    app = await buildTestApp(
      db,
      { REDSYS_SIMULATOR_URL: simUrl, NOTIFICATION_URL: 'http://127.0.0.1:9' },
      rootSecret,
    );
  });
  afterAll(async () => {
    await app.close();
    await sim.close();
    await db.close();
  });

  it('refunds the surplus of an order started before the key rotation, with the key Redsys accepts', async () => {
    const other = await signedIn(app, 'demo', secondEmail);
    // Two card pages for one instalment (Back, then pay again): both paid at the gateway.
    const first = await startCheckout(other);
    const second = await startCheckout(other, first.item);
    await payAtSimulator(sim, simUrl, first.form);
    const notify = (message: Record<string, string>) => postNotification(app, message);
    expect((await notify(signedNotification(second.p, '0000'))).statusCode).toBe(200);

    // Redsys rotates the merchant's key; the operator types the new one.
    merchant.secretKey = NEW_KEY;
    const err: string[] = [];
    const code = await runAdmin(
      ['tenant', 'update', '--id', 'demo', '--redsys-key-file', '/rotated.key'],
      {
        db,
        rootSecret,
        out: () => {},
        err: (line) => err.push(line),
        readFile: async () => Buffer.from(NEW_KEY),
        readStdin: async () => NEW_KEY,
      },
    );
    expect(code, err.join('\n')).toBe(0);

    // The first page's authorisation is notified late, signed (as every later message) with the
    // new key: recorded, and its charge is a surplus to refund.
    expect((await notify(signedNotification(first.p, '0000', {}, NEW_KEY))).statusCode).toBe(200);
    const refunds = () =>
      db.withOwner((sql) =>
        sql.query<{ status: string; review_reason: string | null; last_code: string | null }>(
          'SELECT status, review_reason, last_code FROM payment_refunds WHERE attempt_id = $1',
          [first.id],
        ),
      );
    expect(await refunds()).toMatchObject([{ status: 'pending' }]);

    const client = createRedsysClient({ simulatorUrl: simUrl, timeoutMs: 5_000 });
    const results = await createRefunder({
      db,
      secretBox: createSecretBox(rootSecret),
      ...refundsThrough(client),
      log: quiet,
    }).refundTenant('demo');
    // Before the fix: sent with the retired key, answered SIS0042, left for the operator as
    // 'refused' — the customer's double payment is not given back. Now the current key tries
    // once after the signature refusal (nothing was done), and the simulator refunds it.
    expect({ results: results.map((r) => r.outcome), refunds: await refunds() }).toEqual({
      results: ['refunded'],
      refunds: [{ status: 'refunded', review_reason: null, last_code: null }],
    });
  });
});
