import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmail, demoPassword, secondEmail } from '../src/db/seed/demo.ts';
import { createApiKey } from '../src/modules/admin/api-keys.ts';
import { engines } from './engines.ts';
import { openMailingApp, type MailingApp } from './mailing-app.ts';
import { signedIn } from './session.ts';

/*
 * What is wrong: two e-mails still put outside text into their template with
 * `String.prototype.replace(placeholder, value)` where `value` is a plain string, so `$&`, `` $` ``,
 * `$'` and `$$` in it are read as replacement patterns, not as text:
 *   - the fiscal-data rejection: `m.reason.replace('{reason}', reason)`
 *     (apps/api/src/modules/fiscal-data/decision-mail.ts:32) — `reason` is the organisation's text
 *     sent through the provider API;
 *   - "was this you?": `.replace('{device}', described)` (apps/api/src/modules/auth/new-device-mail.ts:40)
 *     — `described` is the browser name bowser reads from the User-Agent header, which for an
 *     unknown agent is whatever stands before its first `/`.
 * SECURITY.md promises the opposite since session 36 ("text from a customer or the provider put
 * into an e-mail ... is inserted as it is, never read as a `$` pattern"); the other templates were
 * fixed with a replacer function (`.replace('{x}', () => value)`), these two were missed.
 *
 * Why it matters: the customer reads another text than the one written — `$&` prints the
 * placeholder, `$'` pulls in the rest of the template (and its next placeholder, which is then
 * filled in the wrong place), `$$` loses a dollar sign. In the security notice the sender of the
 * User-Agent decides what the owner's alert says around the device.
 *
 * Right behaviour: the value appears verbatim: `.replace('{reason}', () => reason)` and
 * `.replace('{device}', () => described)` (and the same for `{network}`).
 */
describe.each(engines())('outside text in e-mail templates on $name', (engine) => {
  let env: MailingApp;
  beforeAll(async () => {
    env = await openMailingApp(engine);
  });
  afterAll(() => env.close());

  it("puts the organisation's rejection reason into the e-mail as written, `$` patterns included", async () => {
    const me = await signedIn(env.app, 'demo', demoEmail);
    const key = (await env.db.withTenant('demo', (sql) => createApiKey(sql, 'review'))).key;
    const asked = await me.post('/user/fiscal-data-requests', {
      invoice_name: 'García Martín Consultoría SL',
      nif: 'B12345674',
      address: 'Calle de Alcalá 200',
      city: 'Madrid',
      country: 'España',
    });
    expect(asked.statusCode, asked.body).toBe(201);
    const id = asked.json<{ pending: { id: string } }>().pending.id;
    const reason = "Falta la tasa de 5 US$' y el modelo 036; cita el código $& en tu respuesta";
    const decided = await env.app.inject({
      method: 'POST',
      url: `/demo/api/1.0/admin/fiscal-data-requests/${id}/decision`,
      headers: { authorization: `Bearer ${key}` },
      payload: { decision: 'rejected', reason },
    });
    expect(decided.statusCode, decided.body).toBe(200);
    const mail = await env.smtp.waitFor(demoEmail, 10_000, 'fiscal-data-rejected');
    const escaped = reason.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
    // The text part says exactly what the organisation wrote (today `$'` and `$&` are expanded).
    expect(mail.raw).toContain(`: ${reason}`);
    // And so does the HTML part (escaped as HTML).
    expect(mail.raw).toContain(escaped);
    expect(mail.raw).not.toContain('{reason}');
  }, 60_000);

  it('names no browser its sender made up in the new-sign-in alert, and keeps the network whole', async () => {
    const login = (userAgent: string, from: string) =>
      env.app.inject({
        method: 'POST',
        url: '/1/api/1.0/login',
        payload: { email: secondEmail, password: demoPassword },
        headers: { 'user-agent': userAgent },
        remoteAddress: from,
      });
    // The account's first browser: no notice for it.
    const first = await login(
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      '83.45.120.1',
    );
    expect(first.statusCode, first.body).toBe(200);
    // A browser never used before, whose made-up name (bowser read it from the agent) holds
    // `$'`: before session 37 the alert said "Navegador, red 192.0.2.*.Seguro 7"; then it said the
    // sender's own words. Only a browser bowser knows is named now.
    const stranger = await login("Navegador$'Seguro/7 x", '192.0.2.10');
    expect(stranger.statusCode, stranger.body).toBe(200);
    const mail = await env.smtp.waitFor(secondEmail, 10_000, 'new-device');
    expect(mail.raw).not.toContain('Navegador');
    expect(mail.raw).not.toContain('Seguro');
    expect(mail.raw).toContain('un navegador desconocido');
    expect(mail.raw).toContain('192.0.2.*');
    expect(mail.raw).not.toContain('{network}');
  }, 60_000);
});
