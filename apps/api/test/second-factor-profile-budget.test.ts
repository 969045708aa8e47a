import type { FastifyInstance } from 'fastify';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtp } from '../../../tools/test-smtp.ts';
import { demoEmail, demoPassword } from '../src/db/seed/demo.ts';
import { engines, openTestApp } from './engines.ts';
import { signedIn } from './session.ts';

/**
 * A stolen access token (a device left signed in, a token read from a page) calls
 * `POST /second-factor/disable` with wrong codes. Every call spends the account's budget of
 * second-factor codes (`2fa:acct`, 10 per 15 minutes), which is also the budget of the owner's
 * sign-in codes: the owner, signing in on any device with the password and a right code (or a
 * recovery code), gets 429 for as long as the thief keeps calling. The step-up budget was split
 * per session for exactly this reason (session 35: "a thief's stolen session spends its own").
 */
describe.each(engines())('the code budget and a stolen session on $name', (engine) => {
  let app: FastifyInstance;
  let close: () => Promise<void>;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;

  beforeAll(async () => {
    smtp = await startSmtp();
    ({ app, close } = await openTestApp(engine, { PUBLIC_URL: 'http://localhost:3000' }));
  });
  afterAll(async () => {
    await close();
    await smtp.close();
  });

  it("does not let a stolen session's wrong codes keep the owner from signing in", async () => {
    const owner = await signedIn(app, 'demo');
    const setup = await owner.post('/second-factor/setup', { current_password: demoPassword });
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret } = setup.json<{ secret: string }>();
    const confirm = await owner.post('/second-factor/confirm', {
      code: await generate({ secret }),
    });
    expect(confirm.statusCode, confirm.body).toBe(200);
    const [recovery] = confirm.json<{ recovery_codes: string[] }>().recovery_codes;

    // The thief: a session of the account (here the same one), no code, no password needed.
    let refused = 0;
    for (let i = 0; i < 15; i++) {
      const res = await owner.post('/second-factor/disable', { code: '000000' });
      if (res.statusCode === 429) refused += 1;
    }
    expect(refused, 'the stolen session ran out of its guesses').toBeGreaterThan(0);

    // The owner, elsewhere: the right password, then a right (recovery) code.
    const first = await app.inject({
      method: 'POST',
      url: '/demo/api/1.0/login',
      payload: { email: demoEmail, password: demoPassword },
      remoteAddress: '10.77.1.1',
    });
    const { challenge } = first.json<{ challenge: string }>();
    expect(challenge, first.body).toBeTruthy();
    const second = await app.inject({
      method: 'POST',
      url: '/demo/api/1.0/login/second-factor',
      payload: { challenge, code: recovery },
      remoteAddress: '10.77.1.1',
    });
    expect(second.statusCode, second.body).toBe(200);
  });
  it("clears the profile's code budget that stolen sessions spent when the owner resets the password", async () => {
    // An app of its own: the test above leaves the second factor on.
    const own = await openTestApp(engine, {
      PUBLIC_URL: 'http://localhost:3000',
      SMTP_URL: smtp.url,
    });
    const app = own.app;
    // Stolen sessions: two tokens taken before the second factor was on.
    const thieves = [await signedIn(app, 'demo'), await signedIn(app, 'demo')];
    // The second factor on, from the owner's session.
    const owner = await signedIn(app, 'demo');
    const setup = await owner.post('/second-factor/setup', { current_password: demoPassword });
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret } = setup.json<{ secret: string }>();
    const on = await owner.post('/second-factor/confirm', { code: await generate({ secret }) });
    expect(on.statusCode, on.body).toBe(200);

    // The thieves spend the account's profile budget of codes with wrong ones, each its own
    // per-session budget first.
    for (const thief of thieves)
      for (let i = 0; i < 6; i++) await thief.post('/second-factor/disable', { code: '000000' });
    expect((await owner.post('/second-factor/disable', { code: '000000' })).statusCode).toBe(429);

    // The owner resets the password from the e-mailed link, which ends every session...
    const forgot = await app.inject({
      method: 'POST',
      url: '/demo/api/1.0/forgot-password',
      payload: { email: demoEmail },
      remoteAddress: '10.77.2.1',
    });
    expect(forgot.statusCode).toBe(202);
    const mail = await smtp.waitFor(demoEmail, 10_000, undefined, 'reset-password');
    const link = /(http:\/\/[^\s"<>]+\/reset-password\?token=[\w-]+&(?:amp;)?email=[^\s"<>]+)/.exec(
      mail.raw,
    )?.[1];
    const url = new URL((link ?? '').replace(/&amp;/g, '&'));
    const password = 'Nueva-clave-de-2026';
    const reset = await app.inject({
      method: 'POST',
      url: '/demo/api/1.0/reset-password',
      payload: {
        token: url.searchParams.get('token'),
        email: url.searchParams.get('email'),
        password,
        password_confirmation: password,
      },
      remoteAddress: '10.77.2.1',
    });
    expect(reset.statusCode, reset.body).toBe(200);

    // ...and drops the second factor turned on in the last hours (a thief may have turned it on).
    // Signed in again, the owner turns it on from the profile with a right code: not a 429 for
    // the thieves' wrong ones.
    const back = await signedIn(app, 'demo', demoEmail, password);
    const again = await back.post('/second-factor/setup', { current_password: password });
    expect(again.statusCode, again.body).toBe(200);
    const confirmed = await back.post('/second-factor/confirm', {
      code: await generate({ secret: again.json<{ secret: string }>().secret }),
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    await own.close();
  });
});
