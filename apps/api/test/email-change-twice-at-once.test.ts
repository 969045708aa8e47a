import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPassword } from '../src/db/seed/demo.ts';
import { engines } from './engines.ts';
import { holdLock, untilLockWaits } from './lock-waits.ts';
import { openMailingApp, type MailingApp } from './mailing-app.ts';
import { signedIn } from './session.ts';

/*
 * two requests to change the sign-in e-mail at once both stay
 * valid, PostgreSQL (several connections).
 *
 * SECURITY.md (session 38): "a new request to change the sign-in e-mail spends the earlier one's
 * link, so a mistyped address's mailbox cannot take the account with it". `requestEmailChange`
 * (auth/service.ts) spends the customer's waiting changes (`spendEmailChangesOf`, an UPDATE) and
 * inserts its own in one READ COMMITTED transaction, without any lock of the customer: two such
 * transactions at once each run their UPDATE before the other's INSERT is committed (the UPDATE's
 * snapshot never sees it), so both new rows stay open and both links move the account for 24 hours.
 * The customer who typed an address wrong and sent the corrected one from a second tab (or whose
 * double submit crossed a correction) leaves the mistyped mailbox able to take the account.
 *
 * Now (session 39): the requests of one customer are serialised (e.g. `SELECT … FROM customers … FOR UPDATE`
 * before spending, or a per-customer advisory lock), so the later one spends the earlier one; at
 * most one change of the customer is ever waiting.
 *
 * Deterministic: a third transaction holds the row of a change already waiting; both requests
 * queue behind it (counted in pg_stat_activity) before it lets go, so both their UPDATEs started
 * before either INSERT.
 */

const postgres = engines().filter((e) => e.name === 'postgres');

describe.skipIf(postgres.length === 0).each(postgres)(
  'two e-mail changes asked for at once, on $name',
  (engine) => {
    let env: MailingApp;
    beforeAll(async () => {
      env = await openMailingApp(engine);
    });
    afterAll(async () => env.close());

    it('leaves only the later request waiting', async () => {
      const { app, db } = env;
      const me = await signedIn(app, 'demo');
      const ask = (email: string) =>
        app.inject({
          method: 'POST',
          url: '/demo/api/1.0/user/email-change',
          headers: { authorization: `Bearer ${me.token}` },
          payload: { email, current_password: demoPassword },
        });

      // A change already waiting (an earlier request of the customer).
      const first = await ask('primera@fuera.test');
      expect(first.statusCode, first.body).toBe(202);

      const release = await holdLock(
        db,
        `SELECT id FROM email_changes
          WHERE tenant_id = 'demo' AND customer_id::text = $1 AND used_at IS NULL FOR UPDATE`,
        [me.user.id],
      );
      let typo: ReturnType<typeof ask> | undefined;
      let meant: ReturnType<typeof ask> | undefined;
      try {
        typo = ask('cliente.tipo@fuera.test');
        await untilLockWaits(db, 1, 'the first request to wait');
        meant = ask('cliente.bien@fuera.test');
        await untilLockWaits(db, 2, 'the second request to wait');
      } finally {
        await release();
      }
      const answers = [(await typo)?.statusCode, (await meant)?.statusCode];
      expect(answers).toEqual([202, 202]);

      const waiting = await db.withOwner((sql) =>
        sql.query<{ new_email: string }>(
          `SELECT new_email FROM email_changes
            WHERE tenant_id = 'demo' AND customer_id::text = $1 AND used_at IS NULL
            ORDER BY created_at`,
          [me.user.id],
        ),
      );
      // Today both: [cliente.tipo@fuera.test, cliente.bien@fuera.test], each link moves the account.
      expect(
        waiting.map((r) => r.new_email),
        'both requests made at once are still waiting: both links move the account',
      ).toHaveLength(1);
    });
  },
);
