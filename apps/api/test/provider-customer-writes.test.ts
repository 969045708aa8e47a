import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { createApiKey } from '../src/modules/admin/api-keys.ts';
import { buildTestApp, engines } from './engines.ts';
import { providerRecordOf } from './provider-record.ts';
import { signedIn } from './session.ts';

type Kept = { code: string; field: string; changed_at: string };
type Result = { created: number; updated: number; unchanged: number; kept: Kept[] };

/**
 * docs/decisions/035: the provider's PUT /admin/customers does not silently revert what the
 * customer changed in the portal (contact data) or what the organisation approved (fiscal data):
 * a stale write keeps the portal's value and says so in `kept`; a write dated later than the
 * portal's change, one that overrides, or one after the provider has taken the change applies.
 */
describe.each(engines())(
  "the provider's customer writes and the portal's changes, on $name",
  (engine) => {
    let db: Database;
    let app: FastifyInstance;
    let me: Awaited<ReturnType<typeof signedIn>>;
    let key: string;
    /** The customer as the provider's system had it before the portal changed anything. */
    let providerCopy: Record<string, unknown>;

    beforeAll(async () => {
      db = await engine.open();
      app = await buildTestApp(db);
      me = await signedIn(app, 'demo');
      key = (await db.withTenant('demo', (sql) => createApiKey(sql, 'writes test'))).key;
      const p = await profile();
      providerCopy = providerRecordOf(me.user.code, p);
    });
    afterAll(async () => {
      await app.close();
      await db.close();
    });

    async function profile(): Promise<Record<string, string>> {
      const res = await me.get(`/user/profile/${me.user.id}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<Record<string, string>>();
    }
    const providerPut = async (changes: Record<string, unknown> = {}): Promise<Result> => {
      const res = await app.inject({
        method: 'PUT',
        url: '/demo/api/1.0/admin/customers',
        headers: { authorization: `Bearer ${key}` },
        payload: { customers: [{ ...providerCopy, ...changes }] },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<Result>();
    };
    const editContact = async (changes: Record<string, string>) => {
      const p = await profile();
      const res = await app.inject({
        method: 'PUT',
        url: '/demo/api/1.0/user/contact-data',
        headers: { authorization: `Bearer ${me.token}` },
        payload: {
          phone: p.phone ?? '',
          invoice_email: p.invoice_email ?? '',
          shipping_address: p.shipping_address ?? '',
          shipping_cp: p.shipping_cp ?? '',
          shipping_city: p.shipping_city ?? '',
          shipping_province: p.shipping_province ?? '',
          shipping_country: p.shipping_country ?? '',
          ...changes,
        },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    const later = (ms: number) => new Date(Date.now() + ms).toISOString();

    it('a stale write keeps the phone the customer changed, and reports it', async () => {
      await editContact({ phone: '+34 611 222 333' });
      const result = await providerPut({ contact_name: 'Recepción' });
      expect(result.kept).toEqual([
        { code: me.user.code, field: 'phone', changed_at: expect.any(String) },
      ]);
      // The rest of the write applies.
      expect(result.updated).toBe(1);
      const p = await profile();
      expect(p.phone).toBe('+34 611 222 333');
      expect(p.contact_name).toBe('Recepción');
    });

    it('a write dated before the change keeps it too', async () => {
      const result = await providerPut({
        phone: '+34 600 000 001',
        contact_updated_at: later(-60_000),
      });
      expect(result.kept.map((k) => k.field)).toEqual(['phone']);
      expect((await profile()).phone).toBe('+34 611 222 333');
    });

    it('a write dated after the change applies, and reports nothing', async () => {
      const result = await providerPut({
        phone: '+34 600 000 002',
        contact_updated_at: later(60_000),
      });
      expect(result.kept).toEqual([]);
      expect((await profile()).phone).toBe('+34 600 000 002');
      // The change is settled: a later undated write applies as before the portal changed it.
      const again = await providerPut({ phone: '+34 600 000 003' });
      expect(again.kept).toEqual([]);
      expect((await profile()).phone).toBe('+34 600 000 003');
    });

    it("once the provider sends the customer's value, its later writes apply", async () => {
      await editContact({ invoice_email: 'facturas@cliente.test' });
      const taken = await providerPut({
        phone: '+34 600 000 003',
        invoice_email: 'facturas@cliente.test',
      });
      expect(taken.kept).toEqual([]);
      const next = await providerPut({
        phone: '+34 600 000 003',
        invoice_email: 'otra@cliente.test',
      });
      expect(next.kept).toEqual([]);
      expect((await profile()).invoice_email).toBe('otra@cliente.test');
    });

    it('override_portal_changes overwrites whatever the dates', async () => {
      await editContact({ shipping_city: 'Girona' });
      const result = await providerPut({
        phone: '+34 600 000 003',
        invoice_email: 'otra@cliente.test',
        shipping_city: 'Lleida',
        override_portal_changes: true,
      });
      expect(result.kept).toEqual([]);
      expect((await profile()).shipping_city).toBe('Lleida');
    });

    it('refuses a timestamp that is not an instant with its offset (422, nothing written)', async () => {
      for (const stamp of [
        '2026-11-26',
        '2026-13-01T10:00:00Z',
        'yesterday',
        '2026-11-26T10:00:00',
      ]) {
        const res = await app.inject({
          method: 'PUT',
          url: '/demo/api/1.0/admin/customers',
          headers: { authorization: `Bearer ${key}` },
          payload: { customers: [{ ...providerCopy, contact_updated_at: stamp }] },
        });
        expect(res.statusCode, `${stamp}: ${res.body}`).toBe(422);
      }
    });

    it('an approved fiscal data request is not reverted by a stale write either', async () => {
      const asked = {
        invoice_name: 'Laura García Consultoría SL',
        nif: 'B12345674',
        address: 'Calle de Alcalá 200, 4º',
        city: 'Madrid',
        country: 'España',
      };
      const request = await app.inject({
        method: 'POST',
        url: '/demo/api/1.0/user/fiscal-data-requests',
        headers: { authorization: `Bearer ${me.token}` },
        payload: asked,
      });
      expect(request.statusCode, request.body).toBeLessThan(300);
      const id = request.json<{ pending: { id: string } }>().pending.id;
      const decided = await app.inject({
        method: 'POST',
        url: `/demo/api/1.0/admin/fiscal-data-requests/${id}/decision`,
        headers: { authorization: `Bearer ${key}` },
        payload: { decision: 'approved' },
      });
      expect(decided.statusCode, decided.body).toBe(200);

      const contact = {
        phone: '+34 600 000 003',
        invoice_email: 'otra@cliente.test',
        shipping_city: 'Lleida',
      };
      const stale = await providerPut(contact);
      expect(stale.kept.map((k) => k.field).sort()).toEqual(
        Object.keys(asked)
          .filter((f) => asked[f as keyof typeof asked] !== providerCopy[f])
          .sort(),
      );
      expect(await profile()).toMatchObject({ invoice_name: asked.invoice_name, nif: asked.nif });

      const newer = await providerPut({
        ...contact,
        invoice_name: 'Laura García Martín',
        fiscal_updated_at: later(60_000),
      });
      expect(newer.kept).toEqual([]);
      expect((await profile()).invoice_name).toBe('Laura García Martín');
    });
  },
);
