import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmail } from '../src/db/seed/demo.ts';
import type { ReceivedMail } from '../../../tools/test-smtp.ts';
import { engines } from './engines.ts';
import { openMailingApp, type MailingApp } from './mailing-app.ts';
import { signedIn } from './session.ts';

/**
 * The contact form (mail review, session 36). The organisation's mailbox (secretaria@demofitness.test)
 * gets the message with the sender's identity on its first line, `name (company) <sign-in e-mail>`;
 * the customer gets a notice from the organisation's own address (mail_from). Before session 36 a
 * line break in a one-line field wrote a forged sender line, and the notice repeated whatever the
 * customer wrote (phishing signed by the organisation's domain, replayable with its signature).
 */
const orgMailbox = 'secretaria@demofitness.test';

/** The text/plain part of a message, as the SMTP server received it. */
const textPart = (mail: ReceivedMail): string => {
  const raw = mail.raw.replace(/\r\n/g, '\n');
  const part = raw.split(/\n--[^\n]*\n/).find((p) => /^Content-Type: text\/plain/im.test(p));
  return (part ?? raw).split('\n\n').slice(1).join('\n\n');
};

describe.each(engines())('the contact form on $name', (engine) => {
  let opened: MailingApp;
  beforeAll(async () => {
    opened = await openMailingApp(engine);
  });
  afterAll(() => opened.close());

  it('does not let a line break in a one-line field (name, company) forge the sender line the organisation reads', async () => {
    const me = await signedIn(opened.app, 'demo', demoEmail);
    const forged = 'María López (Acme) <maria.lopez@example.com>';
    const res = await me.post('/contact', {
      // One-line fields: what the contact form's inputs send. The line break is accepted today.
      name: `${forged}\nAsunto: cambio de cuenta bancaria a ES9121000418450200051332\n\n\n`,
      company: 'x',
      subject: 'Cambio de IBAN',
      message: 'Por favor, usad la nueva cuenta para mis recibos.',
      acceptPrivacy: true,
    });
    // Refused: nothing reaches the mailbox (before: 201, and the forged line in the e-mail).
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ errors: { name: ['invalid_characters'] } });
    // The same message with the name on one line goes through, its sender line first.
    const fine = await me.post('/contact', {
      name: 'María López',
      company: 'x',
      subject: 'Cambio de IBAN',
      message: 'Por favor, usad la nueva cuenta para mis recibos.',
      acceptPrivacy: true,
    });
    expect(fine.statusCode, fine.body).toBe(201);
    const mail = await opened.smtp.waitFor(orgMailbox, 10_000, undefined, 'Cambio de IBAN');
    const lines = textPart(mail).split('\n');
    expect(lines[0]).toBe(`María López (x) <${demoEmail}>`);
    expect(lines.filter((l) => l.trim() === forged)).toEqual([]);
  });

  it("sends the customer's copy from the organisation's address without the text the customer wrote", async () => {
    const me = await signedIn(opened.app, 'demo', demoEmail);
    // What a spammer writes to get it signed and sent by the organisation's own domain (the copy
    // can then be replayed to anyone with its DKIM signature intact).
    const pitch =
      'URGENTE: su cuenta sera bloqueada. Verifique sus datos en https://evil.example/login';
    // The notices of the test before: the next one to this address is this message's.
    opened.smtp.inbox.splice(0);
    const res = await me.post('/contact', {
      name: 'Soporte Gimnasio Demo Fitness',
      company: 'Departamento de seguridad',
      subject: 'Aviso de seguridad de su cuenta',
      message: pitch,
      acceptPrivacy: true,
    });
    // Answered once both e-mails were handed to the SMTP server.
    expect(res.statusCode, res.body).toBe(201);
    const copy = await opened.smtp.waitFor(demoEmail, 10_000);
    // Not even the subject: it holds a phishing line as well (session 37).
    expect(copy.raw).not.toContain('Aviso de seguridad de su cuenta');
    expect(copy.raw).toMatch(/^From: .*no-reply@demofitness\.test/im);
    expect(copy.raw).not.toContain('https://evil.example/login');
  });
});
