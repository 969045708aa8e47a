import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmail, demoPassword } from '../src/db/seed/demo.ts';
import { engines } from './engines.ts';
import { demoOrigin, openMailingApp, type MailingApp } from './mailing-app.ts';
import { signedIn } from './session.ts';
import { softwareAuthenticator } from './software-authenticator.ts';

/**
 * Accounts review (session 35): removing a lost phone's passkey ends the sessions it opened, but
 * not what those sessions asked for.
 *
 * Scenario: a customer without a password (signs in by passkey, link or Google) loses their phone.
 * Whoever holds it signs in with its passkey (unlocking the phone) and, being freshly signed in
 * (the step-up accepts a sign-in within 10 minutes from a customer without a password), asks to
 * change the sign-in e-mail to an address of theirs. The owner gets the notice and does what the
 * portal offers for a lost phone: removes its passkey from the laptop (which, since migration 035,
 * signs the phone out) and ends every other session. The notice's advice, "change your password",
 * is not open to a customer who has none.
 *
 * Today: the e-mail change asked for from the phone's session is still waiting; the thief opens
 * the link from their own mailbox (no session needed), the account's e-mail becomes theirs, and a
 * password reset to that address then gives them the account (and removes the owner's passkeys).
 *
 * Should: ending a session (removing the passkey that opened it, ending it from "Your devices",
 * "end every other session", the "was this you?" link) spends the e-mail changes it asked for
 * (e.g. record the session in `email_changes`, and spend them in `revokeSessionsOfPasskey` /
 * `revokeSessionOfCustomer` / `revokeOthersOfCustomer`), or simply every change waiting.
 */
describe.each(engines())('an e-mail change asked for from a lost phone, on $name', (engine) => {
  let env: MailingApp;
  let app: FastifyInstance;
  let origin = '';
  let ip = 0;
  const nextIp = () => `10.132.${Math.floor(++ip / 250)}.${ip % 250}`;

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

  it("does not let the lost phone's e-mail change go through once its passkey is removed", async () => {
    // The owner, on the laptop, adds the phone's passkey; the account has no password (as one
    // who signs in by passkey, link or Google only).
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
    await env.db.withOwner((sql) =>
      sql.query(
        "UPDATE customers SET password_hash = NULL WHERE tenant_id = 'demo' AND email = $1",
        [demoEmail],
      ),
    );

    // The phone is lost; whoever holds it signs in with its passkey and asks for a new e-mail.
    const challenge = await post('/passkeys/sign-in/options', {});
    const onPhone = await post('/passkeys/sign-in', { credential: phone.get(challenge.json()) });
    expect(onPhone.statusCode, onPhone.body).toBe(200);
    const phoneToken = onPhone.json<{ access_token: string }>().access_token;
    const thiefAddress = 'holder-of-the-phone@evil.example';
    const asked = await post('/user/email-change', { email: thiefAddress }, phoneToken);
    expect(asked.statusCode, asked.body).toBe(202);
    await env.smtp.waitFor(demoEmail, 10_000, 'email-change-notice');
    const link = await env.smtp.waitFor(thiefAddress, 10_000, 'email-change');
    const token = /\/confirm-email\?token=([\w-]+)/.exec(link.raw)?.[1] ?? '';

    // The owner, told, removes the phone's passkey from the laptop and ends every other session.
    const [passkey] = (await laptop.get('/passkeys')).json<{ passkeys: { id: string }[] }>()
      .passkeys;
    const removed = await post(`/passkeys/${passkey?.id ?? ''}/delete`, {}, laptop.token);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await post('/sessions/end-others', {}, laptop.token)).statusCode).toBeLessThan(300);
    const phoneSessions = await app.inject({
      method: 'GET',
      url: '/demo/api/1.0/sessions',
      headers: { authorization: `Bearer ${phoneToken}` },
    });
    expect(phoneSessions.statusCode, 'the phone is signed out').toBe(401);

    // The holder of the phone opens the link from their own mailbox.
    const confirmed = await post('/user/email-change/confirm', { token });
    expect(
      confirmed.statusCode,
      `the change asked for from the removed passkey's session went through: ${confirmed.body}`,
    ).toBe(422);
    const [row] = await env.db.withOwner((sql) =>
      sql.query<{ email: string }>(
        "SELECT email FROM customers WHERE tenant_id = 'demo' AND id = $1",
        [laptop.user.id],
      ),
    );
    expect(row?.email).toBe(demoEmail);
  });
});
