import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { createApiKey } from '../src/modules/admin/api-keys.ts';
import { buildTestApp, engines } from './engines.ts';
import { providerRecordOf } from './provider-record.ts';
import { signedIn } from './session.ts';

/**
 * Review (account screens): approving a fiscal data request must write what the customer asked to
 * change, not put back the other fiscal fields as they stood when the request was made. The
 * provider may have updated them since (docs/decisions/035: a change is never silently lost).
 */
describe.each(engines())('approving a fiscal data request on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let key: string;

  beforeAll(async () => {
    db = await engine.open();
    app = await buildTestApp(db);
    me = await signedIn(app, 'demo');
    key = (await db.withTenant('demo', (sql) => createApiKey(sql, 'review'))).key;
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  const profile = async () => {
    const res = await me.get(`/user/profile/${me.user.id}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Record<string, string>>();
  };

  it('keeps a fiscal field the provider changed after the request, when the request did not touch it', async () => {
    const p = await profile();
    const fiscal = {
      invoice_name: p.invoice_name || 'Cliente Demo',
      nif: '12345678Z',
      address: p.address || 'Calle Mayor 1',
      city: p.city || 'Madrid',
      country: p.country || 'España',
    };
    // The customer asks to change the address only (the rest as it stands on the screen).
    const asked = await me.post('/user/fiscal-data-requests', {
      ...fiscal,
      nif: p.nif || fiscal.nif,
      address: 'Calle Nueva 99',
    });
    expect(asked.statusCode, asked.body).toBe(201);
    const id = asked.json<{ pending: { id: string } }>().pending.id;

    // Meanwhile the provider's system moves the customer to another city (nothing the portal changed).
    const put = await app.inject({
      method: 'PUT',
      url: '/demo/api/1.0/admin/customers',
      headers: { authorization: `Bearer ${key}` },
      payload: {
        customers: [{ ...providerRecordOf(me.user.code, p), city: 'Toledo' }],
      },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect((await profile()).city).toBe('Toledo');

    const decided = await app.inject({
      method: 'POST',
      url: `/demo/api/1.0/admin/fiscal-data-requests/${id}/decision`,
      headers: { authorization: `Bearer ${key}` },
      payload: { decision: 'approved' },
    });
    expect(decided.statusCode, decided.body).toBe(200);

    const after = await profile();
    expect(after.address).toBe('Calle Nueva 99');
    // The provider's newer city is not put back to the value it had when the customer asked.
    expect(after.city).toBe('Toledo');
  });
});
