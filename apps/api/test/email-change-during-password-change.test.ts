import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmail, demoPassword } from '../src/db/seed/demo.ts';
import { engines } from './engines.ts';
import { openMailingApp, type MailingApp } from './mailing-app.ts';
import { parkNextPasswordCheck, signedIn } from './session.ts';

/**
 * an e-mail change whose password was checked just before the
 * owner took the account back still moves the account.
 *
 * SECURITY.md: "a password change or reset […] cancels an e-mail change asked for before it (its
 * notice tells the owner to change the password: doing so stops it)", and "Ending a session the
 * owner does not recognise […] also ends the sign-in e-mail change it asked for".
 *
 * Scenario: a thief who phished the password is signed in and asks to move the sign-in e-mail to
 * an address of theirs. `requestEmailChange` checks the password (argon2id, tens of milliseconds,
 * in `proveOwner`), then, in another transaction, spends the changes waiting and inserts its own.
 * If the owner's password change (or "end this session" in "Your devices") commits between the
 * two, its `spendEmailChangesOf` / `spendEmailChangesFrom` runs before the thief's row exists; the
 * row is inserted afterwards, from a session that is already ended, with a password that is no
 * longer the customer's, and its link (in the thief's mailbox) moves the account.
 *
 * `openSession` closes the same gap for sign-ins (it locks the password hash and compares it);
 * `requestEmailChange` does not.
 *
 * The pause: the thief's request is parked right after its password verification returned
 * (wrapping the process-wide password gate), as in login-during-reset.test.ts.
 */
describe.each(engines())(
  'an e-mail change racing the owner taking the account back, on $name',
  (engine) => {
    let env: MailingApp;
    let app: FastifyInstance;
    let ip = 0;
    const nextIp = () => `10.154.${Math.floor(++ip / 250)}.${ip % 250}`;

    beforeAll(async () => {
      env = await openMailingApp(engine);
      app = env.app;
    });
    afterAll(() => env.close());

    const post = (tenant: string, url: string, payload: object, token?: string) =>
      app.inject({
        method: 'POST',
        url: `/${tenant}/api/1.0${url}`,
        payload,
        headers: token ? { authorization: `Bearer ${token}` } : {},
        remoteAddress: nextIp(),
      });

    /**
     * The thief (signed in as `thiefToken`) asks, with the password, to move the account to `to`;
     * the request is parked once its password was checked while `ownerActs` runs, then goes on; its
     * link (if any) is opened. Answers what was asked and confirmed, and the account's e-mail after.
     */
    async function changeRacing(
      tenant: string,
      thiefToken: string,
      to: string,
      ownerActs: () => Promise<void>,
    ) {
      const park = parkNextPasswordCheck();
      let asked: { statusCode: number; body: string };
      try {
        const asking = post(
          tenant,
          '/user/email-change',
          { email: to, current_password: demoPassword },
          thiefToken,
        );
        await park.isParked;
        await ownerActs();
        park.release();
        asked = await asking;
      } finally {
        park.restore();
      }
      let confirmed: number | 'no link' = 'no link';
      if (asked.statusCode === 202) {
        const mail = await env.smtp.waitFor(to, 10_000, 'email-change');
        const token = /\/confirm-email\?token=([\w-]+)/.exec(mail.raw)?.[1] ?? '';
        confirmed = (await post(tenant, '/user/email-change/confirm', { token })).statusCode;
      }
      const [row] = await env.db.withOwner((sql) =>
        sql.query<{ email: string }>(
          'SELECT email FROM customers WHERE tenant_id = $1 AND lower(email) IN (lower($2), lower($3))',
          [tenant, demoEmail, to],
        ),
      );
      return { asked: asked.statusCode, confirmed, email: row?.email };
    }

    it('does not move the account by a change checked with the password the owner has just changed', async () => {
      const tenant = 'demo';
      const thief = await signedIn(app, tenant, demoEmail, demoPassword);
      const owner = await signedIn(app, tenant, demoEmail, demoPassword);
      const thiefAddress = 'ladron.cambio@fuera.test';

      const outcome = await changeRacing(tenant, thief.token, thiefAddress, async () => {
        // The owner changes the password: "every other session ends", and the e-mail change asked
        // for with the old password is to be cancelled.
        const newPassword = 'Recuperada-por-su-duena-2026';
        const changed = await post(
          tenant,
          '/change-password',
          {
            current_password: demoPassword,
            password: newPassword,
            password_confirmation: newPassword,
          },
          owner.token,
        );
        expect(changed.statusCode, changed.body).toBe(200);
      });
      // Today: { asked: 202, confirmed: 200, email: 'ladron.cambio@fuera.test' }.
      expect(outcome, "the thief's change went through after the password change").toMatchObject({
        email: demoEmail,
      });
    });

    it('does not move the account by a change asked from a session the owner has just ended', async () => {
      const tenant = '1';
      const thief = await signedIn(app, tenant, demoEmail, demoPassword);
      const owner = await signedIn(app, tenant, demoEmail, demoPassword);
      const thiefSession = JSON.parse(
        Buffer.from(thief.token.split('.')[1] ?? '', 'base64url').toString('utf8'),
      ) as { sid: string };
      const thiefAddress = 'ladron.sesion@fuera.test';

      const outcome = await changeRacing(tenant, thief.token, thiefAddress, async () => {
        // The owner ends the session they do not recognise from "Your devices".
        const ended = await post(tenant, `/sessions/${thiefSession.sid}/end`, {}, owner.token);
        expect(ended.statusCode, ended.body).toBe(200);
      });
      // Today: { asked: 202, confirmed: 200, email: 'ladron.sesion@fuera.test' }.
      expect(outcome, 'the change of an ended session went through').toMatchObject({
        email: demoEmail,
      });
    });
  },
);
