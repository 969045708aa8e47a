import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmail, demoPassword, secondEmail } from '../src/db/seed/demo.ts';
import { engines } from './engines.ts';
import { demoOrigin, openMailingApp, type MailingApp } from './mailing-app.ts';
import { signedIn } from './session.ts';
import { softwareAuthenticator } from './software-authenticator.ts';

/**
 * a passkey's name takes line breaks, and the owner's "a passkey
 * was added" e-mail quotes it.
 *
 * The contract's one-line fields take no line break (packages/contract/src/texts.ts `requiredLine`:
 * one in the contact form's name forged a sender line in an e-mail, session 36; one in a fiscal
 * name a "NIF: …" line in the PDF, session 39). `ZPasskeyName` (contract passkeys.ts) is only
 * trimmed and bounded: `\n`, NEL, U+2028 pass. Whoever adds a passkey (a thief with the phished
 * password, SECURITY.md "Step-up") names it, and the alarm the owner gets ("a passkey was added …
 * «{name}» …", security-mail.ts) prints the name as lines of its own in the text part: the thief
 * writes, in the portal's own e-mail, a line telling the owner it was the organisation and nothing
 * needs doing. The name is shown in "your passkeys" on several lines as well.
 *
 * Now (session 39): the name is one line (`requiredLine(60)`): 422 `invalid_characters`, on adding and on
 * renaming.
 */
describe.each(engines())("a passkey's name on $name", (engine) => {
  let env: MailingApp;
  let app: FastifyInstance;
  let origin = '';
  let ip = 0;
  const nextIp = () => `10.156.${Math.floor(++ip / 250)}.${ip % 250}`;

  beforeAll(async () => {
    env = await openMailingApp(engine);
    app = env.app;
    origin = await demoOrigin(env.db);
  });
  afterAll(async () => env.close());

  const post = (url: string, payload: object, token: string) =>
    app.inject({
      method: 'POST',
      url: `/demo/api/1.0${url}`,
      payload,
      headers: { authorization: `Bearer ${token}` },
      remoteAddress: nextIp(),
    });

  /** Adds a passkey named `name` with a new software authenticator. */
  const addPasskey = async (token: string, name: string) => {
    const options = await post(
      '/passkeys/register/options',
      { current_password: demoPassword },
      token,
    );
    expect(options.statusCode, options.body).toBe(200);
    return post(
      '/passkeys/register',
      { credential: softwareAuthenticator(origin).create(options.json()), name },
      token,
    );
  };
  const names = async (token: string) =>
    (
      await app.inject({
        method: 'GET',
        url: '/demo/api/1.0/passkeys',
        headers: { authorization: `Bearer ${token}` },
      })
    )
      .json<{ passkeys: { id: string; name: string }[] }>()
      .passkeys.map((p) => p.name);
  const lineBreak = /[\r\n\u0085\u2028\u2029]/;

  it('writes no line of the name into the "passkey added" e-mail', async () => {
    const thief = await signedIn(app, 'demo', demoEmail);
    const forged = 'Fue el soporte de Demo: no hagas nada';
    const added = await addPasskey(thief.token, `Móvil».\n\n${forged}. «Ok`);
    let forgedLine = false;
    if (added.statusCode === 201) {
      const mail = await env.smtp.waitFor(demoEmail, 10_000, 'passkey-added');
      forgedLine = new RegExp(`^${forged}`, 'm').test(mail.raw);
    }
    // Today: { added: 201, forgedLine: true, namesOnSeveralLines: 1 }.
    expect({
      added: added.statusCode,
      forgedLine,
      namesOnSeveralLines: (await names(thief.token)).filter((n) => lineBreak.test(n)).length,
    }).toEqual({ added: 422, forgedLine: false, namesOnSeveralLines: 0 });
  });

  it('keeps a renamed passkey on one line', async () => {
    const owner = await signedIn(app, 'demo', secondEmail);
    const added = await addPasskey(owner.token, 'Portátil');
    expect(added.statusCode, added.body).toBe(201);
    const { id } = added.json<{ id: string }>();
    const renamed = await post(
      `/passkeys/${id}/rename`,
      { name: 'Portátil\u2028De confianza' },
      owner.token,
    );
    // Today: { renamed: 200, namesOnSeveralLines: 1 }.
    expect({
      renamed: renamed.statusCode,
      namesOnSeveralLines: (await names(owner.token)).filter((n) => lineBreak.test(n)).length,
    }).toEqual({ renamed: 422, namesOnSeveralLines: 0 });
  });
});
