import type { FastifyInstance } from 'fastify';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  beforeAll(async () => {
    ({ app, close } = await openTestApp(engine, { PUBLIC_URL: 'http://localhost:3000' }));
  });
  afterAll(async () => close());

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
});
