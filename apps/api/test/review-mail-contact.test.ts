import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmail } from '../src/db/seed/demo.ts';
import type { ReceivedMail } from '../../../tools/test-smtp.ts';
import { engines } from './engines.ts';
import { openMailingApp, type MailingApp } from './mailing-app.ts';
import { signedIn } from './session.ts';

/**
 * Review (mail): the contact form. The organisation's mailbox (secretaria@demofitness.test) gets
 * the message with the sender's identity on its first line, `name (company) <sign-in e-mail>`; the
 * customer gets a copy from the organisation's own address (mail_from).
 */
const orgMailbox = 'secretaria@demofitness.test';

/** The text/plain part of a message, as the SMTP server received it. */
const textPart = (mail: ReceivedMail): string => {
  const match = /Content-Type: text\/plain[^\n]*\n(?:[^\n]+\n)*\r?\n([\s\S]*?)\r?\n--/i.exec(
    mail.raw,
  );
  return (match?.[1] ?? mail.raw).replace(/\r\n/g, '\n');
};

describe.each(engines())('the contact form on $name', (engine) => {
  let opened: MailingApp;
  beforeAll(async () => {
    opened = await openMailingApp(engine);
  });
  afterAll(() => opened.close());

  it("does not let a line break in a one-line field (name, company) forge the sender line the organisation reads", async () => {
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
    if (res.statusCode === 422) return; // refused: nothing reaches the mailbox
    expect(res.statusCode, res.body).toBe(200);
    const mail = await opened.smtp.waitFor(orgMailbox, 10_000, undefined, 'Cambio de IBAN');
    const lines = textPart(mail).split('\n');
    // The first line names the sender; no line may be one the customer wrote to look like it.
    expect(lines.filter((l) => l.trim() === forged)).toEqual([]);
  });

  it("sends the customer's copy from the organisation's address without the text the customer wrote", async () => {
    const me = await signedIn(opened.app, 'demo', demoEmail);
    // What a spammer writes to get it signed and sent by the organisation's own domain (the copy
    // can then be replayed to anyone with its DKIM signature intact).
    const pitch = 'URGENTE: su cuenta sera bloqueada. Verifique sus datos en https://evil.example/login';
    const res = await me.post('/contact', {
      name: 'Soporte Gimnasio Demo Fitness',
      company: 'Departamento de seguridad',
      subject: 'Aviso de seguridad de su cuenta',
      message: pitch,
      acceptPrivacy: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    const copy = await opened.smtp.waitFor(demoEmail, 10_000, undefined, 'Gimnasio Demo Fitness');
    expect(copy.raw).toMatch(/^From: .*no-reply@demofitness\.test/im);
    expect(copy.raw).not.toContain('https://evil.example/login');
  });
});
