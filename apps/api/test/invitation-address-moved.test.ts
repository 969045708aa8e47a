import { ZIngestCustomer } from '@portal/contract/admin-ingestion';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { createApiKey } from '../src/modules/admin/api-keys.ts';
import { createInvitationSender } from '../src/modules/ingestion/invitations.ts';
import { createIngestionService } from '../src/modules/ingestion/service.ts';
import type { Mailer } from '../src/modules/mail/mailer.ts';
import { buildTestApp, engines } from './engines.ts';
import { holdingCommit, untilLockWaits } from './lock-waits.ts';

/*
 * Before session 39, the invitation outbox (apps/api/src/modules/ingestion/invitations.ts,
 * `sendTenant`, and `claimInvitations` in ingestion/repository.ts) read the customer's address
 * without locking the customer, then stores a fresh reset token bound to that address. A provider
 * batch that moves the customer to another address (`PUT /admin/customers`, the correction of a
 * wrong address) spends "reset links and invitations" of the old one in its transaction
 * (`signInEmailMoved`); when the outbox claims the invitation while that batch is in flight, it
 * still reads the old (committed) address, and its token is written after the batch's spend ran:
 * the invitation goes to the OLD mailbox with a link that works, after the move committed.
 * SECURITY.md: a change of the sign-in e-mail by the provider's batch "spends what proved the owner
 * through the old address: reset links and invitations". Here the stranger behind the wrong
 * address sets the account's password (and the reset removes the owner's passkeys, linked
 * accounts and sessions), while the right address never gets its invitation (it is `sent`).
 *
 * The batch below is the real service code, run through a Database whose transaction is held
 * open after its statements and before its COMMIT (as in ingestion-concurrency.test.ts); the
 * outbox runs meanwhile, then the batch commits.
 *
 * Now the claim locks its customers (`FOR SHARE OF c`): it waits for the batch and reads the new
 * address.
 */

const noReturns = {
  apply: async () => ({ updated: 0, mailIds: [] }),
  sendMails: async () => undefined,
  feesCollected: async () => undefined,
};

describe.each(engines())('an invitation sent while the address moves on $name', (engine) => {
  let db: Database;
  let app: Awaited<ReturnType<typeof buildTestApp>>;
  let key: string;

  beforeAll(async () => {
    db = await engine.open();
    app = await buildTestApp(db);
    key = (await db.withTenant('demo', (sql) => createApiKey(sql, 'review3'))).key;
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  it.runIf(engine.name === 'postgres')(
    'never leaves a working invitation link at the address the batch moved the customer from',
    { timeout: 60_000 },
    async () => {
      const oldEmail = 'wrong.address@review3.test';
      const newEmail = 'right.address@review3.test';
      const customer = { code: 'R3-MOVE', name: 'Nora', language: 'es' };
      const created = await app.inject({
        method: 'PUT',
        url: '/demo/api/1.0/admin/customers',
        headers: { authorization: `Bearer ${key}` },
        payload: { customers: [{ ...customer, email: oldEmail }] },
      });
      expect(created.statusCode, created.body).toBe(200);
      expect(created.json()).toMatchObject({ invited: 1 });

      // The provider corrects the address; its batch is in flight (statements run, not committed).
      const a = holdingCommit(db);
      const batch = createIngestionService({ db: a.held, returns: noReturns }).ingestCustomers(
        'demo',
        [ZIngestCustomer.parse({ ...customer, email: newEmail })],
      );
      await a.ranStatements;

      // Meanwhile the outbox sends the invitation (or waits for the batch, as it should).
      const sent: { to: string; text: string }[] = [];
      const mailer: Mailer = {
        async send(mail) {
          sent.push({ to: String(mail.to), text: String(mail.text) });
        },
      };
      const outbox = createInvitationSender({ db, mailer }).sendTenant('demo');
      await Promise.race([outbox, untilLockWaits(db, 1, 'the outbox waiting for the batch')]);
      a.release();
      await batch;
      await outbox;

      // Whatever reached the old mailbox must not set the account's password.
      const toOld = sent.filter((m) => m.to.toLowerCase() === oldEmail);
      const answers: number[] = [];
      for (const mail of toOld) {
        const link = /reset-password\?(\S+)/.exec(mail.text)?.[1] ?? '';
        const params = new URLSearchParams(link);
        const password = 'Otra-clave-distinta-2026!';
        const res = await app.inject({
          method: 'POST',
          url: '/demo/api/1.0/reset-password',
          payload: {
            token: params.get('token'),
            email: params.get('email'),
            password,
            password_confirmation: password,
          },
        });
        answers.push(res.statusCode);
      }
      // Today: the invitation went to the old address after the move, and its link answers 200.
      expect({
        mailsToOld: toOld.length,
        accepted: answers.filter((s) => s === 200).length,
      }).toEqual({ mailsToOld: toOld.length, accepted: 0 });
      const [row] = await db.withOwner((sql) =>
        sql.query<{ has_password: boolean }>(
          `SELECT password_hash IS NOT NULL AS has_password FROM customers
            WHERE tenant_id = 'demo' AND code = 'R3-MOVE'`,
        ),
      );
      expect(row?.has_password).toBe(false);
    },
  );
});
