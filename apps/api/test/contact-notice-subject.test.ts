import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmail } from '../src/db/seed/demo.ts';
import { engines } from './engines.ts';
import { openMailingApp, type MailingApp } from './mailing-app.ts';
import { signedIn } from './session.ts';

/*
 * Before session 37: the notice a customer gets after the contact form ("we received your message")
 * is sent from the organisation's own address (mail_from, signed by its domain) and still repeats,
 * word for word, a field the customer typed: the subject (200 characters, one line). Session 36
 * took the message text out of that notice because "a copy of any text was phishing signed by the
 * organisation's domain, replayable with its signature" (SECURITY.md, contact-mail-forgery.test.ts)
 * — but the subject is the same thing with a shorter budget: a whole phishing line with its link
 * fits in it (contact/service.ts: `paragraphs: [m.copyIntro, body.subject, m.copyNote]` and the
 * text part `[m.copyIntro, body.subject, ...]`).
 *
 * Why it matters: anyone with a portal account (5 per hour) gets a DKIM-signed e-mail from the
 * gym's / school's real address, in its branded frame, that says "URGENTE: su cuenta será
 * bloqueada. Verifique sus datos en https://evil.example/login" — and can replay it to any member
 * with the signature intact.
 *
 * Right behaviour: the notice repeats nothing the customer wrote (say "your message of <date>"
 * or a reference number), exactly as it already does for the message text.
 */
describe.each(engines())("the contact form's notice to the customer on $name", (engine) => {
  let opened: MailingApp;
  beforeAll(async () => {
    opened = await openMailingApp(engine);
  });
  afterAll(() => opened.close());

  it("does not repeat a phishing line typed as the subject in the notice sent from the organisation's address", async () => {
    const me = await signedIn(opened.app, 'demo', demoEmail);
    const pitch =
      'URGENTE: su cuenta sera bloqueada. Verifique sus datos en https://evil.example/login';
    const res = await me.post('/contact', {
      name: 'Soporte Gimnasio Demo Fitness',
      company: 'Departamento de seguridad',
      subject: pitch,
      message: 'Hola',
      acceptPrivacy: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    const copy = await opened.smtp.waitFor(demoEmail, 10_000);
    // It is the organisation's own notice (its sender, signed by its domain)...
    expect(copy.raw).toMatch(/^From: .*no-reply@demofitness\.test/im);
    // ...and it must carry none of the customer's words (today: the whole pitch, link included).
    expect(copy.raw).not.toContain('https://evil.example/login');
    expect(copy.raw).not.toContain('su cuenta sera bloqueada');
  }, 60_000);
});
