import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterEach, afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { createSecretBox } from '../src/lib/secret-box.ts';
import { createPaymentService } from '../src/modules/payments/service.ts';
import { adminCommand } from './admin-run.ts';
import { buildTestApp, engines } from './engines.ts';
import { signedNotification } from './redsys-notification.ts';
import { signedIn } from './session.ts';
import { startCheckout as startCheckoutOf } from './checkout.ts';

/*
 * Session 34's money review, the merchant-change code (migration 032, gatewayOfOrder): a retired merchant
 * keeps its code, terminal, host and key, but NOT the signature versions it signed with; a
 * notification is verified with `allowedVersions` of the tenant's CURRENT settings. The checkout
 * was started (and Redsys signs its notification, as the simulator does: gateway.ts notifies with
 * the session's version) with HMAC_SHA256_V1; once the operator moves the tenant to
 * HMAC_SHA512_V2 (a new contract: new code, new key, the newer signature; or the version alone),
 * the old order's authorisation is refused 400 (VERSION_NOT_ALLOWED) and recorded nowhere. For an
 * attempt the reconciliation has already released, nothing asks the gateway again: the money the
 * customer paid is dropped. The attempt itself knows the version it was started with
 * (payment_attempts.signature_version).
 */

const NEW_KEY = 'Mk9m98IfEblmPfrpsawt7BmxObt98Jev';
const NEW_CODE = '999008882';
const quiet = { warn: () => {}, error: () => {} };

describe.each(engines())('signature versions across a change on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let me: Awaited<ReturnType<typeof signedIn>>;
  const rootSecret = randomBytes(32);
  let original: { code: string; terminal: string; key: string; versions: string[] };

  beforeAll(async () => {
    db = await engine.open();
    app = await buildTestApp(db, { NOTIFICATION_URL: 'http://127.0.0.1:9' }, rootSecret);
    me = await signedIn(app, 'demo');
    const [row] = await db.withOwner((sql) =>
      sql.query<{ code: string; terminal: string; key: string; versions: string[] }>(
        `SELECT redsys_merchant_code AS code, redsys_terminal AS terminal, redsys_secret_key AS key,
                redsys_signature_versions AS versions
           FROM tenants WHERE id = 'demo'`,
      ),
    );
    if (!row) throw new Error('no demo tenant');
    original = row;
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });
  afterEach(async () => {
    await db.withOwner(async (sql) => {
      await sql.query(
        `UPDATE tenants SET redsys_merchant_code = $1, redsys_terminal = $2, redsys_secret_key = $3,
                redsys_signature_versions = $4 WHERE id = 'demo'`,
        [original.code, original.terminal, original.key, original.versions],
      );
      await sql.query("DELETE FROM tenant_retired_merchants WHERE tenant_id = 'demo'");
    });
  });

  /** The operator's command, as `npm run admin -- tenant update ...` runs it: it succeeds. */
  const admin = async (...argv: string[]) => {
    const { code, err } = await adminCommand(db, rootSecret, {
      readFile: async () => Buffer.from(NEW_KEY),
      readStdin: async () => NEW_KEY,
    })(...argv);
    expect(code, err).toBe(0);
  };
  const startCheckout = async () => {
    const started = await startCheckoutOf(me);
    // Started under HMAC_SHA256_V1 (the seeded setting).
    expect(started.form.Ds_SignatureVersion).toBe('HMAC_SHA256_V1');
    return started;
  };
  const attemptStatus = async (id: string) =>
    (
      await db.withOwner((sql) =>
        sql.query<{ status: string }>('SELECT status FROM payment_attempts WHERE id = $1', [id]),
      )
    )[0]?.status;

  it.each([
    {
      change: 'control: a new merchant (code and key), versions unchanged',
      argv: ['--redsys-merchant-code', NEW_CODE, '--redsys-key-file', '/new.key'],
      versions: 'HMAC_SHA256_V1',
    },
    {
      change: 'a new merchant (code and key) signing with HMAC_SHA512_V2',
      argv: ['--redsys-merchant-code', NEW_CODE, '--redsys-key-file', '/new.key'],
      versions: 'HMAC_SHA512_V2',
    },
    { change: 'the signature version alone', argv: [], versions: 'HMAC_SHA512_V2' },
  ])(
    "records a released checkout's late authorisation after $change",
    async ({ argv, versions }) => {
      const { id, p } = await startCheckout();
      // The card page stayed open past the bound: the reconciliation released it.
      await createPaymentService({
        db,
        secretBox: createSecretBox(rootSecret),
        simulatorUrl: 'http://127.0.0.1:9',
        notificationBaseUrl: 'http://127.0.0.1:9',
        onPaid: async () => {},
        log: quiet,
      }).releaseAttempt('demo', id);
      await admin(
        'tenant',
        'update',
        '--id',
        'demo',
        ...argv,
        '--redsys-signature-versions',
        versions,
      );
      // The customer did pay on that page: Redsys notifies the order as it was started (old
      // merchant, old key, the version of the request).
      const res = await app.inject({
        method: 'POST',
        url: '/demo/api/1.0/redsys/notification',
        payload: new URLSearchParams(signedNotification(p, '0000')).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      // Before the fix: 400 (VERSION_NOT_ALLOWED), the attempt stays failed, the instalment unpaid,
      // the money taken is recorded nowhere.
      expect({ http: res.statusCode, attempt: await attemptStatus(id) }).toEqual({
        http: 200,
        attempt: 'paid',
      });
    },
  );
});
