import addressparser from 'nodemailer/lib/addressparser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { demoEmail } from '../src/db/seed/demo.ts';
import { adminCommand } from './admin-run.ts';
import { engines } from './engines.ts';
import { openMailingApp, type MailingApp } from './mailing-app.ts';

/*
 * What is wrong: a tenant without `mail_from` gets its e-mails sent as
 * `${tenant.company_name} <no-reply@localhost>`, a string glued together and handed to nodemailer,
 * which parses it as address syntax (apps/api/src/modules/auth/account-mail.ts:42, and the same
 * line in ingestion/invitations.ts, payments/receipt-mail.ts, auto-pay/mail.ts,
 * returned-debits/mail.ts, invoice-threads/answer-mail.ts, contact/service.ts). The company name is
 * the operator's free text (`tenant create|update --company-name`, `text(200, 1)` in
 * tenants/admin/input.ts: every character but control characters), so:
 *   - "Gym <Fit> & Co": nodemailer takes `Fit` as the address: the envelope sender is `Fit` (an
 *     SMTP relay refuses it, or the mail bounces nowhere) and the From header is
 *     `"Gym & Co no-reply@localhost" <Fit>`;
 *   - "Club Deportivo: Las Encinas": the colon opens an RFC 5322 group, the From header becomes
 *     `Club Deportivo:Las Encinas <no-reply@localhost>;` (a group is not allowed in From; Gmail and
 *     others refuse or flag such mail) and the customer sees the sender "Las Encinas";
 *   - quotes and parentheses are dropped as syntax: "Escuela "La Salle"" shows as Escuela La Salle,
 *     "Club (Remo) Norte" as Club Norte.
 * The same with the operator's own `--mail-from`: its check (`mailbox`) refuses `"` `,` `;` `\`
 * in the name but lets `:` and `(...)` through, with the same results.
 *
 * Why it matters: the password reset, the invitation, the receipts, every e-mail of the tenant
 * goes out with a broken or wrong sender (or is refused by the relay): customers cannot get in.
 *
 * Now (session 39): the sender is built as an address object (`{ name: company_name, address }`),
 * which nodemailer quotes, and `--mail-from` refuses what it cannot carry as a display name.
 */
const fromHeader = (raw: string): string => {
  const match = /^From:[ \t]*(.*(?:\r?\n[ \t].*)*)/m.exec(raw);
  if (!match?.[1]) throw new Error('no From header');
  return match[1].replace(/\r?\n[ \t]+/g, ' ');
};

describe.each(engines())("the sender of a tenant's e-mails on $name", (engine) => {
  let env: MailingApp;
  let admin: ReturnType<typeof adminCommand>;
  let ip = 0;
  const forgot = (email: string) =>
    env.app.inject({
      method: 'POST',
      url: '/demo/api/1.0/forgot-password',
      payload: { email },
      remoteAddress: `10.77.0.${++ip}`,
    });

  beforeAll(async () => {
    env = await openMailingApp(engine);
    admin = adminCommand(env.db);
  });
  afterAll(() => env.close());
  beforeEach(() => {
    env.smtp.inbox.length = 0;
  });

  it.each([
    'Gym <Fit> & Co',
    'Club Deportivo: Las Encinas',
    'Escuela "La Salle"',
    'Club (Remo) Norte',
  ])(
    'sends as the company %j from no-reply@localhost when the tenant has no mail-from',
    async (company) => {
      const set = await admin(
        'tenant',
        'update',
        '--id',
        'demo',
        '--company-name',
        company,
        '--mail-from',
        '',
      );
      expect(set.code, set.err).toBe(0);
      expect((await forgot(demoEmail)).statusCode).toBe(202);
      const mail = await env.smtp.waitFor(demoEmail);
      // The envelope sender (MAIL FROM) is the no-reply address, not a piece of the name.
      expect(mail.from).toBe('no-reply@localhost');
      // The From header is that one mailbox, named as the operator wrote the company.
      expect(addressparser(fromHeader(mail.raw))).toEqual([
        { name: company, address: 'no-reply@localhost' },
      ]);
    },
    30_000,
  );

  it.each([
    ['Club Deportivo: Las Encinas', 'no-reply@lasencinas.test'],
    ['Club (Remo) Norte', 'no-reply@remo.test'],
  ])(
    'refuses a --mail-from whose name a mail client would not read as one ("%s <%s>")',
    async (name, address) => {
      const set = await admin(
        'tenant',
        'update',
        '--id',
        'demo',
        '--mail-from',
        `${name} <${address}>`,
      );
      // Session 39: accepted, and sent as a group ("Las Encinas") or without its brackets.
      expect(set.code).not.toBe(0);
      expect(set.err).toContain('is not a sender');
    },
    30_000,
  );
});
