import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtp } from '../../../tools/test-smtp.ts';
import type { Database } from '../src/db/database.ts';
import { demoEmail, demoPassword, secondEmail } from '../src/db/seed/demo.ts';
import { isoToApi, todayIso } from '../src/lib/dates.ts';
import { createApiKey } from '../src/modules/admin/api-keys.ts';
import { buildTestApp, engines } from './engines.ts';
import { signedIn } from './session.ts';

/** The reset link of an e-mail (password reset or invitation), as the customer clicks it. */
function linkIn(raw: string): { link: string; token: string } {
  const match = /(http:\/\/[^\s"<>]+\/reset-password\?token=[\w-]+&(?:amp;)?email=[^\s"<>]+)/.exec(
    raw,
  );
  if (!match?.[1]) throw new Error('no link in the e-mail');
  const link = match[1].replace(/&amp;/g, '&');
  return { link, token: new URL(link).searchParams.get('token') ?? '' };
}

/**
 * Nothing that grants access is ever logged, in any mode (SECURITY.md): with the server logging
 * everything it can (`trace`), a password reset, an invitation, the reset page opened from the
 * link and a signed invoice link leave no token and no link in the log.
 */
describe.each(engines())('what the server logs on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  const lines: string[] = [];
  const logged = () => lines.join('');

  beforeAll(async () => {
    db = await engine.open();
    smtp = await startSmtp();
    app = await buildTestApp(
      db,
      {
        LOG_LEVEL: 'trace',
        SMTP_URL: smtp.url,
        PUBLIC_URL: 'http://localhost:3000',
        // The invitation outbox runs in the app, with the app's logger, as on a server.
        OUTBOX_INTERVAL_SECONDS: '0.05',
      },
      randomBytes(32),
      { write: (line) => void lines.push(line) },
    );
  });
  afterAll(async () => {
    await app.close();
    await db.close();
    await smtp.close();
  });

  /**
   * The mail server has the message before the sender's own work ends (what it logs after the
   * send): the log is read after waiting for a secret to show up, long enough for it to.
   */
  const expectNowhere = async (secrets: string[]) => {
    const leaked = () => secrets.some((s) => lines.some((l) => l.includes(s)));
    for (let i = 0; i < 30 && !leaked(); i++) await new Promise((r) => setTimeout(r, 50));
    const text = logged();
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(20);
      expect(text).not.toContain(secret);
      expect(text).not.toContain(encodeURIComponent(secret));
    }
  };

  it('logs no token of an address that names no route, API or not', async () => {
    const token = randomBytes(24).toString('base64url');
    for (const url of [`/demo/api/1.0/nothing?token=${token}`, `/no/such/page?code=${token}`]) {
      expect((await app.inject({ method: 'GET', url })).statusCode).toBeGreaterThanOrEqual(400);
    }
    expect(logged()).toContain('"msg":"request completed"');
    await expectNowhere([token]);
  });

  it('logs no password-reset token or link, also when the link is opened', async () => {
    const asked = await app.inject({
      method: 'POST',
      url: '/demo/api/1.0/forgot-password',
      payload: { email: demoEmail },
      remoteAddress: '10.61.0.1',
    });
    expect(asked.statusCode).toBe(202);
    const { link, token } = linkIn((await smtp.waitFor(demoEmail)).raw);
    // The customer opens the link: the page's request is logged like any other.
    const page = await app.inject({
      method: 'GET',
      url: new URL(link).pathname + new URL(link).search,
    });
    expect(page.statusCode).toBe(503); // no web build in the tests; the request was logged all the same
    // The log is really written, at trace level, with the requests in it.
    expect(app.log.level).toBe('trace');
    expect(logged()).toContain('"msg":"incoming request"');
    expect(logged()).toContain('/reset-password?token=[redacted]&email=[redacted]');
    await expectNowhere([token, link]);
  });

  it('logs no "was this you?" link, also when it is opened and used', async () => {
    const signIn = (ip: string) =>
      app.inject({
        method: 'POST',
        url: '/1/api/1.0/login',
        payload: { email: secondEmail, password: demoPassword },
        remoteAddress: ip,
      });
    expect((await signIn('10.61.1.1')).statusCode).toBe(200);
    // Another browser (no device cookie): the e-mail with the link that ends that session.
    expect((await signIn('10.61.1.2')).statusCode).toBe(200);
    const raw = (await smtp.waitFor(secondEmail, 10_000, 'new-device')).raw;
    const link = /(http:\/\/[^\s"<>]+\/end-session\?token=[\w-]+)/.exec(raw)?.[1] ?? '';
    const token = new URL(link).searchParams.get('token') ?? '';
    await app.inject({ method: 'GET', url: new URL(link).pathname + new URL(link).search });
    const ended = await app.inject({
      method: 'POST',
      url: '/1/api/1.0/sessions/end-by-link',
      payload: { token },
    });
    expect(ended.statusCode).toBe(200);
    expect(logged()).toContain('/end-session?token=[redacted]');
    await expectNowhere([token, link]);
  });

  it('logs no sign-in link, also when it is opened and used', async () => {
    const asked = await app.inject({
      method: 'POST',
      url: '/demo/api/1.0/sign-in-link',
      payload: { email: demoEmail },
      remoteAddress: '10.61.2.1',
    });
    expect(asked.statusCode).toBe(202);
    const raw = (await smtp.waitFor(demoEmail, 10_000, 'sign-in-link')).raw;
    const link = /(http:\/\/[^\s"<>]+\/sign-in-link\?token=[\w-]+)/.exec(raw)?.[1] ?? '';
    const token = new URL(link).searchParams.get('token') ?? '';
    await app.inject({ method: 'GET', url: new URL(link).pathname + new URL(link).search });
    const redeemed = await app.inject({
      method: 'POST',
      url: '/demo/api/1.0/sign-in-link/redeem',
      payload: { token },
    });
    expect(redeemed.statusCode).toBe(200);
    expect(logged()).toContain('/sign-in-link?token=[redacted]');
    await expectNowhere([token, link]);
  });

  it('logs no link that confirms a new sign-in e-mail, also when it is opened and used', async () => {
    const me = await signedIn(app, 'demo', secondEmail);
    const asked = await app.inject({
      method: 'POST',
      url: '/demo/api/1.0/user/email-change',
      headers: { authorization: `Bearer ${me.token}` },
      payload: { email: 'segundo.nuevo@demo.test', current_password: demoPassword },
    });
    expect(asked.statusCode, asked.body).toBe(202);
    const raw = (await smtp.waitFor('segundo.nuevo@demo.test', 10_000, 'email-change')).raw;
    const link = /(http:\/\/[^\s"<>]+\/confirm-email\?token=[\w-]+)/.exec(raw)?.[1] ?? '';
    const token = new URL(link).searchParams.get('token') ?? '';
    await app.inject({ method: 'GET', url: new URL(link).pathname + new URL(link).search });
    const confirmed = await app.inject({
      method: 'POST',
      url: '/demo/api/1.0/user/email-change/confirm',
      payload: { token },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(logged()).toContain('/confirm-email?token=[redacted]');
    await expectNowhere([token, link]);
  });

  it('logs no invitation token or link', async () => {
    const { key } = await db.withTenant('demo', (sql) => createApiKey(sql, 'logs test'));
    const email = 'invited.logs@ingestion.test';
    const res = await app.inject({
      method: 'PUT',
      url: '/demo/api/1.0/admin/customers',
      headers: { authorization: `Bearer ${key}` },
      payload: {
        customers: [
          {
            code: 'LOG-0001',
            email,
            name: 'Iker',
            last_name: 'Logs',
            nif: '12345678Z',
            language: 'eu',
          },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { link, token } = linkIn((await smtp.waitFor(email)).raw);
    await expectNowhere([token, link]);
  });

  it('logs no signed invoice link', async () => {
    const me = await signedIn(app, 'demo');
    const today = isoToApi(todayIso());
    const from = `${Number(today.slice(0, 4)) - 5}${today.slice(4)}`;
    const [latest] = (
      await me.post('/invoices', { datefrom: from, dateto: today, page: '1' })
    ).json<{
      invoices: { invoice_id: string }[];
    }>().invoices;
    const { url } = (await me.post('/invoice/pdf', { invoice_id: latest?.invoice_id })).json<{
      url: string;
    }>();
    expect((await app.inject({ method: 'GET', url })).statusCode).toBe(200);
    const signed = url.slice(url.lastIndexOf('/') + 1);
    expect(logged()).toContain('/invoice/pdf/[redacted]');
    await expectNowhere([signed, me.token]);
  });

  it('logs no signed statement or invoice archive link (issue 23, item 3)', async () => {
    const me = await signedIn(app, 'demo');
    const [latest] = (
      await me.post('/invoices', { datefrom: '20000101', dateto: '20991231', page: '1' })
    ).json<{ invoices: { invoice_id: string }[] }>().invoices;
    const statement = (
      await me.post('/documents/statement', {
        datefrom: '20250101',
        dateto: '20251231',
        format: 'csv',
      })
    ).json<{ url: string }>().url;
    const zip = (
      await me.post('/documents/invoices-zip', { invoice_ids: [latest?.invoice_id] })
    ).json<{ url: string }>().url;
    for (const url of [statement, zip]) {
      expect((await app.inject({ method: 'GET', url })).statusCode).toBe(200);
    }
    expect(logged()).toContain('/documents/statement/[redacted]');
    expect(logged()).toContain('/documents/invoices-zip/[redacted]');
    const tokenOf = (url: string) => (url.split('?')[0] ?? '').slice(url.lastIndexOf('/') + 1);
    await expectNowhere([tokenOf(statement), tokenOf(zip), me.token]);
  });
});
