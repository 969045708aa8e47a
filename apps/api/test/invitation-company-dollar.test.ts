import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { createApiKey } from '../src/modules/admin/api-keys.ts';
import { createInvitationSender } from '../src/modules/ingestion/invitations.ts';
import type { Mailer } from '../src/modules/mail/mailer.ts';
import { adminCommand } from './admin-run.ts';
import { buildTestApp, engines } from './engines.ts';

/*
 * What is wrong: the invitation e-mail puts the tenant's company name into its texts with
 * `s.replaceAll('{company}', values.company)` (apps/api/src/modules/ingestion/messages.ts,
 * invitationTexts): a plain-string replacement, so `$$`, `$&`, `` $` `` and `$'` in the name the
 * operator set (`tenant update --company-name`, which accepts them) are read as patterns. A club
 * called "Ca$$h Fitness" is "Ca$h Fitness" in the customer's very first e-mail (subject, heading
 * and text), and `$'` pulls the rest of the sentence into the name.
 * SECURITY.md: text put into an e-mail "is inserted as it is, never read as a `$` pattern"; every
 * other template was fixed with a replacer function (session 36), this one was missed.
 * Fix: `.replaceAll('{company}', () => values.company)` (and the same for `{days}`).
 */
describe.each(engines())('the invitation e-mail with an odd company name on $name', (engine) => {
  let db: Database;
  let app: Awaited<ReturnType<typeof buildTestApp>>;
  let key: string;
  const sent: { subject: string; text: string; html: string }[] = [];
  const mailer: Mailer = {
    async send(mail) {
      sent.push({
        subject: String(mail.subject),
        text: String(mail.text),
        html: String(mail.html),
      });
    },
  };

  beforeAll(async () => {
    db = await engine.open();
    app = await buildTestApp(db);
    key = (await db.withTenant('demo', (sql) => createApiKey(sql, 'review3'))).key;
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  it('names the company in the invitation exactly as the operator wrote it, `$` included', async () => {
    const company = "Ca$$h Fitness $' Club";
    const updated = await adminCommand(db)(
      'tenant',
      'update',
      '--id',
      'demo',
      '--company-name',
      company,
    );
    expect(updated.code, updated.err).toBe(0);

    const res = await app.inject({
      method: 'PUT',
      url: '/demo/api/1.0/admin/customers',
      headers: { authorization: `Bearer ${key}` },
      payload: {
        customers: [
          { code: 'R3-DOLLAR', email: 'dollar@review3.test', name: 'Ana', language: 'en' },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ invited: 1 });

    expect(await createInvitationSender({ db, mailer }).sendTenant('demo')).toBe(1);
    const [mail] = sent;
    // Today: "Your access to the Ca$h Fitness  online office Club online office".
    expect(mail?.subject).toBe(`Your access to the ${company} online office`);
    expect(mail?.text).toContain(`${company} has given you access to its online office`);
  });
});
