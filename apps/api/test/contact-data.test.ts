import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { secondEmail } from '../src/db/seed/demo.ts';
import { createApiKey } from '../src/modules/admin/api-keys.ts';
import { buildTestApp, engines } from './engines.ts';
import { signedIn } from './session.ts';

const contact = {
  phone: '+34 600 123 456',
  invoice_email: 'facturas@ejemplo.es',
  shipping_address: 'Calle Mayor 1, 2º B',
  shipping_cp: '28001',
  shipping_city: 'Madrid',
  shipping_province: 'Madrid',
  shipping_country: 'España',
};

/**
 * Issue 23, item 1: the customer keeps their telephone, invoice e-mail and postal address up to
 * date from the profile; each change is kept with only what it changed, told to the provider by
 * webhook (`customer.contact_updated`) and readable through the integration API.
 */
describe.each(engines())('contact data the customer changes, on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let other: Awaited<ReturnType<typeof signedIn>>;
  let demoKey: string;
  let oneKey: string;

  beforeAll(async () => {
    db = await engine.open();
    app = await buildTestApp(db);
    me = await signedIn(app, 'demo');
    other = await signedIn(app, 'demo', secondEmail);
    demoKey = (await db.withTenant('demo', (sql) => createApiKey(sql, 'contact test'))).key;
    oneKey = (await db.withTenant('1', (sql) => createApiKey(sql, 'contact test'))).key;
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  const put = (body: object, who = me) =>
    app.inject({
      method: 'PUT',
      url: '/demo/api/1.0/user/contact-data',
      headers: { authorization: `Bearer ${who.token}` },
      payload: body,
    });
  const profile = async (who = me) =>
    (await who.get(`/user/profile/${who.user.id}`)).json<Record<string, string>>();
  const admin = (path: string, { key = demoKey, tenant = 'demo' } = {}) =>
    app.inject({
      method: 'GET',
      url: `/${tenant}/api/1.0/admin${path}`,
      headers: { authorization: `Bearer ${key}` },
    });
  const changes = async (key = demoKey, tenant = 'demo') => {
    const res = await admin('/customer-contact-changes?limit=100', { key, tenant });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{
      changes: { id: string; customer_code: string; changed: Record<string, string> }[];
      next_cursor: string | null;
    }>().changes;
  };
  const events = () =>
    db.withTenant('demo', (sql) =>
      sql.query<{ type: string; payload: Record<string, unknown> }>(
        `SELECT type, payload FROM webhook_events WHERE type = 'customer.contact_updated'
          ORDER BY created_at, id`,
      ),
    );
  const current = async (who = me): Promise<typeof contact> => {
    const p = await profile(who);
    return {
      phone: p.phone ?? '',
      invoice_email: p.invoice_email ?? '',
      shipping_address: p.shipping_address ?? '',
      shipping_cp: p.shipping_cp ?? '',
      shipping_city: p.shipping_city ?? '',
      shipping_province: p.shipping_province ?? '',
      shipping_country: p.shipping_country ?? '',
    };
  };

  it('saves the new values, answers the profile, keeps only what changed', async () => {
    const before = await current();
    const otherBefore = await profile(other);
    const res = await put(contact);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject(contact);
    expect(await current()).toEqual(contact);
    // Another customer of the tenant is not touched.
    expect(await profile(other)).toEqual(otherBefore);

    const [last] = await changes();
    expect(last?.customer_code).toBe(me.user.code);
    const expected = Object.fromEntries(
      Object.entries(contact).filter(
        ([field, value]) => before[field as keyof typeof contact] !== value,
      ),
    );
    expect(last?.changed).toEqual(expected);
  });

  it('saving the same values again changes nothing and tells nobody', async () => {
    await put(contact);
    const count = (await changes()).length;
    const res = await put({ ...contact, phone: `  ${contact.phone}  ` });
    expect(res.statusCode, res.body).toBe(200);
    expect((await changes()).length).toBe(count);
  });

  it('tells the provider by webhook when it has an endpoint, with the new data', async () => {
    const setUp = await app.inject({
      method: 'PUT',
      url: '/demo/api/1.0/admin/webhook',
      headers: { authorization: `Bearer ${demoKey}` },
      payload: { url: 'https://erp.example.com/portal/webhooks', enabled: true },
    });
    expect(setUp.statusCode, setUp.body).toBe(200);
    const before = (await events()).length;
    const res = await put({ ...contact, phone: '912 345 678', shipping_cp: '08001' });
    expect(res.statusCode, res.body).toBe(200);
    const after = await events();
    expect(after.length).toBe(before + 1);
    expect(after.at(-1)?.payload).toMatchObject({
      customer_code: me.user.code,
      changed: { phone: '912 345 678', shipping_cp: '08001' },
      contact_data: { ...contact, phone: '912 345 678', shipping_cp: '08001' },
    });
  });

  it('may leave a field empty', async () => {
    const res = await put({ ...contact, phone: '', invoice_email: '' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await current()).toMatchObject({ phone: '', invoice_email: '' });
  });

  it.each([
    ['phone', 'abc', 'invalid_format'],
    ['phone', '12', 'invalid_format'],
    ['phone', '6'.repeat(41), 'too_long'],
    ['invoice_email', 'no-es-un-correo', 'invalid_email'],
    ['shipping_cp', '28001!', 'invalid_format'],
    ['shipping_address', 'Calle\u0000Mayor', 'invalid_characters'],
    ['shipping_city', 'x'.repeat(101), 'too_long'],
    // One line each: the invoice PDF prints the postal address as its recipient's, and a line
    // break added a line there that read as the recipient's NIF (session 39).
    ['shipping_city', 'Madrid\nNIF: 99999999R', 'invalid_characters'],
    ['shipping_city', 'Madrid\u0085NIF: 99999999R', 'invalid_characters'],
    ['shipping_address', 'Calle Mayor 12\r\nNIF: 99999999R', 'invalid_characters'],
    ['shipping_province', 'Madrid\u2028NIF: 99999999R', 'invalid_characters'],
    ['shipping_country', 'España\u2029NIF: 99999999R', 'invalid_characters'],
  ])('refuses %s = %j with a 422 (%s), writing nothing', async (field, value, code) => {
    const before = await current();
    const count = (await changes()).length;
    const res = await put({ ...contact, [field]: value });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json<{ errors: Record<string, string[]> }>().errors[field]).toContain(code);
    expect(await current()).toEqual(before);
    expect((await changes()).length).toBe(count);
  });

  it('refuses a field it does not change (the sign-in e-mail, the NIF) and a missing one', async () => {
    for (const body of [
      { ...contact, email: 'otro@demo.test' },
      { ...contact, nif: '12345678Z' },
      { phone: '600000000' },
    ]) {
      const res = await put(body);
      expect(res.statusCode, res.body).toBe(422);
    }
  });

  it('needs a signed-in customer; the read side needs the tenant key and shows its tenant only', async () => {
    const anonymous = await app.inject({
      method: 'PUT',
      url: '/demo/api/1.0/user/contact-data',
      payload: contact,
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await admin('/customer-contact-changes', { key: 'pk_not_a_key' })).statusCode).toBe(
      401,
    );
    // Tenant 1's key reads tenant 1's changes, none of demo's.
    expect(await changes(oneKey, '1')).toEqual([]);
  });

  it('pages the read side newest first', async () => {
    await put({ ...contact, shipping_city: 'Sevilla' });
    await put({ ...contact, shipping_city: 'Bilbao' });
    const first = await admin('/customer-contact-changes?limit=1');
    const page = first.json<{
      changes: { changed: Record<string, string> }[];
      next_cursor: string;
    }>();
    expect(page.changes[0]?.changed.shipping_city).toBe('Bilbao');
    const second = await admin(`/customer-contact-changes?limit=1&before=${page.next_cursor}`);
    expect(
      second.json<{ changes: { changed: Record<string, string> }[] }>().changes[0]?.changed,
    ).toMatchObject({
      shipping_city: 'Sevilla',
    });
  });

  it('says whether the customer has a password (one who signs in only with Google has none)', async () => {
    expect((await profile()).has_password).toBe(true);
    await db.withTenant('demo', (sql) =>
      sql.query("UPDATE customers SET password_hash = NULL WHERE email = 'segundo@demo.test'"),
    );
    expect((await profile(other)).has_password).toBe(false);
  });
});
