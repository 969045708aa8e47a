import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmail } from '../src/db/seed/demo.ts';
import { engines } from './engines.ts';
import { openMailingApp, type MailingApp } from './mailing-app.ts';
import { signedIn } from './session.ts';

/**
 * SECURITY.md: "The contact form's one-line fields (name, company, subject) refuse a line break
 * (422 invalid_characters)". The check (`line()` in packages/contract/src/account.ts) refuses
 * \r, \n, U+2028 and U+2029, and input-safety refuses VT and FF, but NEL (U+0085, NEXT LINE — a
 * mandatory line break in Unicode, UAX #14 class NL) is neither a C0 control nor in that list: it
 * passes, and is written in the middle of the sender line of the organisation's e-mail.
 */
describe.each(engines())("the contact form's one-line fields on $name", (engine) => {
  let opened: MailingApp;
  beforeAll(async () => {
    opened = await openMailingApp(engine);
  });
  afterAll(() => opened.close());

  it.each(['name', 'company', 'subject'])(
    'refuses a NEL (U+0085) line break in %s',
    async (field) => {
      const me = await signedIn(opened.app, 'demo', demoEmail);
      const body: Record<string, unknown> = {
        name: 'María López',
        company: 'Acme',
        subject: 'Cambio de IBAN',
        message: 'Hola',
        acceptPrivacy: true,
      };
      body[field] = `${String(body[field])}\u0085Asunto: cambio de cuenta bancaria`;
      const res = await me.post('/contact', body);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toMatchObject({ errors: { [field]: ['invalid_characters'] } });
    },
  );
});
