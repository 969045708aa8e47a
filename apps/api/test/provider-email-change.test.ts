import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/modules/admin/api-keys.ts';
import { demoEmail } from '../src/db/seed/demo.ts';
import { engines } from './engines.ts';
import { openMailingApp, type MailingApp } from './mailing-app.ts';

/**
 * Session 34's accounts review: the sign-in e-mail changed by the provider (PUT /admin/customers:
 * the office corrects a wrong or old address) must close the old mailbox's way in, as a change
 * the customer confirms does (test/email-change-and-links.test.ts). Failed on the code it was
 * written against.
 */
describe.each(engines())(
  "links to the old address after the provider's change, on $name",
  (engine) => {
    let env: MailingApp;
    let app: FastifyInstance;
    let key = '';
    let ip = 0;
    const nextIp = () => `10.62.${Math.floor(++ip / 250)}.${ip % 250}`;

    beforeAll(async () => {
      env = await openMailingApp(engine);
      app = env.app;
      key = (await env.db.withTenant('demo', (sql) => createApiKey(sql, 'review'))).key;
    });
    afterAll(async () => env.close());

    const post = (url: string, payload: object) =>
      app.inject({
        method: 'POST',
        url: `/demo/api/1.0${url}`,
        payload,
        remoteAddress: nextIp(),
      });

    it("spends the old mailbox's sign-in and reset links when the provider moves the account to a new address", async () => {
      // 1. Whoever reads the old mailbox (a former employee, a typo the office made) holds a
      //    sign-in link and a reset link, both asked for on the sign-in screen (202 for anyone).
      expect((await post('/sign-in-link', { email: demoEmail })).statusCode).toBe(202);
      const linkMail = await env.smtp.waitFor(demoEmail, 10_000, 'sign-in-link');
      const linkToken = /sign-in-link\?token=([\w-]+)/.exec(linkMail.raw)?.[1] ?? '';
      expect((await post('/forgot-password', { email: demoEmail })).statusCode).toBe(202);
      const resetMail = await env.smtp.waitFor(demoEmail, 10_000, undefined, 'reset-password');
      const resetToken = /reset-password\?token=([\w-]+)/.exec(resetMail.raw)?.[1] ?? '';
      expect(linkToken).not.toBe('');
      expect(resetToken).not.toBe('');

      // 2. The provider's system moves the customer to the right address.
      const [customer] = await env.db.withTenant('demo', (sql) =>
        sql.query<{ code: string; name: string }>(
          'SELECT code, name FROM customers WHERE lower(email) = lower($1)',
          [demoEmail],
        ),
      );
      const moved = await app.inject({
        method: 'PUT',
        url: '/demo/api/1.0/admin/customers',
        headers: { authorization: `Bearer ${key}` },
        payload: {
          customers: [
            {
              code: customer?.code,
              email: 'owner.right.address@demo.test',
              name: customer?.name,
              override_portal_changes: true,
            },
          ],
        },
      });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(moved.json()).toMatchObject({ updated: 1 });

      // 3. The old mailbox's links must no longer open the account nor set its password.
      const redeemed = await post('/sign-in-link/redeem', { token: linkToken });
      const reset = await post('/reset-password', {
        token: resetToken,
        email: demoEmail,
        password: 'Hijacked-Passw0rd-77',
        password_confirmation: 'Hijacked-Passw0rd-77',
      });
      expect
        .soft(redeemed.statusCode, `sign-in link of the old address: ${redeemed.body}`)
        .toBe(422);
      expect.soft(reset.statusCode, `reset link of the old address: ${reset.body}`).toBe(422);
    });
  },
);
