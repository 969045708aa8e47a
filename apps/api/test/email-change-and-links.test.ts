import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmail, demoPassword, secondEmail } from '../src/db/seed/demo.ts';
import { engines } from './engines.ts';
import { openMailingApp, type MailingApp } from './mailing-app.ts';
import { signedIn } from './session.ts';

/**
 * Links and changes that must not outlive a change of the sign-in e-mail or of the password
 * (session 33's review; each failed before): a reset or sign-in link mailed to the old address no
 * longer opens the account once the new one is confirmed, and an e-mail change asked for with the
 * old password is cancelled by a password change.
 */
describe.each(engines())('links to the old address after an e-mail change on $name', (engine) => {
  let env: MailingApp;
  let app: FastifyInstance;
  let ip = 0;
  const nextIp = () => `10.77.${Math.floor(++ip / 250)}.${ip % 250}`;

  beforeAll(async () => {
    env = await openMailingApp(engine);
    app = env.app;
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

  /** Asks, with the password, to move the account to `email`; answers the link's token. */
  const askEmailChange = async (token: string, email: string) => {
    const asked = await post(
      '/user/email-change',
      { email, current_password: demoPassword },
      token,
    );
    expect(asked.statusCode, asked.body).toBe(202);
    const mail = await env.smtp.waitFor(email, 10_000, 'email-change');
    return /confirm-email\?token=([\w-]+)/.exec(mail.raw)?.[1] ?? '';
  };

  it('spends the reset and sign-in links of the old address once the new one is confirmed', async () => {
    // 1. Whoever reads the old mailbox asks for a reset link and a sign-in link (202 for anyone).
    expect((await post('/forgot-password', { email: demoEmail })).statusCode).toBe(202);
    const resetMail = await env.smtp.waitFor(demoEmail, 10_000);
    const resetToken = /reset-password\?token=([\w-]+)/.exec(resetMail.raw)?.[1] ?? '';
    expect(resetToken).not.toBe('');
    expect((await post('/sign-in-link', { email: demoEmail })).statusCode).toBe(202);
    const linkMail = await env.smtp.waitFor(demoEmail, 10_000, 'sign-in-link');
    const linkToken = /sign-in-link\?token=([\w-]+)/.exec(linkMail.raw)?.[1] ?? '';
    expect(linkToken).not.toBe('');

    // 2. The owner moves the account to a new address, with the password, and confirms it.
    const me = await signedIn(app, 'demo');
    const confirmToken = await askEmailChange(me.token, 'owner.new@demo.test');
    const confirmed = await post('/user/email-change/confirm', { token: confirmToken });
    expect(confirmed.statusCode, confirmed.body).toBe(200);

    // 3. The old mailbox's sign-in link must no longer open the account...
    const redeemed = await post('/sign-in-link/redeem', { token: linkToken });
    // ...and its reset link must no longer set the password (and end the owner's sessions).
    const reset = await post('/reset-password', {
      token: resetToken,
      email: demoEmail,
      password: 'Hijacked-Passw0rd-77',
      password_confirmation: 'Hijacked-Passw0rd-77',
    });
    expect.soft(redeemed.statusCode, `sign-in link of the old address: ${redeemed.body}`).toBe(422);
    expect.soft(reset.statusCode, `reset link of the old address: ${reset.body}`).toBe(422);
  });
  it('cancels a waiting e-mail change when the owner follows the notice and changes the password', async () => {
    // 1. A thief who has the password (and so a session) asks to move the account to their address.
    const thief = await signedIn(app, 'demo', secondEmail);
    const confirmToken = await askEmailChange(thief.token, 'thief@evil.example');
    // 2. The owner gets the notice ("if it was not you, change your password now") and does so,
    //    which also ends every other session (the thief's).
    await env.smtp.waitFor(secondEmail, 10_000, 'email-change-notice');
    const owner = await signedIn(app, 'demo', secondEmail);
    const changed = await post(
      '/change-password',
      {
        current_password: demoPassword,
        password: 'Owner-New-Passw0rd-2026',
        password_confirmation: 'Owner-New-Passw0rd-2026',
      },
      owner.token,
    );
    expect(changed.statusCode, changed.body).toBe(200);
    // 3. Later (within 24 h) the thief opens the link that went to their own mailbox.
    const confirmed = await post('/user/email-change/confirm', { token: confirmToken });
    expect(
      confirmed.statusCode,
      `thief's confirmation after the password change: ${confirmed.body}`,
    ).toBe(422);
  });
});
