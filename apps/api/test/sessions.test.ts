import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { demoEmail, demoPassword, secondEmail } from '../src/db/seed/demo.ts';
import { engines } from './engines.ts';
import { openMailingApp, type MailingApp } from './mailing-app.ts';
import type { startSmtp } from '../../../tools/test-smtp.ts';
import { pastReuseWindow } from './refresh-window.ts';

const iphone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const windows =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

type Browser = { device?: string; refresh?: string; xsrf?: string; token?: string };
const cookieOf = (res: LightMyRequestResponse, name: string) =>
  (res.cookies as { name: string; value: string }[]).find((c) => c.name === name)?.value;

/**
 * "Your devices" (issue 24): the customer sees where they are signed in and ends any session, whose
 * tokens are refused at once; a sign-in from a browser never used before e-mails a link that ends
 * it; a page that lost its refresh mid-flight is not taken for a thief.
 */
describe.each(engines())('sessions on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let ip = 0;

  let opened: MailingApp;
  beforeAll(async () => {
    opened = await openMailingApp(engine);
    ({ db, app, smtp } = opened);
  });
  afterAll(() => opened.close());

  /** Signs in as a browser would: it keeps its device cookie from one sign-in to the next. */
  async function signIn(
    tenant: string,
    email: string,
    browser: Browser = {},
    userAgent = windows,
    from = `83.45.120.${++ip}`,
  ): Promise<Browser> {
    const res = await app.inject({
      method: 'POST',
      url: `/${tenant}/api/1.0/login`,
      payload: { email, password: demoPassword },
      headers: { 'user-agent': userAgent },
      cookies: browser.device ? { device_id: browser.device } : {},
      remoteAddress: from,
    });
    expect(res.statusCode, res.body).toBe(200);
    return {
      device: cookieOf(res, 'device_id') ?? browser.device,
      refresh: cookieOf(res, 'refresh_token'),
      xsrf: cookieOf(res, 'XSRF-TOKEN'),
      token: res.json<{ access_token: string }>().access_token,
    };
  }

  const call = (tenant: string, b: Browser, method: 'GET' | 'POST', path: string) =>
    app.inject({
      method,
      url: `/${tenant}/api/1.0${path}`,
      headers: { authorization: `Bearer ${b.token}` },
    });
  const list = async (tenant: string, b: Browser) => {
    const res = await call(tenant, b, 'GET', '/sessions');
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ sessions: { id: string; current: boolean; [k: string]: unknown }[] }>()
      .sessions;
  };
  const refresh = (tenant: string, refreshToken: string | undefined, xsrf: string | undefined) =>
    app.inject({
      method: 'POST',
      url: `/${tenant}/api/1.0/refresh-token`,
      cookies: { refresh_token: refreshToken ?? '', 'XSRF-TOKEN': xsrf ?? '' },
      headers: { 'x-xsrf-token': xsrf ?? '' },
    });
  const endByLink = (tenant: string, token: string) =>
    app.inject({
      method: 'POST',
      url: `/${tenant}/api/1.0/sessions/end-by-link`,
      payload: { token },
      remoteAddress: `10.77.0.${++ip % 250}`,
    });
  const linkIn = (raw: string) => /end-session\?token=([\w-]+)/.exec(raw)?.[1] ?? '';

  it('lists where the customer is signed in, parsed once, this one marked, no one else', async () => {
    const phone = await signIn('demo', demoEmail, {}, iphone);
    const laptop = await signIn('demo', demoEmail, {}, windows);
    await signIn('demo', secondEmail);
    const sessions = await list('demo', laptop);
    const mine = sessions.find((s) => s.current);
    expect(mine).toMatchObject({
      method: 'password',
      browser: 'Chrome 131',
      os: 'Windows 10',
      device_type: 'desktop',
      network: '83.45.120.*',
    });
    const other = sessions.filter((s) => !s.current);
    expect(other.some((s) => s.browser === 'Safari 17' && s.device_type === 'mobile')).toBe(true);
    // Only this customer's: the second customer's session is not among them.
    const ids = sessions.map((s) => s.id);
    const seconds = await list('demo', await signIn('demo', secondEmail));
    expect(seconds.some((s) => ids.includes(s.id))).toBe(false);
    expect(JSON.stringify(sessions)).not.toMatch(/83\.45\.120\.\d/);
    expect(phone.token).toBeTruthy();
  });

  it('ends one session: its access and refresh tokens are refused at once', async () => {
    const here = await signIn('1', demoEmail);
    const there = await signIn('1', demoEmail, {}, iphone);
    expect((await call('1', there, 'GET', '/balance')).statusCode).toBe(200);
    const target = (await list('1', there)).find((s) => s.current)?.id ?? '';

    const ended = await call('1', here, 'POST', `/sessions/${target}/end`);
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json()).toEqual({ ended: 1 });
    expect((await call('1', there, 'GET', '/balance')).statusCode).toBe(401);
    // The stolen refresh cookie of the ended session gets nothing.
    expect((await refresh('1', there.refresh, there.xsrf)).statusCode).toBe(401);
    expect((await list('1', here)).map((s) => s.id)).not.toContain(target);
    expect((await call('1', here, 'GET', '/balance')).statusCode).toBe(200);
    // Again: nothing to end.
    expect((await call('1', here, 'POST', `/sessions/${target}/end`)).statusCode).toBe(404);
  });

  it("answers 404 for another customer's session and leaves it open", async () => {
    const victim = await signIn('demo', secondEmail);
    const victimSession = (await list('demo', victim)).find((s) => s.current)?.id ?? '';
    const attacker = await signIn('demo', demoEmail);
    const res = await call('demo', attacker, 'POST', `/sessions/${victimSession}/end`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'No such session', code: 'not_found' });
    expect((await call('demo', victim, 'GET', '/balance')).statusCode).toBe(200);
    const bad = await call('demo', attacker, 'POST', '/sessions/not-a-uuid/end');
    expect(bad.statusCode).toBe(404);
  });

  it('ends every other session and keeps this one', async () => {
    const others = [await signIn('demo', secondEmail), await signIn('demo', secondEmail)];
    const here = await signIn('demo', secondEmail);
    const res = await call('demo', here, 'POST', '/sessions/end-others');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ ended: number }>().ended).toBeGreaterThanOrEqual(2);
    for (const o of others) expect((await call('demo', o, 'GET', '/balance')).statusCode).toBe(401);
    expect((await call('demo', here, 'GET', '/balance')).statusCode).toBe(200);
    expect((await list('demo', here)).map((s) => s.current)).toEqual([true]);
  });

  it('gives a page that lost its refresh mid-flight a new token; later the old one is theft', async () => {
    const b = await signIn('1', demoEmail);
    const first = await refresh('1', b.refresh, b.xsrf);
    expect(first.statusCode).toBe(200);
    const successor = cookieOf(first, 'refresh_token');
    const successorXsrf = cookieOf(first, 'XSRF-TOKEN');
    // The answer never reached the page (closed, navigated away): its next load sends the old one.
    const again = await refresh('1', b.refresh, b.xsrf);
    expect(again.statusCode, again.body).toBe(200);
    const sibling = cookieOf(again, 'refresh_token');
    expect(sibling).not.toBe(successor);
    // Whichever cookie the browser kept works.
    expect((await refresh('1', successor, successorXsrf)).statusCode).toBe(200);
    const siblingRes = await refresh('1', sibling, cookieOf(again, 'XSRF-TOKEN'));
    expect(siblingRes.statusCode).toBe(200);
    // Past the window, the old token coming back is a stolen copy: the whole session ends.
    await pastReuseWindow(db, '1');
    expect((await refresh('1', b.refresh, b.xsrf)).statusCode).toBe(401);
    const access = siblingRes.json<{ access_token: string }>().access_token;
    expect((await call('1', { token: access }, 'GET', '/balance')).statusCode).toBe(401);
  });

  it('counts a refresh as the last use of its session', async () => {
    const b = await signIn('demo', demoEmail);
    const before = (await list('demo', b)).find((s) => s.current);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const res = await refresh('demo', b.refresh, b.xsrf);
    const token = res.json<{ access_token: string }>().access_token;
    const after = (await list('demo', { token })).find((s) => s.current);
    expect(after?.id).toBe(before?.id);
    expect(Date.parse(String(after?.last_used_at))).toBeGreaterThan(
      Date.parse(String(before?.last_used_at)),
    );
  });

  describe('a sign-in from a browser never used before', () => {
    it('e-mails "was this you?" with a link that ends that session once, and only that one', async () => {
      // Tenant 1's second customer: no other test here signs in as them before this one.
      const usual = await signIn('1', secondEmail, {}, windows);
      const again = await signIn('1', secondEmail, usual, windows);
      expect(again.device).toBe(usual.device);
      const stranger = await signIn('1', secondEmail, {}, iphone, '192.0.2.10');
      const mail = await smtp.waitFor(secondEmail, 10_000, 'new-device', 'Las Encinas');
      expect(mail.raw).toContain('Safari 17, iOS 17');
      expect(mail.raw).toContain('192.0.2.*');
      expect(mail.raw).not.toContain('192.0.2.10');
      // The account's first sign-in and the usual browser's second sent nothing: only the
      // stranger's mail came.
      const fromHere = (m: { to: string[]; raw: string }) =>
        m.to.includes(secondEmail) && m.raw.includes('Las Encinas');
      expect(smtp.inbox.filter(fromHere)).toHaveLength(0);
      const token = linkIn(mail.raw);
      expect(token).toHaveLength(43);

      // Another tenant's portal does not know the link; the session stays open.
      expect((await endByLink('demo', token)).json()).toMatchObject({
        errors: { token: ['invalid_token'] },
      });
      expect((await call('1', stranger, 'GET', '/balance')).statusCode).toBe(200);

      const res = await endByLink('1', token);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ ended: 1 });
      expect((await call('1', stranger, 'GET', '/balance')).statusCode).toBe(401);
      expect((await refresh('1', stranger.refresh, stranger.xsrf)).statusCode).toBe(401);
      expect((await call('1', usual, 'GET', '/balance')).statusCode).toBe(200);
      // A replayed link: spent.
      const replay = await endByLink('1', token);
      expect(replay.statusCode).toBe(422);
      expect(replay.json()).toMatchObject({ errors: { token: ['invalid_token'] } });
    });

    it('is not remembered when the sign-in fails: no cookie at all', async () => {
      const failed = await app.inject({
        method: 'POST',
        url: '/demo/api/1.0/login',
        payload: { email: 'nobody@demo.test', password: 'Wrong1234!' },
        remoteAddress: '10.78.0.1',
      });
      expect(failed.statusCode).toBe(401);
      expect(failed.cookies).toEqual([]);
    });
  });
});
