import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { demoEmail, secondEmail } from '../src/db/seed/demo.ts';
import { limits, signInLinkMinutes } from '../src/modules/auth/service.ts';
import { issueSignInLinkFor } from '../src/modules/auth/sign-in-links.ts';
import { buildTestApp, engines } from './engines.ts';
import { openMailingApp, type MailingApp } from './mailing-app.ts';
import type { startSmtp } from '../../../tools/test-smtp.ts';

/**
 * Sign-in by a link sent by e-mail (issue 24): the same answer for any address, a link that
 * signs in once, before it expires, on its own tenant only, and opens the path it was asked from.
 */
describe.each(engines())('sign-in links on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let ip = 0;
  const nextIp = () => `10.88.${Math.floor(++ip / 250)}.${ip % 250}`;

  let opened: MailingApp;
  beforeAll(async () => {
    opened = await openMailingApp(engine);
    ({ db, app, smtp } = opened);
  });
  afterAll(() => opened.close());

  const ask = (tenant: string, body: object, from = nextIp()) =>
    app.inject({
      method: 'POST',
      url: `/${tenant}/api/1.0/sign-in-link`,
      payload: body,
      remoteAddress: from,
    });
  const redeem = (tenant: string, token: string) =>
    app.inject({
      method: 'POST',
      url: `/${tenant}/api/1.0/sign-in-link/redeem`,
      payload: { token },
      remoteAddress: nextIp(),
    });
  /** The link of the next sign-in-link e-mail to `to` from the tenant named `company`. */
  async function linkFor(to: string, company: string): Promise<string> {
    const mail = await smtp.waitFor(to, 10_000, 'sign-in-link', company);
    const token = /\/sign-in-link\?token=([\w-]+)/.exec(mail.raw)?.[1];
    if (!token) throw new Error(`no link in:\n${mail.raw.slice(0, 1500)}`);
    expect(mail.raw).toContain('caduca en 15 minutos');
    return token;
  }
  const setOffered = (tenant: string, on: boolean) =>
    db.withOwner((sql) =>
      sql.query('UPDATE tenants SET sign_in_link = $2 WHERE id = $1', [tenant, on]),
    );

  it('answers the same for any address and e-mails a link that signs in once', async () => {
    const unknown = await ask('1', { email: 'nobody@demo.test' });
    const known = await ask('1', { email: demoEmail, remember: true });
    expect(unknown.statusCode).toBe(202);
    expect(known.statusCode).toBe(202);
    expect(known.body).toBe(unknown.body);

    const token = await linkFor(demoEmail, 'Las Encinas');
    const res = await redeem('1', token);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ access_token: string; user: { email: string }; next: string }>();
    expect(body.user.email).toBe(demoEmail);
    expect(body.next).toBe('');
    const refresh = (res.cookies as { name: string; maxAge?: number }[]).find(
      (c) => c.name === 'refresh_token',
    );
    expect(refresh?.maxAge).toBe(30 * 86_400);
    // The session says how it was opened.
    const sessions = await app.inject({
      method: 'GET',
      url: '/1/api/1.0/sessions',
      headers: { authorization: `Bearer ${body.access_token}` },
    });
    expect(
      sessions.json<{ sessions: { current: boolean; method: string }[] }>().sessions,
    ).toContainEqual(expect.objectContaining({ current: true, method: 'link' }));

    // Replayed: spent.
    const again = await redeem('1', token);
    expect(again.statusCode).toBe(422);
    expect(again.json()).toMatchObject({ errors: { token: ['invalid_token'] } });
    // Nothing went to the unknown address.
    expect(smtp.inbox.filter((m) => m.to.includes('nobody@demo.test'))).toHaveLength(0);
  });

  it('opens the path it was asked from, and refuses a path outside the app', async () => {
    const next = '/invoice-detail/F-2026-0001';
    expect((await ask('demo', { email: demoEmail, next })).statusCode).toBe(202);
    const token = await linkFor(demoEmail, 'Gimnasio');
    const res = await redeem('demo', token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ next: string }>().next).toBe(next);

    for (const bad of ['https://evil.example/x', '//evil.example', '/\\evil.example', 'home']) {
      const refused = await ask('demo', { email: demoEmail, next: bad });
      expect(refused.statusCode, bad).toBe(422);
      expect(refused.json()).toMatchObject({ errors: { next: ['invalid_format'] } });
    }
  });

  it("refuses another tenant's link and a late one", async () => {
    expect((await ask('1', { email: secondEmail })).statusCode).toBe(202);
    const token = await linkFor(secondEmail, 'Las Encinas');
    const foreign = await redeem('demo', token);
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json()).toMatchObject({ errors: { token: ['invalid_token'] } });

    await db.withOwner((sql) =>
      sql.query(
        `UPDATE sign_in_links SET expires_at = now() - interval '1 second'
          WHERE tenant_id = '1' AND used_at IS NULL`,
      ),
    );
    const late = await redeem('1', token);
    expect(late.statusCode).toBe(400);
    expect(late.json()).toEqual({ message: 'Sign-in link expired', code: 'sign_in_link_expired' });
    expect(late.cookies).toEqual([]);
  });

  it('signs in once when two tabs redeem the same link at the same moment', async () => {
    expect((await ask('demo', { email: secondEmail })).statusCode).toBe(202);
    const token = await linkFor(secondEmail, 'Gimnasio');
    const answers = await Promise.all([redeem('demo', token), redeem('demo', token)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 422]);
  });

  it('is refused, and sends nothing, where the operator turned it off', async () => {
    await setOffered('demo', false);
    // A new instance: the running one keeps a tenant's settings for up to 30 s.
    const fresh = await buildTestApp(db, {
      PUBLIC_URL: 'http://localhost:3000',
      SMTP_URL: smtp.url,
    });
    try {
      const res = await fresh.inject({
        method: 'POST',
        url: '/demo/api/1.0/sign-in-link',
        payload: { email: demoEmail },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'sign_in_method_off' });
      const redeemed = await fresh.inject({
        method: 'POST',
        url: '/demo/api/1.0/sign-in-link/redeem',
        payload: { token: 'x'.repeat(43) },
      });
      expect(redeemed.json()).toMatchObject({ code: 'sign_in_method_off' });
      const config = await fresh.inject({ method: 'GET', url: '/demo/api/1.0/visual-config' });
      expect(config.json<{ sign_in_link: boolean }>().sign_in_link).toBe(false);
    } finally {
      await setOffered('demo', true);
      await fresh.close();
    }
  });

  it("issues a message's link only for the address the customer signs in with", async () => {
    const [customer] = await db.withTenant('1', (sql) =>
      sql.query<{ id: string }>('SELECT id FROM customers WHERE email = $1', [secondEmail]),
    );
    const input = {
      tenantId: '1',
      customerId: customer?.id ?? '',
      next: '/mis-pagos',
      minutes: 60,
    };
    expect(
      await issueSignInLinkFor(db, { ...input, to: 'contabilidad@empresa.test' }),
    ).toBeUndefined();
    const token = await issueSignInLinkFor(db, { ...input, to: secondEmail.toUpperCase() });
    const res = await redeem('1', token ?? '');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ next: string }>().next).toBe('/mis-pagos');
  });

  it('limits the requests from one address', async () => {
    const from = '10.89.0.1';
    const [limit] = limits.signInLinkPerIp;
    for (let i = 0; i < limit; i++) {
      expect((await ask('1', { email: `n${i}@demo.test` }, from)).statusCode).toBe(202);
    }
    const refused = await ask('1', { email: 'late@demo.test' }, from);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
  });
});

/**
 * The cap of e-mails per address counts in fixed windows that start with the first link: a window
 * no longer than a link lives means that while it refuses, every link it counted still signs in,
 * so a stranger asking five links for someone's address cannot keep theirs away. An hour's window
 * did, for the 45 minutes after the five 15-minute links expired (session 39).
 */
it('caps the links to one address over no longer than a link lives', () => {
  const [, windowSeconds] = limits.signInLinkMailsPerAccount;
  expect(windowSeconds).toBeLessThanOrEqual(signInLinkMinutes * 60);
});
