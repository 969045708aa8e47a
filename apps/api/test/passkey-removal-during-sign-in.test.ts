import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmail, demoPassword } from '../src/db/seed/demo.ts';
import { engines } from './engines.ts';
import { demoOrigin, openMailingApp, type MailingApp } from './mailing-app.ts';
import { signedIn } from './session.ts';
import { softwareAuthenticator } from './software-authenticator.ts';

/**
 * Removing a passkey ends the sessions it opened (migration 035), also one whose sign-in was
 * checked just before the removal. A passkey sign-in checks the passkey in one transaction and
 * opens the session in another: before session 36 a removal that committed between the two ended
 * the sessions that existed then, and the new one was opened after it, alive. The session is now
 * opened only while the passkey is still the customer's (read FOR SHARE, as the password is).
 *
 * The pause: the test holds the customer row, which opening a session reads FOR SHARE and the
 * passkey check does not, so the sign-in waits right between the two while the owner removes the
 * passkey. PostgreSQL only: the two need connections of their own.
 */
describe.each(engines().filter((e) => e.name === 'postgres'))(
  'a passkey sign-in racing the removal of the passkey, on $name',
  (engine) => {
    let env: MailingApp;
    let app: FastifyInstance;
    let origin = '';
    let ip = 0;
    const nextIp = () => `10.136.${Math.floor(++ip / 250)}.${ip % 250}`;

    beforeAll(async () => {
      env = await openMailingApp(engine);
      app = env.app;
      origin = await demoOrigin(env.db);
    });
    afterAll(async () => env.close());

    const post = (url: string, payload: object, token?: string) =>
      app.inject({
        method: 'POST',
        url: `/demo/api/1.0${url}`,
        payload,
        headers: token ? { authorization: `Bearer ${token}` } : {},
        remoteAddress: nextIp(),
      });

    it('opens no session with a passkey removed while its sign-in was being checked', async () => {
      const laptop = await signedIn(app, 'demo', demoEmail);
      const phone = softwareAuthenticator(origin);
      const options = await post(
        '/passkeys/register/options',
        { current_password: demoPassword },
        laptop.token,
      );
      const added = await post(
        '/passkeys/register',
        { credential: phone.create(options.json()), name: 'Phone' },
        laptop.token,
      );
      expect(added.statusCode, added.body).toBe(201);
      const [passkey] = (await laptop.get('/passkeys')).json<{ passkeys: { id: string }[] }>()
        .passkeys;

      // Hold the customer row: the phone's sign-in passes its passkey check, then waits.
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let held!: () => void;
      const holding = new Promise<void>((resolve) => (held = resolve));
      const holder = env.db.withOwner(async (sql) => {
        await sql.query("SELECT 1 FROM customers WHERE tenant_id = 'demo' AND id = $1 FOR UPDATE", [
          laptop.user.id,
        ]);
        held();
        await gate;
      });
      await holding;
      const challenge = await post('/passkeys/sign-in/options', {});
      const onPhone = post('/passkeys/sign-in', { credential: phone.get(challenge.json()) });
      await new Promise((resolve) => setTimeout(resolve, 300));

      // The owner removes the phone's passkey meanwhile.
      const removed = await post(`/passkeys/${passkey?.id ?? ''}/delete`, {}, laptop.token).finally(
        release,
      );
      await holder;
      expect(removed.statusCode, removed.body).toBe(200);

      const answer = await onPhone;
      expect(answer.statusCode, `the phone signed in: ${answer.body}`).toBe(401);
    });
  },
);
