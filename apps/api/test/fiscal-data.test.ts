import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmail, secondEmail } from '../src/db/seed/demo.ts';
import { createApiKey } from '../src/modules/admin/api-keys.ts';
import { engines } from './engines.ts';
import { openMailingApp, type MailingApp } from './mailing-app.ts';
import { signedIn } from './session.ts';

const asked = {
  invoice_name: 'García Martín Consultoría SL',
  nif: 'b-1234567.4',
  address: 'Calle de Alcalá 200, 4º',
  city: 'Madrid',
  country: 'España',
};
const stored = { ...asked, nif: 'B12345674' };

type Request = {
  id: string;
  status: string;
  requested: Record<string, string>;
  comment: string;
  reason: string;
  created_at: string;
  closed_at: string | null;
};
type State = { pending: Request | null; last_decision: Request | null };
type AdminRequest = Request & { customer_code: string; previous: Record<string, string> };

/**
 * Issue 23, item 1: fiscal data changes are a request the organisation reviews. The customer asks
 * (one waiting at a time), sees it pending, may withdraw it; the organisation lists and decides
 * through the integration API (a decision is taken once: a second one, or one on a withdrawn
 * request, is a 409); an approval writes the data to the customer; the customer is told by a
 * notification and an e-mail. Nobody reaches another customer's or tenant's request.
 */
