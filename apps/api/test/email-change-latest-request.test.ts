import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmail, demoPassword } from '../src/db/seed/demo.ts';
import { engines } from './engines.ts';
import { openMailingApp, type MailingApp } from './mailing-app.ts';
import { signedIn } from './session.ts';

const tokenIn = (raw: string): string => {
  const token = /\/confirm-email\?token=([\w-]+)/.exec(raw)?.[1];
  if (!token) throw new Error(`no confirmation link in:\n${raw.slice(0, 1200)}`);
  return token;
};

/**
 * Review (account screens): a customer who asks for an e-mail change and then asks again (a typo
 * in the first address, noticed at once) replaces the first request. The first link, in a mailbox
 * that may be a stranger's, must no longer move the account there.
 */
describe.each(engines())('a replaced e-mail change on $name', (engine) => {
  let env: MailingApp;
  let app: FastifyInstance;
  let me: Awaited<ReturnType<typeof signedIn>>;

  beforeAll(async () => {
    env = await openMailingApp(engine);
    app = env.app;
    me = await signedIn(app, 'demo');
  });
  afterAll(async () => env.close());

  const request = (email: string) =>
    app.inject({
      method: 'POST',
      url: '/demo/api/1.0/user/email-change',
      headers: { authorization: `Bearer ${me.token}` },
      payload: { email, current_password: demoPassword },
    });
  const confirm = (token: string) =>
    app.inject({
      method: 'POST',
      url: '/demo/api/1.0/user/email-change/confirm',
      payload: { token },
      remoteAddress: '10.77.1.1',
    });

  it('no longer confirms the first address once the customer asked for another one', async () => {
    const typo = 'laura.garcai@demo.test';
    const meant = 'laura.garcia@demo.test';
    expect((await request(typo)).statusCode).toBe(202);
    const first = tokenIn((await env.smtp.waitFor(typo, 10_000, 'email-change')).raw);
    expect((await request(meant)).statusCode).toBe(202);
    const second = tokenIn((await env.smtp.waitFor(meant, 10_000, 'email-change')).raw);

    // Whoever reads the mistyped mailbox opens the link they were sent.
    const stale = await confirm(first);
    expect(stale.statusCode, stale.body).toBe(422);
    expect(stale.json<{ errors: Record<string, string[]> }>().errors.token).toEqual([
      'invalid_token',
    ]);
    // The address the customer meant still works.
    const done = await confirm(second);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ email: meant });
    expect(demoEmail).not.toBe(meant);
  });
});
