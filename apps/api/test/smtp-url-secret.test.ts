import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { errorForLog } from '../src/lib/log-redaction.ts';

/*
 * Secrets-in-logs review (session 35): production is given SMTP_URL=smtps://<user>:<password>@
 * <host>:465 with the password pasted as the provider gave it. Generated SMTP passwords often hold
 * `/` or `+` (Amazon SES' are base64): the URL does not parse. config.ts checked only the scheme,
 * so the server started; at the first e-mail nodemailer threw a TypeError ERR_INVALID_URL carrying
 * `input`, the whole SMTP_URL, and the portal's log line of the failure (pino copies an error's
 * enumerable properties) held the SMTP password, at every e-mail.
 * Now the server refuses to start, naming the variable and not its value; and a log line keeps of
 * an error only its type, message, stack and a few facts, never such properties.
 */
describe('an SMTP_URL with an unencoded password', () => {
  const password = `BKx9/${randomBytes(18).toString('base64url')}+Qw`;
  const url = `smtps://AKIAEXAMPLEUSER:${password}@email-smtp.eu-west-1.amazonaws.com:465`;

  it('is refused at start, saying which variable and not what it holds', () => {
    let message = '';
    try {
      loadConfig({ SMTP_URL: url });
    } catch (error) {
      message = error instanceof Error ? error.message : String(error);
    }
    expect(message).toMatch(/SMTP_URL: is not a valid URL/);
    expect(message).not.toContain(password);
  });

  it('never reaches a log line through the error that quotes it', () => {
    let thrown: unknown;
    try {
      new URL(url);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toHaveProperty('input', url);
    expect(JSON.stringify(errorForLog(thrown))).not.toContain(password);
    // A URL with its credentials quoted in a message keeps only the rest.
    const quoted = new Error(`connect failed: smtp://user:${password.replace(/\//g, '')}@host:25`);
    expect(JSON.stringify(errorForLog(quoted))).not.toContain(password.replace(/\//g, ''));
  });
});
