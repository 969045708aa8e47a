import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { routes, type TRouteName } from '@portal/contract';
import { createNotification, decodeMerchantParameters, PUBLIC_TEST_MERCHANT } from '@portal/redsys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { demoEmail, demoPassword } from '../src/db/seed/demo.ts';
import { urlOf, validRequests } from './contract-examples.ts';
import { buildTestApp, engines } from './engines.ts';
import { notificationParams } from './redsys-notification.ts';
import { signedIn } from './session.ts';

const names = Object.keys(routes) as TRouteName[];
/** Every call of the contract that changes state (POST, PUT, PATCH, DELETE). */
const writes = names.filter((n) => routes[n].method !== 'GET');
const own = 'http://demo.localhost:3000';

describe.each(engines())('cross-site requests (login CSRF) on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let me: Awaited<ReturnType<typeof signedIn>>;

  beforeAll(async () => {
    db = await engine.open();
    app = await buildTestApp(db, {
      PUBLIC_URL: 'http://localhost:3000',
      ALLOWED_ORIGINS: 'https://app.partner.example',
    });
    me = await signedIn(app, 'demo');
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  let ip = 0;
  const nextIp = () => `10.77.${Math.floor(++ip / 250)}.${ip % 250}`;
  const credentials = { email: demoEmail, password: demoPassword };
  const login = (headers: Record<string, string>, payload: string | object = credentials) =>
    app.inject({
      method: 'POST',
      url: '/demo/api/1.0/login',
      headers,
      payload,
      remoteAddress: nextIp(),
    });
  const setsSession = (res: LightMyRequestResponse) =>
    (res.cookies as { name: string }[]).some((c) => c.name === 'refresh_token');

  /** A call of the contract as a page of another site would make it, with a signed-in bearer. */
  const call = (name: TRouteName, headers: Record<string, string>) =>
    app.inject({
      method: routes[name].method,
      url: urlOf('demo', name),
      headers: { authorization: `Bearer ${me.token}`, ...headers },
      ...(validRequests[name].body ? { payload: validRequests[name].body } : {}),
      remoteAddress: nextIp(),
    });

  it("refuses another site's HTML form posted to /login: no session is set", async () => {
    const form = new URLSearchParams(credentials).toString();
    const crossSite = await login(
      {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
      },
      form,
    );
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.json()).toMatchObject({ code: 'forbidden' });
    expect(setsSession(crossSite)).toBe(false);
    // A browser that sent neither header (very old ones): the form is still not JSON.
    const bare = await login({ 'content-type': 'application/x-www-form-urlencoded' }, form);
    expect(bare.statusCode).toBe(415);
    expect(setsSession(bare)).toBe(false);
    const multipart = await login(
      { 'content-type': 'multipart/form-data; boundary=x' },
      '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\na@b.c\r\n--x--\r\n',
    );
    expect(multipart.statusCode).toBe(415);
  });

  it('answers 415 to a JSON body sent as text/plain (what a form with enctype=text/plain sends)', async () => {
    const res = await login({ 'content-type': 'text/plain' }, JSON.stringify(credentials));
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({
      message: 'Unsupported media type',
      code: 'unsupported_media_type',
    });
    expect(setsSession(res)).toBe(false);
    for (const name of writes.filter((n) => validRequests[n].body)) {
      const res = await app.inject({
        method: routes[name].method,
        url: urlOf('demo', name),
        headers: { authorization: `Bearer ${me.token}`, 'content-type': 'text/plain' },
        payload: JSON.stringify(validRequests[name].body),
      });
      expect(res.statusCode, name).toBe(415);
    }
  });

  it.each(writes)('refuses %s from a foreign Origin with 403, before any work', async (name) => {
    for (const origin of ['https://evil.example', 'null', 'http://localhost:3000']) {
      const res = await call(name, { origin });
      expect(res.statusCode, origin).toBe(403);
      expect(res.json()).toMatchObject({ code: 'forbidden' });
      expect(setsSession(res)).toBe(false);
    }
  });

  it.each(writes)('refuses %s with Sec-Fetch-Site cross-site or same-site', async (name) => {
    for (const site of ['cross-site', 'same-site']) {
      const res = await call(name, { 'sec-fetch-site': site });
      expect(res.statusCode, site).toBe(403);
    }
  });

  it('lets same-origin, typed (none), allowed-origin and header-less clients sign in', async () => {
    for (const headers of <Record<string, string>[]>[
      { origin: own, 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'none' },
      { origin: 'https://app.partner.example', 'sec-fetch-site': 'cross-site' },
      {},
    ]) {
      const res = await login(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(200);
      expect(setsSession(res)).toBe(true);
    }
    const charset = await login(
      { 'content-type': 'application/json; charset=utf-8' },
      JSON.stringify(credentials),
    );
    expect(charset.statusCode).toBe(200);
    // Reads are not writes: a GET from anywhere is answered (the token decides).
    expect((await call('paymentMethods', { origin: 'https://evil.example' })).statusCode).toBe(200);
  });

  it("keeps the protocol's forms: the Redsys notification, and the OpenID form_post callback", async () => {
    const pending = (
      await me.post('/payments', {
        datefrom: '20000101',
        dateto: '20991231',
        page: '1',
        pending: true,
        overdue: true,
      })
    ).json<{ payments: { payment_id: string; amount: number }[] }>().payments;
    const first = pending[0];
    const init = await me.post('/redsys/init-payment', {
      amount: first?.amount,
      payment_ids: [first?.payment_id],
    });
    expect(init.statusCode).toBe(200);
    const p = decodeMerchantParameters(
      init.json<{ redsys_params: { Ds_MerchantParameters: string } }>().redsys_params
        .Ds_MerchantParameters,
    );
    const signed = createNotification({
      version: 'HMAC_SHA256_V1',
      secret: PUBLIC_TEST_MERCHANT.secretKey,
      params: notificationParams(p, '0000'),
    }) as unknown as Record<string, string>;
    const notified = await app.inject({
      method: 'POST',
      url: '/demo/api/1.0/redsys/notification',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://sis-t.redsys.es:25443',
        'sec-fetch-site': 'cross-site',
      },
      payload: new URLSearchParams(signed).toString(),
    });
    expect(notified.statusCode).toBe(200);
    expect(notified.body).toBe('OK');

    const callback = await app.inject({
      method: 'POST',
      url: '/auth/apple/callback',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://appleid.apple.com',
        'sec-fetch-site': 'cross-site',
      },
      payload: 'code=the-code&state=the-state',
    });
    expect(callback.statusCode).toBe(303);
    expect(callback.headers.location).toBe('/auth/apple/callback?code=the-code&state=the-state');
  });
});
