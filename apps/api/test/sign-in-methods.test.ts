import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { createApiKey } from '../src/modules/admin/api-keys.ts';
import { buildTestApp, engines } from './engines.ts';

/**
 * The provider turns sign-in methods on or off through the integration API (issue 24): only its
 * own tenant's, only these three settings, and the portal tells the web app (visual-config).
 */
describe.each(engines())('sign-in methods through the integration API on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let key: string;

  beforeAll(async () => {
    db = await engine.open();
    app = await buildTestApp(db, { PUBLIC_URL: 'http://localhost:3000' }, randomBytes(32));
    key = (await db.withTenant('demo', (sql) => createApiKey(sql, 'sign-in test'))).key;
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  const call = (method: 'GET' | 'PUT', payload?: object, tenant = 'demo') =>
    app.inject({
      method,
      url: `/${tenant}/api/1.0/admin/sign-in-methods`,
      headers: { authorization: `Bearer ${key}` },
      ...(payload ? { payload } : {}),
    });

  it('answers the defaults, changes only what is given, and the portal shows it', async () => {
    expect((await call('GET')).json()).toEqual({
      link: true,
      passkeys: true,
      second_factor: 'optional',
    });
    const put = await call('PUT', { passkeys: false, second_factor: 'required' });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toEqual({ link: true, passkeys: false, second_factor: 'required' });
    // A new instance reads the tenant afresh (the running one within 30 s).
    const fresh = await buildTestApp(db, { PUBLIC_URL: 'http://localhost:3000' });
    try {
      const config = await fresh.inject({ method: 'GET', url: '/demo/api/1.0/visual-config' });
      expect(config.json()).toMatchObject({
        sign_in_link: true,
        passkeys: false,
        second_factor: 'required',
      });
      // The other tenant is untouched.
      const other = await fresh.inject({ method: 'GET', url: '/1/api/1.0/visual-config' });
      expect(other.json()).toMatchObject({ passkeys: true, second_factor: 'optional' });
    } finally {
      await fresh.close();
    }
    expect((await call('PUT', { passkeys: true, second_factor: 'optional' })).statusCode).toBe(200);
  });

  it('refuses an empty change, an unknown value, and a key of another tenant', async () => {
    expect((await call('PUT', {})).statusCode).toBe(422);
    expect((await call('PUT', { second_factor: 'always' })).statusCode).toBe(422);
    expect((await call('PUT', { link: 'yes' })).statusCode).toBe(422);
    expect((await call('PUT', { link: false }, '1')).statusCode).toBe(401);
  });
});
