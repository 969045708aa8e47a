import { customerLimits, threadMessageMaxLength } from '@portal/contract';
import { invoiceThreadAdminRoutes } from '@portal/contract/admin-invoice-threads';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoEmail, secondEmail } from '../src/db/seed/demo.ts';
import { createApiKey } from '../src/modules/admin/api-keys.ts';
import { engines } from './engines.ts';
import { openMailingApp, type MailingApp } from './mailing-app.ts';
import { signedIn } from './session.ts';

type Session = Awaited<ReturnType<typeof signedIn>>;
type Thread = {
  thread: { id: string; invoice_id: string; status: string; organisation_read_at: string | null };
  messages: { id: string; author: string; author_name: string; body: string }[];
};
type Summary = { id: string; invoice_id: string; unread: boolean; last_message: { body: string } };

/**
 * Issue 23, item 7 "Ask about this invoice": a customer opens a conversation about one of their own
 * invoices; the organisation reads and answers through the ingestion API (and hears of every
 * customer message by webhook); an answer is a notification and an e-mail; unread conversations are
 * marked. Someone else's invoice or conversation, in this tenant or another, is a 404.
 */
describe.each(engines())('conversations about invoices on $name', (engine) => {
  let env: MailingApp;
  let app: FastifyInstance;
  let me: Session;
  let other: Session;
  let elsewhere: Session;
  let demoKey: string;
  let oneKey: string;
  let myInvoices: string[];
  let otherInvoice: string;
  let threadId: string;

  const invoicesOf = (tenant: string, email: string) =>
    env.db.withTenant(tenant, (sql) =>
      sql.query<{ id: string }>(
        `SELECT i.id FROM invoices i JOIN customers c ON c.tenant_id = i.tenant_id AND c.id = i.customer_id
          WHERE lower(c.email) = lower($1) ORDER BY i.invoice_date DESC, i.id`,
        [email],
      ),
    );

  beforeAll(async () => {
    env = await openMailingApp(engine);
    app = env.app;
    me = await signedIn(app, 'demo');
    other = await signedIn(app, 'demo', secondEmail);
    elsewhere = await signedIn(app, '1');
    demoKey = (await env.db.withTenant('demo', (sql) => createApiKey(sql, 'threads test'))).key;
    oneKey = (await env.db.withTenant('1', (sql) => createApiKey(sql, 'threads test'))).key;
    myInvoices = (await invoicesOf('demo', demoEmail)).map((r) => r.id);
    const [first] = (await invoicesOf('demo', secondEmail)).map((r) => r.id);
    if (!first || myInvoices.length < customerLimits.openInvoiceThreads + 2)
      throw new Error('the seed has too few invoices for this test');
    otherInvoice = first;
    // The provider has a webhook endpoint: customer messages become events.
    const hook = await app.inject({
      method: 'PUT',
      url: '/demo/api/1.0/admin/webhook',
      headers: { authorization: `Bearer ${demoKey}` },
      payload: { url: 'https://erp.example.com/portal/webhooks', enabled: true },
    });
    expect(hook.statusCode, hook.body).toBe(200);
  });
  afterAll(async () => env.close());

  const call = (
    who: Session,
    method: 'GET' | 'POST',
    path: string,
    payload?: object,
    tenant = 'demo',
  ) =>
    app.inject({
      method,
      url: `/${tenant}/api/1.0${path}`,
      headers: { authorization: `Bearer ${who.token}` },
      ...(payload ? { payload } : {}),
    });
  const admin = (
    method: 'GET' | 'POST',
    path: string,
    payload?: object,
    { key = demoKey, tenant = 'demo' } = {},
  ) =>
    app.inject({
      method,
      url: `/${tenant}/api/1.0/admin${path}`,
      headers: { authorization: `Bearer ${key}` },
      ...(payload ? { payload } : {}),
    });
  const list = async (who = me, tenant = 'demo') => {
    const res = await call(who, 'POST', '/invoice-threads/list', {}, tenant);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ threads: Summary[]; unread: number; has_more: boolean }>();
  };
  const count = (sqlText: string, params: unknown[] = []) =>
    env.db.withTenant('demo', async (sql) => {
      const rows = await sql.query<{ n: number }>(sqlText, params);
      return rows[0]?.n ?? 0;
    });

  it('opens a conversation on an own invoice, trimmed, and tells the provider by webhook', async () => {
    const invoice = myInvoices[0] ?? '';
    const res = await call(me, 'POST', '/invoice-threads', {
      invoice_id: invoice,
      message: '  ¿Por qué la cuota de este mes es más alta?  ',
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json<Thread>();
    threadId = body.thread.id;
    expect(body.thread).toMatchObject({
      invoice_id: invoice,
      status: 'open',
      organisation_read_at: null,
    });
    expect(body.messages).toEqual([
      expect.objectContaining({
        author: 'customer',
        body: '¿Por qué la cuota de este mes es más alta?',
      }),
    ]);

    const mine = await list();
    expect(mine.threads.map((t) => t.id)).toEqual([threadId]);
    // My own message is not unread to me.
    expect(mine.threads[0]?.unread).toBe(false);
    expect(mine.unread).toBe(0);
    const filtered = await call(me, 'POST', '/invoice-threads/list', { invoice_id: invoice });
    expect(filtered.json<{ threads: Summary[] }>().threads).toHaveLength(1);
    // Nobody else sees it.
    expect((await list(other)).threads).toEqual([]);

    const events = await env.db.withTenant('demo', (sql) =>
      sql.query<{ payload: Record<string, unknown> }>(
        `SELECT payload FROM webhook_events WHERE type = 'invoice_thread.message_created'`,
      ),
    );
    expect(events).toHaveLength(1);
    expect(events[0]?.payload).toMatchObject({
      thread_id: threadId,
      invoice_id: invoice,
      author: 'customer',
      first: true,
      body: '¿Por qué la cuota de este mes es más alta?',
    });
  });

  it("refuses another customer's invoice and conversation, and another tenant's, as 404", async () => {
    const before = await count('SELECT count(*)::int AS n FROM invoice_thread_messages');
    const foreign = await call(me, 'POST', '/invoice-threads', {
      invoice_id: otherInvoice,
      message: 'Hola',
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ code: 'not_found', message: expect.any(String) });
    const unknown = await call(me, 'POST', '/invoice-threads', {
      invoice_id: 'FV-NO-EXISTE',
      message: 'Hola',
    });
    expect(unknown.statusCode).toBe(404);

    expect((await call(other, 'GET', `/invoice-threads/${threadId}`)).statusCode).toBe(404);
    const reply = await call(other, 'POST', `/invoice-threads/${threadId}/messages`, {
      message: 'Me cuelo',
    });
    expect(reply.statusCode).toBe(404);
    // Another tenant's customer, with the same e-mail, on their own portal.
    expect(
      (await call(elsewhere, 'GET', `/invoice-threads/${threadId}`, undefined, '1')).statusCode,
    ).toBe(404);
    const crossReply = await call(
      elsewhere,
      'POST',
      `/invoice-threads/${threadId}/messages`,
      { message: 'Me cuelo' },
      '1',
    );
    expect(crossReply.statusCode).toBe(404);
    // A demo token on tenant 1's portal is not a session there.
    expect((await call(me, 'POST', '/invoice-threads/list', {}, '1')).statusCode).toBe(401);
    // Another tenant's API key neither lists nor answers it.
    const theirs = await admin('GET', '/invoice-threads', undefined, { key: oneKey, tenant: '1' });
    expect(theirs.json<{ threads: unknown[] }>().threads).toEqual([]);
    const answer = await admin(
      'POST',
      `/invoice-threads/${threadId}/messages`,
      { message: 'Hola' },
      { key: oneKey, tenant: '1' },
    );
    expect(answer.statusCode).toBe(404);
    expect(await count('SELECT count(*)::int AS n FROM invoice_thread_messages')).toBe(before);
    expect(
      await count('SELECT count(*)::int AS n FROM notifications WHERE type = $1', [
        'invoice_thread_answered',
      ]),
    ).toBe(0);
  });

  it('an answer of the organisation is one notification and one e-mail, and marks the conversation unread until read', async () => {
    const listed = await admin('GET', '/invoice-threads?status=open');
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json<{ threads: { id: string; messages: number }[] }>().threads).toEqual([
      expect.objectContaining({
        id: threadId,
        messages: 1,
        unread: 1,
        customer_code: me.user.code,
      }),
    ]);

    const res = await admin('POST', `/invoice-threads/${threadId}/messages`, {
      message: 'Incluye la matrícula del trimestre.',
      author_name: 'Laura, administración',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<{ message: Record<string, unknown> }>().message).toMatchObject({
      thread_id: threadId,
      author: 'organisation',
      author_name: 'Laura, administración',
    });

    const mail = await env.smtp.waitFor(demoEmail, 10_000, 'invoice-thread-answer');
    expect(mail.raw).toContain(`/consultas/${threadId}`);
    // The answer itself stays in the portal.
    expect(mail.raw).not.toContain('matrícula del trimestre');

    const notes = await call(me, 'POST', '/notifications', {});
    const found = notes
      .json<{ notifications: { type: string; link: string | null; params?: unknown }[] }>()
      .notifications.filter((n) => n.type === 'invoice_thread_answered');
    expect(found).toEqual([
      expect.objectContaining({
        link: `/consultas/${threadId}`,
        params: { thread_id: threadId, invoice_id: myInvoices[0] },
      }),
    ]);

    const unread = await list();
    expect(unread.unread).toBe(1);
    // The menu's badge asks for the count alone; the other customer's is theirs.
    const badge = await call(me, 'GET', '/invoice-threads/unread-count');
    expect(badge.statusCode, badge.body).toBe(200);
    expect(badge.json()).toEqual({ unread: 1 });
    expect((await call(other, 'GET', '/invoice-threads/unread-count')).json()).toEqual({
      unread: 0,
    });
    expect(unread.threads[0]).toMatchObject({
      unread: true,
      last_message: { body: 'Incluye la matrícula del trimestre.' },
    });

    const read = await call(me, 'GET', `/invoice-threads/${threadId}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json<Thread>().messages.map((m) => m.author)).toEqual(['customer', 'organisation']);
    const after = await list();
    expect(after.unread).toBe(0);
    expect((await call(me, 'GET', '/invoice-threads/unread-count')).json()).toEqual({ unread: 0 });
    expect(after.threads[0]?.unread).toBe(false);
    // An organisation's answer tells no webhook (the provider wrote it).
    expect(
      await count(
        `SELECT count(*)::int AS n FROM webhook_events WHERE type = 'invoice_thread.message_created'`,
      ),
    ).toBe(1);
  });

  it('replies go to the same conversation; the provider reads them forward with since', async () => {
    const first = await admin('GET', '/invoice-thread-messages?limit=100');
    const { messages, next_cursor } = first.json<{
      messages: { id: string }[];
      next_cursor: string;
    }>();
    expect(messages).toHaveLength(2);

    const reply = await call(me, 'POST', `/invoice-threads/${threadId}/messages`, {
      message: 'Gracias',
    });
    expect(reply.statusCode, reply.body).toBe(201);
    // Asking again about the same invoice adds to the open conversation.
    const again = await call(me, 'POST', '/invoice-threads', {
      invoice_id: myInvoices[0],
      message: 'Y otra cosa',
    });
    expect(again.json<Thread>().thread.id).toBe(threadId);

    const later = await admin(`GET`, `/invoice-thread-messages?since=${next_cursor}`);
    expect(later.json<{ messages: { body: string }[] }>().messages.map((m) => m.body)).toEqual([
      'Gracias',
      'Y otra cosa',
    ]);
    expect(
      await count(
        `SELECT count(*)::int AS n FROM webhook_events WHERE type = 'invoice_thread.message_created'`,
      ),
    ).toBe(3);
  });

  it("counts the customer's messages the organisation has not read, filters them, and marks them read", async () => {
    type Listed = { threads: { id: string; unread: number; messages: number }[] };
    const unreadOnes = async (filter: string) => {
      const res = await admin('GET', `/invoice-threads?${filter}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<Listed>().threads;
    };
    // The answer marked it read up to then: the two later customer messages are unread.
    expect(await unreadOnes('unread=true')).toEqual([
      expect.objectContaining({ id: threadId, unread: 2, messages: 4 }),
    ]);
    expect((await unreadOnes('unread=false')).map((t) => t.id)).not.toContain(threadId);

    // Another tenant's key cannot mark it, nor see it.
    const foreign = await admin('POST', `/invoice-threads/${threadId}/read`, undefined, {
      key: oneKey,
      tenant: '1',
    });
    expect(foreign.statusCode).toBe(404);
    expect((await unreadOnes('unread=true')).map((t) => t.id)).toContain(threadId);

    const read = await admin('POST', `/invoice-threads/${threadId}/read`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json<{ thread: { id: string; unread: number } }>().thread).toMatchObject({
      id: threadId,
      unread: 0,
    });
    // The customer sees that their messages so far were read.
    const seen = (await call(me, 'GET', `/invoice-threads/${threadId}`)).json<Thread>();
    const lastMine = seen.messages.at(-1) as { created_at?: string } | undefined;
    expect(seen.thread.organisation_read_at).not.toBeNull();
    expect(
      Date.parse(seen.thread.organisation_read_at ?? '') >= Date.parse(lastMine?.created_at ?? ''),
    ).toBe(true);
    expect(await unreadOnes('unread=true')).toEqual([]);
    expect(await unreadOnes('unread=false')).toEqual([
      expect.objectContaining({ id: threadId, unread: 0 }),
    ]);
    // Reading is the organisation's own marker: the customer's unread state does not change.
    expect((await list()).unread).toBe(0);

    // A later customer message is unread again.
    const reply = await call(me, 'POST', `/invoice-threads/${threadId}/messages`, {
      message: 'Una pregunta más',
    });
    expect(reply.statusCode, reply.body).toBe(201);
    expect(await unreadOnes('unread=true')).toEqual([
      expect.objectContaining({ id: threadId, unread: 1 }),
    ]);
    expect((await admin('GET', '/invoice-threads?unread=yes')).statusCode).toBe(422);
    expect(
      (await admin('POST', '/invoice-threads/00000000-0000-4000-8000-000000000000/read'))
        .statusCode,
    ).toBe(404);
  });

  it('a closed conversation takes no more messages from either side', async () => {
    const closed = await admin('POST', `/invoice-threads/${threadId}/close`);
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json<{ thread: { status: string } }>().thread.status).toBe('closed');
    const reply = await call(me, 'POST', `/invoice-threads/${threadId}/messages`, {
      message: 'Hola',
    });
    expect(reply.statusCode).toBe(409);
    expect(reply.json<{ code: string }>().code).toBe('invoice_thread_closed');
    const answer = await admin('POST', `/invoice-threads/${threadId}/messages`, { message: 'x' });
    expect(answer.statusCode).toBe(409);
    expect(
      (await admin('POST', '/invoice-threads/00000000-0000-4000-8000-000000000000/close'))
        .statusCode,
    ).toBe(404);
  });

  it(`keeps at most ${customerLimits.openInvoiceThreads} conversations open`, async () => {
    const invoices = myInvoices.slice(1, customerLimits.openInvoiceThreads + 2);
    const answers = [];
    for (const invoice of invoices)
      answers.push(
        (await call(me, 'POST', '/invoice-threads', { invoice_id: invoice, message: 'Duda' }))
          .statusCode,
      );
    expect(answers).toEqual([...Array<number>(customerLimits.openInvoiceThreads).fill(201), 409]);
    const refused = await call(me, 'POST', '/invoice-threads', {
      invoice_id: invoices.at(-1),
      message: 'Duda',
    });
    expect(refused.json<{ code: string }>().code).toBe('invoice_thread_limit');
  });

  it('lets two tabs at once not pass the cap of open conversations', async () => {
    const invoices = (await invoicesOf('demo', secondEmail))
      .map((r) => r.id)
      .slice(0, customerLimits.openInvoiceThreads + 2);
    expect(invoices.length).toBeGreaterThan(customerLimits.openInvoiceThreads);
    const codes = await Promise.all(
      invoices.map(
        async (invoice) =>
          (
            await call(other, 'POST', '/invoice-threads', {
              invoice_id: invoice,
              message: 'A la vez',
            })
          ).statusCode,
      ),
    );
    expect(codes.filter((c) => c === 201)).toHaveLength(customerLimits.openInvoiceThreads);
    expect(codes.filter((c) => c === 409)).toHaveLength(
      invoices.length - customerLimits.openInvoiceThreads,
    );
  });

  it('limits how many messages a customer writes per hour', async () => {
    const [invoice] = (await invoicesOf('1', demoEmail)).map((r) => r.id);
    const opened = await call(
      elsewhere,
      'POST',
      '/invoice-threads',
      { invoice_id: invoice, message: 'Uno' },
      '1',
    );
    expect(opened.statusCode, opened.body).toBe(201);
    const id = opened.json<Thread>().thread.id;
    const codes: number[] = [];
    for (let i = 1; i <= customerLimits.invoiceThreadMessagesPerHour; i++)
      codes.push(
        (await call(elsewhere, 'POST', `/invoice-threads/${id}/messages`, { message: `${i}` }, '1'))
          .statusCode,
      );
    // The hour's budget: the opening message and these replies.
    const allowed = customerLimits.invoiceThreadMessagesPerHour - 1;
    expect(codes.slice(0, allowed).every((c) => c === 201)).toBe(true);
    expect(codes.slice(allowed)).toEqual([429]);
  });

  it("documents the organisation's calls with examples in the OpenAPI document", async () => {
    type Media = { example?: unknown; examples?: unknown };
    type Operation = {
      parameters?: { in: string; name: string; example?: unknown; schema?: Media }[];
      requestBody?: { content: Record<string, Media> };
      responses: Record<string, { content: Record<string, Media> } | undefined>;
    };
    const doc = (await app.inject({ method: 'GET', url: '/demo/api/1.0/openapi.json' })).json<{
      paths: Record<string, Record<string, Operation>>;
    }>();
    for (const [name, def] of Object.entries(invoiceThreadAdminRoutes)) {
      const path = `/{tenant}/api/1.0${def.path.replace(/:(\w+)/g, '{$1}')}`;
      const op = doc.paths[path]?.[def.method.toLowerCase()];
      const status = String('status' in def ? def.status : 200);
      const answer = op?.responses[status]?.content['application/json'];
      expect(answer?.example ?? answer?.examples, `${name} response example`).toBeDefined();
      if ('body' in def) {
        const body = op?.requestBody?.content['application/json'];
        expect(body?.example ?? body?.examples, `${name} request example`).toBeDefined();
      }
      for (const p of (op?.parameters ?? []).filter((q) => q.in === 'query'))
        expect(p.example ?? p.schema?.examples, `${name} ${p.name}`).toBeDefined();
    }
  });

  it('refuses bad input with a 4xx and a code', async () => {
    const bodies = [
      { invoice_id: myInvoices[0], message: '' },
      { invoice_id: myInvoices[0], message: '   \n  ' },
      { invoice_id: myInvoices[0], message: 'x'.repeat(threadMessageMaxLength + 1) },
      { invoice_id: myInvoices[0], message: 'a\u0000b' },
      { invoice_id: myInvoices[0], message: 'Hola', attachment: 'x' },
      { invoice_id: '', message: 'Hola' },
      { message: 'Hola' },
    ];
    for (const body of bodies) {
      const res = await call(other, 'POST', '/invoice-threads', body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(422);
    }
    const empty = await call(other, 'POST', '/invoice-threads', {
      invoice_id: otherInvoice,
      message: ' ',
    });
    expect(empty.json<{ errors: Record<string, string[]> }>().errors.message).toEqual(['required']);
    expect((await call(other, 'GET', '/invoice-threads/no-es-un-id')).statusCode).toBe(404);
    expect((await call(other, 'GET', `/invoice-threads/${'x'.repeat(65)}`)).statusCode).toBe(422);
    expect((await admin('GET', '/invoice-thread-messages?since=nope')).statusCode).toBe(422);
    expect(
      (await admin('POST', '/invoice-threads/no-es-un-id/messages', { message: '' })).statusCode,
    ).toBe(422);
    const anonymous = await app.inject({
      method: 'POST',
      url: '/demo/api/1.0/invoice-threads/list',
      payload: {},
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
