import type { FastifyInstance } from 'fastify';
import { PDFParse } from 'pdf-parse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { secondEmail } from '../src/db/seed/demo.ts';
import { createApiKey } from '../src/modules/admin/api-keys.ts';
import { buildTestApp, engines } from './engines.ts';
import { signedIn } from './session.ts';

type Session = Awaited<ReturnType<typeof signedIn>>;
type Mandate = {
  id: string;
  reference: string;
  status: 'active' | 'replaced' | 'revoked';
  iban: string;
  payment_method_id: string | null;
  replaced_by_reference: string | null;
};

const account = (iban: string, extra: object = {}) => ({
  iban,
  holder: 'Laura García Martín',
  nif: '12345678Z',
  mandate_accepted: true,
  mandate_language: 'es',
  ...extra,
});
const ibanA = 'ES91 2100 0418 4502 0005 1332';
const ibanB = 'ES79 2100 0813 6101 2345 6789';

/**
 * Issue 23, item 6: adding a bank account for direct debit signs a SEPA Core mandate (explicit
 * acceptance, time, address and browser kept), the previous one is marked replaced, the provider
 * hears of it by webhook and reads it at GET /admin/mandates, and the customer downloads its PDF.
 */
describe.each(engines())('SEPA mandates signed in the portal, on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let me: Session;
  let other: Session;
  let elsewhere: Session;
  let demoKey: string;
  let oneKey: string;

  beforeAll(async () => {
    db = await engine.open();
    app = await buildTestApp(db);
    me = await signedIn(app, 'demo');
    other = await signedIn(app, 'demo', secondEmail);
    elsewhere = await signedIn(app, '1');
    demoKey = (await db.withTenant('demo', (sql) => createApiKey(sql, 'mandate test'))).key;
    oneKey = (await db.withTenant('1', (sql) => createApiKey(sql, 'mandate test'))).key;
    const hook = await app.inject({
      method: 'PUT',
      url: '/demo/api/1.0/admin/webhook',
      headers: { authorization: `Bearer ${demoKey}` },
      payload: { url: 'https://erp.example.com/portal/webhooks', enabled: true },
    });
    expect(hook.statusCode, hook.body).toBe(200);
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  const add = (body: object, who: Session = me, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: `/demo/api/1.0/payment-methods/bank-account`,
      headers: { authorization: `Bearer ${who.token}`, ...headers },
      payload: body,
      remoteAddress: '198.51.100.23',
    });
  const mandates = async (who: Session = me) => {
    const res = await who.get('/sepa-mandates');
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{
      creditor: { name: string; address: string; identifier: string } | null;
      mandates: Mandate[];
    }>();
  };
  const rows = (customerCode: string) =>
    db.withTenant('demo', (sql) =>
      sql.query<{ reference: string; status: string; signer_ip: string; user_agent: string }>(
        `SELECT m.reference, m.status, m.signer_ip, m.user_agent FROM sepa_mandates m
           JOIN customers c ON c.tenant_id = m.tenant_id AND c.id = m.customer_id
          WHERE c.code = $1 ORDER BY m.signed_at, m.reference`,
        [customerCode],
      ),
    );
  const methodCount = async () =>
    (await me.get('/payment-methods')).json<{ methods: unknown[] }>().methods.length;
  const events = (type = 'mandate.signed') =>
    db.withTenant('demo', (sql) =>
      sql.query<{ payload: Record<string, unknown> }>(
        `SELECT payload FROM webhook_events WHERE type = $1 ORDER BY created_at, id`,
        [type],
      ),
    );
  const endedEvents = async (type: 'mandate.replaced' | 'mandate.revoked', reference?: string) =>
    (await events(type)).filter(
      (e) => reference === undefined || e.payload.reference === reference,
    );
  const admin = (path: string, { key = demoKey, tenant = 'demo' } = {}) =>
    app.inject({
      method: 'GET',
      url: `/${tenant}/api/1.0/admin${path}`,
      headers: { authorization: `Bearer ${key}` },
    });
  const pdfLink = (id: string, who: Session = me, tenant = 'demo') =>
    app.inject({
      method: 'POST',
      url: `/${tenant}/api/1.0/sepa-mandates/${encodeURIComponent(id)}/pdf`,
      headers: { authorization: `Bearer ${who.token}` },
      payload: { language: 'es' },
    });

  it('names the tenant as creditor, with the identifier the demo seed sets', async () => {
    const { creditor } = await mandates();
    expect(creditor).toMatchObject({ identifier: expect.stringMatching(/^ES\d\dZZZ/) });
    expect(creditor?.name).not.toBe('');
  });

  it('refuses a bank account without the mandate accepted, and writes nothing', async () => {
    const before = await methodCount();
    const signed = (await rows(me.user.code)).length;
    for (const body of [
      account(ibanA, { mandate_accepted: undefined }),
      account(ibanA, { mandate_accepted: false }),
    ]) {
      const res = await add(body);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors).toEqual({ mandate_accepted: ['mandate_required'] });
    }
    expect(await methodCount()).toBe(before);
    expect((await rows(me.user.code)).length).toBe(signed);
  });

  it('refuses a bad IBAN with a 422 (nothing signed)', async () => {
    const signed = (await rows(me.user.code)).length;
    const res = await add(account('ES91 2100 0418 4502 0005 1333'));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toMatchObject({ iban: ['invalid_iban'] });
    expect((await rows(me.user.code)).length).toBe(signed);
  });

  it('signs a mandate with the account: reference, evidence, webhook and the admin read side', async () => {
    const before = (await events()).length;
    const res = await add(account(ibanA), me, { 'user-agent': 'MandateTest/1.0' });
    expect(res.statusCode, res.body).toBe(201);
    const methodId = res.json<{ method: { id: string } }>().method.id;
    const [mandate] = (await mandates()).mandates;
    expect(mandate).toMatchObject({
      status: 'active',
      iban: ibanA,
      payment_method_id: methodId,
      replaced_by_reference: null,
    });
    expect(mandate?.reference).toMatch(/^[A-Za-z0-9/?:().,'+ -]{1,35}$/);
    const [row] = (await rows(me.user.code)).filter((r) => r.reference === mandate?.reference);
    expect(row).toMatchObject({ signer_ip: '198.51.100.23', user_agent: 'MandateTest/1.0' });

    const after = await events();
    expect(after.length).toBe(before + 1);
    expect(after.at(-1)?.payload).toMatchObject({
      reference: mandate?.reference,
      status: 'active',
      customer_code: me.user.code,
      iban: 'ES9121000418450200051332',
      debtor_name: 'Laura García Martín',
      debtor_nif: '12345678Z',
      payment_type: 'recurrent',
      signer_ip: '198.51.100.23',
      replaced_mandate_reference: null,
    });

    const listed = await admin('/mandates?limit=100');
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().mandates).toContainEqual(
      expect.objectContaining({
        reference: mandate?.reference,
        customer_code: me.user.code,
        signer_ip: '198.51.100.23',
        user_agent: 'MandateTest/1.0',
        creditor_id: expect.stringMatching(/^ES\d\dZZZ/),
      }),
    );
  });

  it('changing the account signs a new mandate and marks the old one replaced', async () => {
    const [old] = (await mandates()).mandates;
    const res = await add(account(ibanB));
    expect(res.statusCode, res.body).toBe(201);
    const list = (await mandates()).mandates;
    const fresh = list[0];
    expect(fresh).toMatchObject({ status: 'active', iban: ibanB });
    expect(list.find((m) => m.id === old?.id)).toMatchObject({
      status: 'replaced',
      replaced_by_reference: fresh?.reference,
    });
    expect(list.filter((m) => m.status === 'active')).toHaveLength(1);
    expect((await events()).at(-1)?.payload).toMatchObject({
      reference: fresh?.reference,
      replaced_mandate_reference: old?.reference,
    });
    // The ending is told once, with the mandate that took its place.
    const ended = await endedEvents('mandate.replaced', old?.reference);
    expect(ended).toHaveLength(1);
    expect(ended[0]?.payload).toMatchObject({
      mandate_id: old?.id,
      status: 'replaced',
      customer_code: me.user.code,
      iban: 'ES9121000418450200051332',
      replaced_by_reference: fresh?.reference,
      ended_at: expect.any(String),
    });
    const replaced = await admin('/mandates?status=replaced&limit=100');
    expect(replaced.json().mandates).toContainEqual(
      expect.objectContaining({
        reference: old?.reference,
        replaced_by_reference: fresh?.reference,
      }),
    );
  });

  it('two signatures at once leave exactly one active mandate', async () => {
    const replacedBefore = (await endedEvents('mandate.replaced')).length;
    const results = await Promise.all([
      add(account(ibanA, { alias: 'A' })),
      add(account(ibanB, { alias: 'B' })),
      add(account(ibanA, { alias: 'C' })),
    ]);
    for (const r of results) expect(r.statusCode, r.body).toBe(201);
    const all = await rows(me.user.code);
    expect(all.filter((r) => r.status === 'active')).toHaveLength(1);
    // The one left active is the last signed: newest first in the list, each replaced by the next.
    const list = (await mandates()).mandates;
    expect(list[0]?.status).toBe('active');
    expect(list[1]?.replaced_by_reference).toBe(list[0]?.reference);
    expect(list[2]?.replaced_by_reference).toBe(list[1]?.reference);
    // Three signatures ended three mandates (the one active before, then two of the three).
    const replaced = (await endedEvents('mandate.replaced')).slice(replacedBefore);
    expect(replaced).toHaveLength(3);
    expect(new Set(replaced.map((e) => e.payload.reference)).size).toBe(3);
  });

  it('deleting the account of the active mandate revokes it', async () => {
    const [active] = (await mandates()).mandates.filter((m) => m.status === 'active');
    const res = await app.inject({
      method: 'DELETE',
      url: `/demo/api/1.0/payment-methods/${active?.payment_method_id}`,
      headers: { authorization: `Bearer ${me.token}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = (await mandates()).mandates.find((m) => m.id === active?.id);
    expect(after?.status).toBe('revoked');
    const revoked = await endedEvents('mandate.revoked', active?.reference);
    expect(revoked).toHaveLength(1);
    expect(revoked[0]?.payload).toMatchObject({
      mandate_id: active?.id,
      status: 'revoked',
      customer_code: me.user.code,
      payment_method_id: active?.payment_method_id,
      replaced_by_reference: null,
    });
    // Deleting a bank account without an active mandate tells nothing.
    const methods = (await me.get('/payment-methods')).json<{
      methods: { id: string; kind: string; is_main: boolean }[];
    }>().methods;
    const bare = methods.find(
      (m) => m.kind === 'bank_account' && !m.is_main && m.id !== active?.payment_method_id,
    );
    const quiet = await app.inject({
      method: 'DELETE',
      url: `/demo/api/1.0/payment-methods/${bare?.id}`,
      headers: { authorization: `Bearer ${me.token}` },
    });
    expect(quiet.statusCode, quiet.body).toBe(200);
    expect(await endedEvents('mandate.revoked')).toHaveLength(1);
  });

  it('serves the PDF of the own mandate, with its reference and state', async () => {
    const [mandate] = (await mandates()).mandates;
    const link = await pdfLink(mandate?.id ?? '');
    expect(link.statusCode, link.body).toBe(200);
    const url = link.json<{ url: string }>().url;
    expect(url).toMatch(/^\/demo\/api\/1\.0\/sepa-mandates\/pdf\//);
    const pdf = await app.inject({ method: 'GET', url });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['cache-control']).toBe('private, no-store');
    const parser = new PDFParse({ data: new Uint8Array(pdf.rawPayload) });
    const text = (await parser.getText()).text.replace(/\s+/g, ' ');
    await parser.destroy();
    expect(text).toContain(mandate?.reference ?? '-');
    expect(text).toContain('Orden de domiciliación de adeudo directo SEPA');
    expect(text).toContain('Pago recurrente');
    expect(text).toContain('Revocada');
    expect(text).toContain('198.51.100.23');
  });

  it("another customer's mandate is a 404, and so is another tenant's", async () => {
    const [mandate] = (await mandates()).mandates;
    const id = mandate?.id ?? '';
    expect((await pdfLink(id, other)).statusCode).toBe(404);
    expect((await pdfLink(id, elsewhere, '1')).statusCode).toBe(404);
    expect((await mandates(other)).mandates.map((m) => m.id)).not.toContain(id);
    // A link of one tenant does not open under another.
    const url = (await pdfLink(id)).json<{ url: string }>().url;
    const foreign = await app.inject({ method: 'GET', url: url.replace('/demo/', '/1/') });
    expect(foreign.statusCode).toBe(404);
    const tampered = await app.inject({ method: 'GET', url: `${url.slice(0, -2)}xx` });
    expect(tampered.statusCode).toBe(404);
    // The provider of tenant 1 reads none of demo's mandates.
    const theirs = await admin('/mandates?limit=100', { key: oneKey, tenant: '1' });
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json().mandates.map((m: Mandate) => m.id)).not.toContain(id);
    expect((await admin('/mandates', { key: oneKey })).statusCode).toBe(401);
  });

  it('pages the admin list with next_cursor', async () => {
    const first = await admin('/mandates?limit=1');
    const page = first.json<{ mandates: Mandate[]; next_cursor: string | null }>();
    expect(page.mandates).toHaveLength(1);
    expect(page.next_cursor).toBe(page.mandates[0]?.id);
    const second = await admin(`/mandates?limit=1&before=${page.next_cursor}`);
    expect(second.json().mandates[0].id).not.toBe(page.mandates[0]?.id);
  });

  it('without a creditor identifier, bank accounts are added without a mandate', async () => {
    await db.withOwner((sql) =>
      sql.query(`UPDATE tenants SET sepa_creditor_id = '' WHERE id = '1'`),
    );
    try {
      expect((await mandates(elsewhere)).creditor).toBeNull();
      const res = await app.inject({
        method: 'POST',
        url: '/1/api/1.0/payment-methods/bank-account',
        headers: { authorization: `Bearer ${elsewhere.token}` },
        payload: account(ibanA, { mandate_accepted: undefined }),
      });
      expect(res.statusCode, res.body).toBe(201);
      expect((await mandates(elsewhere)).mandates).toHaveLength(0);
    } finally {
      await db.withOwner((sql) =>
        sql.query(`UPDATE tenants SET sepa_creditor_id = 'ES11ZZZB12345674' WHERE id = '1'`),
      );
    }
  });

  it('keeps the address the proxy forwards when TRUST_PROXY is on', async () => {
    const proxied = await buildTestApp(db, { TRUST_PROXY: 'true' });
    try {
      const who = await signedIn(proxied, 'demo', secondEmail);
      const res = await proxied.inject({
        method: 'POST',
        url: '/demo/api/1.0/payment-methods/bank-account',
        headers: { authorization: `Bearer ${who.token}`, 'x-forwarded-for': '203.0.113.9' },
        payload: account(ibanA, { holder: 'Jordi Puig Serra' }),
      });
      expect(res.statusCode, res.body).toBe(201);
      const signed = await rows(who.user.code);
      expect(signed.at(-1)?.signer_ip).toBe('203.0.113.9');
    } finally {
      await proxied.close();
    }
  });

  describe('an account saved before mandates existed', () => {
    const sign = (id: string, body: object, who: Session = me, tenant = 'demo') =>
      app.inject({
        method: 'POST',
        url: `/${tenant}/api/1.0/payment-methods/${encodeURIComponent(id)}/sepa-mandate`,
        headers: { authorization: `Bearer ${who.token}`, 'user-agent': 'MandateTest/2.0' },
        payload: body,
        remoteAddress: '198.51.100.77',
      });
    const seededAccount = async (who: Session = me) => {
      const res = await who.get('/payment-methods');
      const methods = res.json<{
        methods: { id: string; kind: string; alias: string; iban: string | null }[];
      }>().methods;
      const found = methods.find(
        (m) => m.kind === 'bank_account' && m.alias === 'Cuenta principal',
      );
      expect(found, 'the demo seed saves a bank account without a mandate').toBeDefined();
      return { id: found?.id ?? '', iban: found?.iban ?? '' };
    };
    const accepted = { mandate_accepted: true, mandate_language: 'ca' };

    it('has no mandate in the seed', async () => {
      const { id } = await seededAccount();
      expect((await mandates()).mandates.filter((m) => m.payment_method_id === id)).toEqual([]);
    });

    it('refuses without the explicit acceptance (422) and signs nothing', async () => {
      const { id } = await seededAccount();
      const signed = (await rows(me.user.code)).length;
      for (const body of [{}, { mandate_accepted: false }]) {
        const res = await sign(id, body);
        expect(res.statusCode, res.body).toBe(422);
        expect(res.json().errors).toEqual({ mandate_accepted: ['mandate_required'] });
      }
      expect((await rows(me.user.code)).length).toBe(signed);
    });

    it("another customer's account, or another tenant's, is a 404 and signs nothing", async () => {
      const { id } = await seededAccount();
      const signed = (await rows(me.user.code)).length;
      const otherSigned = (await rows(other.user.code)).length;
      expect((await sign(id, accepted, other)).statusCode).toBe(404);
      expect((await sign(id, accepted, elsewhere, '1')).statusCode).toBe(404);
      expect((await sign('not-a-method', accepted)).statusCode).toBe(404);
      // A card is not a bank account: nothing to sign.
      const card = (await me.get('/payment-methods'))
        .json<{ methods: { id: string; kind: string }[] }>()
        .methods.find((m) => m.kind === 'card');
      expect((await sign(card?.id ?? 'none', accepted)).statusCode).toBe(404);
      expect((await rows(me.user.code)).length).toBe(signed);
      expect((await rows(other.user.code)).length).toBe(otherSigned);
    });

    it('signs its mandate without the IBAN typed again: evidence, webhook, PDF', async () => {
      const { id, iban } = await seededAccount();
      const before = (await events()).length;
      const res = await sign(id, accepted);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().method).toMatchObject({ id, kind: 'bank_account' });
      const mandate = (await mandates()).mandates.find(
        (m) => m.payment_method_id === id && m.status === 'active',
      );
      expect(mandate).toMatchObject({ iban });
      const [row] = (await rows(me.user.code)).filter((r) => r.reference === mandate?.reference);
      expect(row).toMatchObject({ signer_ip: '198.51.100.77', user_agent: 'MandateTest/2.0' });
      const after = await events();
      expect(after.length).toBe(before + 1);
      expect(after.at(-1)?.payload).toMatchObject({
        reference: mandate?.reference,
        payment_method_id: id,
        customer_code: me.user.code,
        language: 'ca',
        signer_ip: '198.51.100.77',
      });
      const link = await pdfLink(mandate?.id ?? '');
      expect(link.statusCode, link.body).toBe(200);
    });

    it('refuses (409 mandate_active) an account that already has an active mandate', async () => {
      const { id } = await seededAccount();
      const signed = (await rows(me.user.code)).length;
      const res = await sign(id, accepted);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().code).toBe('mandate_active');
      expect((await rows(me.user.code)).length).toBe(signed);
    });

    it('signing for an older account replaces the active mandate of another one', async () => {
      const added = await add(account(ibanB, { alias: 'Nueva' }));
      expect(added.statusCode, added.body).toBe(201);
      const { id } = await seededAccount();
      const res = await sign(id, accepted);
      expect(res.statusCode, res.body).toBe(201);
      const list = (await mandates()).mandates;
      expect(list.filter((m) => m.status === 'active')).toEqual([
        expect.objectContaining({ payment_method_id: id }),
      ]);
      const newest = list.find((m) => m.payment_method_id === added.json().method.id);
      expect(newest?.status).toBe('replaced');
      expect(await endedEvents('mandate.replaced', newest?.reference)).toHaveLength(1);
    });

    it('without a creditor identifier, there is nothing to sign (409)', async () => {
      const { id } = await seededAccount(elsewhere);
      await db.withOwner((sql) =>
        sql.query(`UPDATE tenants SET sepa_creditor_id = '' WHERE id = '1'`),
      );
      try {
        const res = await sign(id, accepted, elsewhere, '1');
        expect(res.statusCode, res.body).toBe(409);
        expect(res.json().code).toBe('mandates_unavailable');
      } finally {
        await db.withOwner((sql) =>
          sql.query(`UPDATE tenants SET sepa_creditor_id = 'ES11ZZZB12345674' WHERE id = '1'`),
        );
      }
    });
  });
});