describe.each(engines())('fiscal data requests on $name', (engine) => {
  let env: MailingApp;
  let app: FastifyInstance;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let other: Awaited<ReturnType<typeof signedIn>>;
  let elsewhere: Awaited<ReturnType<typeof signedIn>>;
  let demoKey: string;
  let oneKey: string;

  beforeAll(async () => {
    env = await openMailingApp(engine);
    app = env.app;
    me = await signedIn(app, 'demo');
    other = await signedIn(app, 'demo', secondEmail);
    elsewhere = await signedIn(app, '1');
    demoKey = (await env.db.withTenant('demo', (sql) => createApiKey(sql, 'fiscal test'))).key;
    oneKey = (await env.db.withTenant('1', (sql) => createApiKey(sql, 'fiscal test'))).key;
    const hook = await app.inject({
      method: 'PUT',
      url: '/demo/api/1.0/admin/webhook',
      headers: { authorization: `Bearer ${demoKey}` },
      payload: { url: 'https://erp.example.com/hooks', enabled: true },
    });
    expect(hook.statusCode, hook.body).toBe(200);
  });
  afterAll(async () => env.close());

  const call = (
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    { who = me, tenant = 'demo', body }: { who?: typeof me; tenant?: string; body?: object } = {},
  ) =>
    app.inject({
      method,
      url: `/${tenant}/api/1.0/user/fiscal-data-requests${path}`,
      headers: { authorization: `Bearer ${who.token}` },
      ...(body ? { payload: body } : {}),
    });
  const state = async (who = me, tenant = 'demo') => {
    const res = await call('GET', '', { who, tenant });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<State>();
  };
  const ask = (body: object = asked, who = me, tenant = 'demo') =>
    call('POST', '', { who, tenant, body });
  const withdraw = (id: string, who = me, tenant = 'demo') =>
    call('DELETE', `/${id}`, { who, tenant });
  const admin = (
    method: 'GET' | 'POST',
    path: string,
    body?: object,
    { key = demoKey, tenant = 'demo' } = {},
  ) =>
    app.inject({
      method,
      url: `/${tenant}/api/1.0/admin/fiscal-data-requests${path}`,
      headers: { authorization: `Bearer ${key}` },
      ...(body ? { payload: body } : {}),
    });
  const decide = (id: string, body: object, opts: { key?: string; tenant?: string } = {}) =>
    admin('POST', `/${id}/decision`, body, opts);
  const profile = async (who = me, tenant = 'demo') => {
    const res = await app.inject({
      method: 'GET',
      url: `/${tenant}/api/1.0/user/profile/${who.user.id}`,
      headers: { authorization: `Bearer ${who.token}` },
    });
    return res.json<Record<string, string>>();
  };
  const fiscalOf = async (who = me, tenant = 'demo') => {
    const p = await profile(who, tenant);
    return {
      invoice_name: p.invoice_name,
      nif: p.nif,
      address: p.address,
      city: p.city,
      country: p.country,
    };
  };
  const events = (type: string) =>
    env.db.withTenant('demo', (sql) =>
      sql.query<{ payload: Record<string, unknown> }>(
        `SELECT payload FROM webhook_events WHERE type = $1 ORDER BY created_at, id`,
        [type],
      ),
    );
  const inbox = async (who = me) =>
    (await who.post('/notifications', { filter: 'all', page: '1' })).json<{
      notifications: { type: string; params?: Record<string, string>; link: string | null }[];
    }>().notifications;
  /** Asks and answers the waiting request (withdrawing one left by an earlier test). */
  const freshRequest = async (body: object = asked, who = me): Promise<Request> => {
    const waiting = (await state(who)).pending;
    if (waiting) expect((await withdraw(waiting.id, who)).statusCode).toBe(200);
    const res = await ask(body, who);
    expect(res.statusCode, res.body).toBe(201);
    const pending = res.json<State>().pending;
    if (!pending) throw new Error('no pending request');
    return pending;
  };

  it('keeps the request pending, normalised, with the data as it stood, and tells the provider', async () => {
    const before = await fiscalOf();
    const res = await ask({ ...asked, comment: '  Facturad a la sociedad  ' });
    expect(res.statusCode, res.body).toBe(201);
    const { pending } = res.json<State>();
    expect(pending).toMatchObject({
      status: 'pending',
      requested: stored,
      comment: 'Facturad a la sociedad',
      reason: '',
      closed_at: null,
    });
    // Nothing changes until the organisation approves it.
    expect(await fiscalOf()).toEqual(before);
    expect((await state()).pending?.id).toBe(pending?.id);

    const list = await admin('GET', '?status=pending');
    expect(list.statusCode, list.body).toBe(200);
    const [listed] = list.json<{ requests: AdminRequest[] }>().requests;
    expect(listed).toMatchObject({
      id: pending?.id,
      customer_code: me.user.code,
      requested: stored,
      previous: before,
    });
    const [event] = (await events('customer.fiscal_data_change_requested')).slice(-1);
    expect(event?.payload).toMatchObject({
      request_id: pending?.id,
      customer_code: me.user.code,
      requested: stored,
      previous: before,
      comment: 'Facturad a la sociedad',
    });
  });

  it('refuses a second request while one waits, and the data as it stands', async () => {
    const pending = await freshRequest();
    const again = await ask({ ...asked, city: 'Toledo' });
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json<{ code: string }>().code).toBe('fiscal_request_pending');
    expect((await state()).pending?.id).toBe(pending.id);
    expect((await withdraw(pending.id)).statusCode).toBe(200);
    const same = await ask(await fiscalOf());
    expect(same.statusCode, same.body).toBe(409);
    expect(same.json<{ code: string }>().code).toBe('fiscal_data_unchanged');
  });

  it.each([
    ['nif', '12345678A', 'invalid_nif'],
    ['nif', 'B12345675', 'invalid_nif'],
    ['nif', '', 'required'],
    ['invoice_name', '   ', 'required'],
    ['address', 'x'.repeat(301), 'too_long'],
    ['city', 'Madrid\u0000', 'invalid_characters'],
    // Each is one line on every screen, invoice PDF and ERP record: a line break in an approved
    // name drew a forged "NIF: …" line under it in the invoice's recipient box (session 39).
    ['invoice_name', 'Laura García\nNIF: 99999999R', 'invalid_characters'],
    ['invoice_name', 'Laura García\r\nNIF: 99999999R', 'invalid_characters'],
    ['invoice_name', 'Laura García\u0085NIF: 99999999R', 'invalid_characters'],
    ['invoice_name', 'Laura García\u2028NIF: 99999999R', 'invalid_characters'],
    ['address', 'Calle de Alcalá 200\nNIF: 99999999R', 'invalid_characters'],
    ['city', 'Madrid\u2029NIF: 99999999R', 'invalid_characters'],
    ['country', 'España\nNIF: 99999999R', 'invalid_characters'],
  ])('refuses %s = %j with a 422 (%s), asking nothing', async (field, value, code) => {
    const waiting = (await state()).pending;
    if (waiting) await withdraw(waiting.id);
    const res = await ask({ ...asked, [field]: value });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json<{ errors: Record<string, string[]> }>().errors[field]).toContain(code);
    expect((await state()).pending).toBeNull();
  });

  it('refuses a field that is not fiscal data (the sign-in e-mail) and a missing one', async () => {
    for (const body of [
      { ...asked, email: 'otro@demo.test' },
      { nif: '12345678Z' },
      { ...asked, comment: 'x'.repeat(501) },
    ]) {
      const res = await ask(body);
      expect(res.statusCode, res.body).toBe(422);
    }
  });

  it('lets the customer withdraw, tells the provider, and a withdrawn one cannot be decided', async () => {
    const pending = await freshRequest();
    const res = await withdraw(pending.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<State>().pending).toBeNull();
    const [event] = (await events('customer.fiscal_data_change_withdrawn')).slice(-1);
    expect(event?.payload).toMatchObject({ request_id: pending.id, status: 'withdrawn' });
    expect(event?.payload.withdrawn_at).toEqual(expect.any(String));

    const decided = await decide(pending.id, { decision: 'approved' });
    expect(decided.statusCode, decided.body).toBe(409);
    expect(decided.json<{ code: string }>().code).toBe('fiscal_request_closed');
    const twice = await withdraw(pending.id);
    expect(twice.statusCode).toBe(409);
    expect(twice.json<{ code: string }>().code).toBe('fiscal_request_closed');
  });

  it('approves: the data becomes the customer’s, a notification and an e-mail tell them', async () => {
    const pending = await freshRequest();
    const otherBefore = await fiscalOf(other);
    const res = await decide(pending.id, { decision: 'approved' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<AdminRequest>()).toMatchObject({ status: 'approved', reason: '' });
    expect(await fiscalOf()).toEqual(stored);
    expect(await fiscalOf(other)).toEqual(otherBefore);

    const now = await state();
    expect(now.pending).toBeNull();
    expect(now.last_decision).toMatchObject({ id: pending.id, status: 'approved' });
    const [newest] = await inbox();
    expect(newest).toMatchObject({
      type: 'fiscal_data_reviewed',
      params: { answer: 'approved', reason: '' },
      link: '/user-profile',
    });
    const mail = await env.smtp.waitFor(demoEmail, 10_000, 'fiscal-data-approved');
    expect(mail.raw).toContain('B12345674');
    expect(mail.raw).toContain('/user-profile');

    // Deciding twice, even the same way, is a 409 and changes nothing.
    for (const body of [{ decision: 'approved' }, { decision: 'rejected', reason: 'No' }]) {
      const again = await decide(pending.id, body);
      expect(again.statusCode, again.body).toBe(409);
      expect(again.json<{ code: string }>().code).toBe('fiscal_request_closed');
    }
    expect((await inbox()).filter((n) => n.type === 'fiscal_data_reviewed')).toHaveLength(1);
  });

  it('rejects with a reason the customer reads; the profile hides it when dismissed', async () => {
    const before = await fiscalOf();
    const pending = await freshRequest({ ...asked, city: 'Alcalá de Henares' });
    const noReason = await decide(pending.id, { decision: 'rejected' });
    expect(noReason.statusCode).toBe(422);
    const reason = 'El CIF no corresponde a <b>la sociedad</b>';
    const res = await decide(pending.id, { decision: 'rejected', reason });
    expect(res.statusCode, res.body).toBe(200);
    expect(await fiscalOf()).toEqual(before);
    const { last_decision } = await state();
    expect(last_decision).toMatchObject({ status: 'rejected', reason });
    const [newest] = await inbox();
    expect(newest).toMatchObject({
      type: 'fiscal_data_reviewed',
      params: { answer: 'rejected', reason },
    });
    const mail = await env.smtp.waitFor(demoEmail, 10_000, 'fiscal-data-rejected');
    expect(mail.raw).toContain('&#60;b&#62;la sociedad&#60;/b&#62;');
    expect(mail.raw).not.toContain('<b>la sociedad</b></p>');

    const dismissed = await call('POST', `/${pending.id}/dismiss`);
    expect(dismissed.statusCode, dismissed.body).toBe(200);
    expect(dismissed.json<State>().last_decision).toBeNull();
  });

  it('keeps every request to its customer and tenant: another one’s id is a 404', async () => {
    const mine = await freshRequest({ ...asked, city: 'Getafe' });
    for (const [who, tenant] of [
      [other, 'demo'],
      [elsewhere, '1'],
    ] as const) {
      expect((await withdraw(mine.id, who, tenant)).statusCode).toBe(404);
      expect((await call('POST', `/${mine.id}/dismiss`, { who, tenant })).statusCode).toBe(404);
      expect((await state(who, tenant)).pending?.id).not.toBe(mine.id);
    }
    // The other tenant's key neither lists nor decides it.
    const foreign = await admin('GET', '', undefined, { key: oneKey, tenant: '1' });
    expect(foreign.json<{ requests: AdminRequest[] }>().requests.map((r) => r.id)).not.toContain(
      mine.id,
    );
    const decidedElsewhere = await decide(
      mine.id,
      { decision: 'approved' },
      { key: oneKey, tenant: '1' },
    );
    expect(decidedElsewhere.statusCode).toBe(404);
    // Nor does the demo key on tenant 1's path, nor a made-up key.
    expect((await decide(mine.id, { decision: 'approved' }, { tenant: '1' })).statusCode).toBe(401);
    expect(
      (await decide(mine.id, { decision: 'approved' }, { key: 'ptk_not_a_key' })).statusCode,
    ).toBe(401);
    expect((await decide('not-a-uuid', { decision: 'approved' })).statusCode).toBe(404);
    expect((await state()).pending?.id).toBe(mine.id);
  });

  it('two decisions at once: one wins, the other is a 409, the customer is told once', async () => {
    const pending = await freshRequest({ ...asked, address: 'Calle de Atocha 5' });
    const told = (await inbox()).filter((n) => n.type === 'fiscal_data_reviewed').length;
    const answers = await Promise.all([
      decide(pending.id, { decision: 'approved' }),
      decide(pending.id, { decision: 'rejected', reason: 'Falta la escritura' }),
      decide(pending.id, { decision: 'approved' }),
    ]);
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([200, 409, 409]);
    const winner = answers.find((a) => a.statusCode === 200)?.json<AdminRequest>();
    expect((await state()).last_decision?.status).toBe(winner?.status);
    expect((await inbox()).filter((n) => n.type === 'fiscal_data_reviewed')).toHaveLength(told + 1);
    await env.smtp.waitFor(demoEmail, 10_000, `fiscal-data-${winner?.status}`);
  });

  it('a withdrawal racing a decision: exactly one of them happens', async () => {
    const pending = await freshRequest({ ...asked, address: 'Paseo del Prado 8' });
    const [withdrawn, decided] = await Promise.all([
      withdraw(pending.id),
      decide(pending.id, { decision: 'approved' }),
    ]);
    expect([withdrawn.statusCode, decided.statusCode].sort()).toEqual([200, 409]);
    const list = await admin('GET', '?limit=100');
    const row = list.json<{ requests: AdminRequest[] }>().requests.find((r) => r.id === pending.id);
    expect(row?.status).toBe(withdrawn.statusCode === 200 ? 'withdrawn' : 'approved');
    if (decided.statusCode === 200)
      await env.smtp.waitFor(demoEmail, 10_000, 'fiscal-data-approved');
  });

  it('pages the organisation’s list newest first and filters by status', async () => {
    const first = await admin('GET', '?limit=1');
    const page = first.json<{ requests: AdminRequest[]; next_cursor: string }>();
    expect(page.requests).toHaveLength(1);
    const second = await admin('GET', `?limit=1&before=${page.next_cursor}`);
    const next = second.json<{ requests: AdminRequest[] }>().requests[0];
    expect(next?.id).not.toBe(page.requests[0]?.id);
    expect(Date.parse(next?.created_at ?? '')).toBeLessThanOrEqual(
      Date.parse(page.requests[0]?.created_at ?? ''),
    );
    const rejected = await admin('GET', '?status=rejected&limit=100');
    const statuses = rejected.json<{ requests: AdminRequest[] }>().requests.map((r) => r.status);
    expect(statuses.length).toBeGreaterThan(0);
    expect(new Set(statuses)).toEqual(new Set(['rejected']));
    expect((await admin('GET', '?status=lost')).statusCode).toBe(422);
  });

  it('needs a signed-in customer', async () => {
    const anonymous = await app.inject({
      method: 'POST',
      url: '/demo/api/1.0/user/fiscal-data-requests',
      payload: asked,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
