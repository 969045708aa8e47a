/**
 * Before session 37 (account lifecycle review), the invitation link of a customer whose address has a letter that
 * JavaScript and PostgreSQL lower differently (`İ`, U+0130; a final capital `Σ`) never works.
 *
 * The invitation outbox stores the token's address with PostgreSQL's `lower()`
 * (auth/repository.ts `insertReset`: `lower($2)`: `İREM...` -> `irem...`) and mails the link
 * `/reset-password?token=...&email=İREM.YILMAZ@demo.test` (the address as stored). The reset then
 * compares the stored address with JavaScript's `input.email.toLowerCase()`
 * (auth/service.ts `resetPassword`: `row.email !== input.email.toLowerCase()`), which gives
 * `i̇rem...` (an `i` plus a combining dot): the genuine link from the e-mail is answered 422
 * `invalid_token`. The customer the provider invited can never set a password from it (and every
 * re-invitation fails the same way); the same holds for a reset link sent to such an address.
 *
 * Session 36 fixed the ingestion's comparison (test/ingested-email-case.test.ts) but the reset's
 * comparison still lowers in JavaScript. Right behaviour: the link mailed to the customer sets the
 * password; compare both sides with the same lowering (the database's `lower()`, as every lookup
 * of a sign-in address does).
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { createApiKey } from '../src/modules/admin/api-keys.ts';
import { hashPassword } from '../src/modules/auth/passwords.ts';
import { createInvitationSender } from '../src/modules/ingestion/invitations.ts';
import type { Mail, Mailer } from '../src/modules/mail/mailer.ts';
import { buildTestApp, engines } from './engines.ts';

const address = 'İREM.YILMAZ@demo.test';

describe.each(engines())(
  'the invitation of an address with a dotted capital I on $name',
  (engine) => {
    let db: Database;
    let app: FastifyInstance;
    let key = '';
    const mails: Mail[] = [];
    const mailer: Mailer = {
      send: async (mail) => {
        mails.push(mail);
      },
    };

    beforeAll(async () => {
      db = await engine.open();
      app = await buildTestApp(db, { PUBLIC_URL: 'http://localhost:3000' });
      key = (await db.withTenant('demo', (sql) => createApiKey(sql, 'review'))).key;
    });
    afterAll(async () => {
      await app.close();
      await db.close();
    });

    it('sets the password from the link the invitation e-mail carries', async () => {
      const created = await app.inject({
        method: 'PUT',
        url: '/demo/api/1.0/admin/customers',
        headers: { authorization: `Bearer ${key}` },
        payload: { customers: [{ code: 'TR-INV-1', email: address, name: 'İrem' }] },
      });
      expect(created.statusCode, created.body).toBe(200);
      expect(created.json()).toMatchObject({ created: 1, invited: 1 });

      expect(await createInvitationSender({ db, mailer }).sendDue()).toBe(1);
      const mail = mails.find((m) => m.to === address);
      expect(mail, 'the invitation e-mail').toBeDefined();
      // The link exactly as the e-mail carries it, read as the reset screen reads its URL.
      const href = /https?:\/\/\S+\/reset-password\?\S+/.exec(mail?.text ?? '')?.[0] ?? '';
      const link = new URL(href);
      const token = link.searchParams.get('token') ?? '';
      const email = link.searchParams.get('email') ?? '';
      expect(token).not.toBe('');
      expect(email).toBe(address);

      const reset = await app.inject({
        method: 'POST',
        url: '/demo/api/1.0/reset-password',
        payload: {
          token,
          email,
          password: 'Turquesa-Montana-93',
          password_confirmation: 'Turquesa-Montana-93',
        },
        remoteAddress: '10.77.0.1',
      });
      expect(reset.statusCode, `the invitation link: ${reset.body}`).toBe(200);
    });

    it('signs in with the address typed as the provider gave it', async () => {
      const password = 'Turquesa-Montana-94';
      const hash = await hashPassword(password);
      await db.withOwner((sql) =>
        sql.query(
          `UPDATE customers SET password_hash = $1 WHERE tenant_id = 'demo' AND code = 'TR-INV-1'`,
          [hash],
        ),
      );
      // The password is right: typed as the database lowers it, the address signs in.
      const control = await app.inject({
        method: 'POST',
        url: '/demo/api/1.0/login',
        payload: { email: 'irem.yilmaz@demo.test', password },
        remoteAddress: '10.77.0.3',
      });
      expect(control.statusCode, control.body).toBe(200);
      const login = await app.inject({
        method: 'POST',
        url: '/demo/api/1.0/login',
        payload: { email: address, password },
        remoteAddress: '10.77.0.2',
      });
      expect(login.statusCode, `sign-in with ${address}: ${login.body}`).toBe(200);
    });
  },
);
