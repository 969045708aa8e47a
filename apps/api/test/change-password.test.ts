import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPassword } from '../src/db/seed/demo.ts';
import { limits } from '../src/modules/auth/service.ts';
import { engines } from './engines.ts';
import { openMailingApp, type MailingApp } from './mailing-app.ts';
import type { startSmtp } from '../../../tools/test-smtp.ts';

/**
 * Changing the password from the profile (review #13, issue 23 "Keep my data up to date"): the
 * current password is needed, the new one follows the reset's rules, every other session ends at
 * once and this one stays; another customer's account is never touched.
 */
describe.each(engines())('changing the password on $name', (engine) => {
  let app: FastifyInstance;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let ip = 0;
  // Each test its own customer of tenant 1 or demo: the seed has two per tenant.
  const accounts = {
    first: { tenant: '1', email: 'cliente@demo.test' },
    second: { tenant: '1', email: 'segundo@demo.test' },
    third: { tenant: 'demo', email: 'cliente@demo.test' },
    fourth: { tenant: 'demo', email: 'segundo@demo.test' },
  };

  let opened: MailingApp;
  beforeAll(async () => {
    opened = await openMailingApp(engine);
    ({ app, smtp } = opened);
  });
  afterAll(() => opened.close());

  async function signIn(account: { tenant: string; email: string }, password = demoPassword) {
    const res = await app.inject({
      method: 'POST',
      url: `/${account.tenant}/api/1.0/login`,
      payload: { email: account.email, password },
      remoteAddress: `10.9.0.${++ip}`,
    });
    return { status: res.statusCode, token: res.json<{ access_token?: string }>().access_token };
  }

  const change = (tenant: string, token: string | undefined, body: object) =>
    app.inject({
      method: 'POST',
      url: `/${tenant}/api/1.0/change-password`,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      payload: body,
    });

  const balance = (tenant: string, token: string | undefined) =>
    app.inject({
      method: 'GET',
      url: `/${tenant}/api/1.0/balance`,
      headers: { authorization: `Bearer ${token}` },
    });

  const newPassword = 'Remo-de-tarde-2026';

  it('changes it with the current one, ends every other session at once and keeps this one', async () => {
    const account = accounts.first;
    const here = await signIn(account);
    const elsewhere = await signIn(account);
    expect((await balance(account.tenant, elsewhere.token)).statusCode).toBe(200);

    const res = await change(account.tenant, here.token, {
      current_password: demoPassword,
      password: newPassword,
      password_confirmation: newPassword,
    });
    expect(res.statusCode, res.body).toBe(200);

    expect((await balance(account.tenant, elsewhere.token)).statusCode).toBe(401);
    expect((await balance(account.tenant, here.token)).statusCode).toBe(200);
    expect((await signIn(account)).status).toBe(401);
    expect((await signIn(account, newPassword)).status).toBe(200);
    // The other customer of the tenant keeps the old one.
    expect((await signIn(accounts.second)).status).toBe(200);

    // The owner is told, with the way back if it was not them, and nothing that signs in.
    const mail = await smtp.waitFor(account.email);
    expect(mail.raw).toContain('Hemos cerrado la sesi');
    expect(mail.raw).toContain('(hora de Madrid)');
    expect(mail.raw).toContain('http://localhost:3000/recover-password');
    expect(mail.raw).not.toMatch(/token=|Remo-de-tarde/);
    expect(smtp.inbox.filter((m) => m.to.includes(accounts.second.email))).toHaveLength(0);
  });

  it('refuses a wrong current password with a field error, and changes nothing', async () => {
    const account = accounts.second;
    const { token } = await signIn(account);
    const res = await change(account.tenant, token, {
      current_password: 'not-the-password',
      password: newPassword,
      password_confirmation: newPassword,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ errors: { current_password: ['wrong_password'] } });
    expect((await signIn(account)).status).toBe(200);
  });

  it('applies the rules of a new password: length, confirmation, the e-mail, a common one', async () => {
    const account = accounts.third;
    const { token } = await signIn(account);
    const refused = async (password: string, confirmation = password) => {
      const res = await change(account.tenant, token, {
        current_password: demoPassword,
        password,
        password_confirmation: confirmation,
      });
      expect(res.statusCode, password).toBe(422);
      return res.json<{ errors: Record<string, string[]> }>().errors;
    };
    expect(await refused('corta')).toMatchObject({ password: ['too_short'] });
    expect(await refused(newPassword, `${newPassword}x`)).toMatchObject({
      password_confirmation: ['mismatch'],
    });
    expect((await refused('cliente-2026-largo')).password).toContain('password_contains_email');
    expect((await refused('password123')).password).toContain('password_common');
    expect((await signIn(account)).status).toBe(200);
  });

  it('needs a valid access token: none, or one of another tenant, is a 401', async () => {
    const body = {
      current_password: demoPassword,
      password: newPassword,
      password_confirmation: newPassword,
    };
    expect((await change('demo', undefined, body)).statusCode).toBe(401);
    const { token } = await signIn(accounts.fourth);
    expect((await change('1', token, body)).statusCode).toBe(401);
    expect((await signIn(accounts.fourth)).status).toBe(200);
  });

  it("throttles guesses of the current password per session and per account; a thief cannot spend the owner's", async () => {
    const account = accounts.fourth;
    const [perSession] = limits.changePerSession;
    const [perAccount] = limits.changePerAccount;
    const guess = (token: string, i: number) =>
      change(account.tenant, token, {
        current_password: `guess-${i}`,
        password: newPassword,
        password_confirmation: newPassword,
      }).then((res) => res.statusCode);
    // A thief with one stolen session spends its budget: then 429, for that session only.
    const thief = (await signIn(account)).token ?? '';
    const statuses: number[] = [];
    for (let i = 0; i <= perSession; i++) statuses.push(await guess(thief, i));
    expect(statuses.slice(0, perSession).every((s) => s === 422)).toBe(true);
    expect(statuses[perSession]).toBe(429);
    // The owner's own session still may (before: one budget per account, 429 for the owner too).
    const owner = (await signIn(account)).token ?? '';
    expect(await guess(owner, 100)).toBe(422);
    // Across sessions the account has a cap of its own.
    let spent = perSession + 1;
    let last = 0;
    while (spent <= perAccount) {
      const session = (await signIn(account)).token ?? '';
      for (let i = 0; i < perSession && spent <= perAccount; i++, spent++) {
        last = await guess(session, 200 + spent);
      }
    }
    expect(last).toBe(429);
    expect((await signIn(account)).status).toBe(200);
  });
});
