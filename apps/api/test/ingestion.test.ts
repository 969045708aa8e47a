import { ingestionRoutes } from '@portal/contract/admin-ingestion';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { demoEmail } from '../src/db/seed/demo.ts';
import { createApiKey } from '../src/modules/admin/api-keys.ts';
import { createInvitationSender } from '../src/modules/ingestion/invitations.ts';
import { createMailer } from '../src/modules/mail/mailer.ts';
import { buildTestApp, engines } from './engines.ts';
import { signedIn } from './session.ts';
import { startSmtp } from '../../../tools/test-smtp.ts';
import { dumpTables } from './table-dump.ts';

type OpenApiMedia = { example?: unknown; examples?: unknown };
type OpenApiParameter = OpenApiMedia & { in: string; name: string; schema?: OpenApiMedia };
type OpenApiOperation = {
  parameters?: OpenApiParameter[];
  requestBody?: { content: Record<string, OpenApiMedia> };
  responses: Record<string, { content: Record<string, OpenApiMedia> } | undefined>;
};

const range = { datefrom: '20000101', dateto: '20991231' };
const password = 'Nueva-clave-2026!';

type Invoice = {
  id: string;
  customer_code: string;
  invoice_date: string;
  base_cents: number;
  vat_cents: number;
  total_cents: number;
  cancelled?: boolean;
  lines: {
    line_no: number;
    person?: string;
    concept: string;
    quota?: string;
    quantity: number;
    unit_price_cents: number;
    vat_rate: number;
  }[];
  instalments: {
    seq: number;
    due_date: string;
    amount_cents: number;
    method?: string;
    status?: string;
    paid_date?: string;
  }[];
};

/** An invoice of `base` cents plus 21 % VAT, in one instalment or two. */
function invoice(id: string, customer: string, base: number, parts = 1): Invoice {
  const vat = Math.round(base * 0.21);
  const total = base + vat;
  const first = parts === 1 ? total : Math.floor(total / 2);
  return {
    id,
    customer_code: customer,
    invoice_date: '2026-03-01',
    base_cents: base,
    vat_cents: vat,
    total_cents: total,
    lines: [
      {
        line_no: 1,
        person: 'Pau',
        concept: 'Cuota mensual',
        quota: 'Marzo',
        quantity: 1,
        unit_price_cents: base,
        vat_rate: 21,
      },
    ],
    instalments: [
      { seq: 1, due_date: '2026-03-05', amount_cents: first, method: 'Domiciliación' },
      ...(parts === 2
        ? [{ seq: 2, due_date: '2099-04-05', amount_cents: total - first, method: 'Domiciliación' }]
        : []),
    ],
  };
}

describe.each(engines())('ingestion API on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let demoKey: string;
  let oneKey: string;
  let sender: ReturnType<typeof createInvitationSender>;

  beforeAll(async () => {
    db = await engine.open();
    smtp = await startSmtp();
    app = await buildTestApp(db, { SMTP_URL: smtp.url, PUBLIC_URL: 'http://localhost:3000' });
    demoKey = (await db.withTenant('demo', (sql) => createApiKey(sql, 'ingestion test'))).key;
    oneKey = (await db.withTenant('1', (sql) => createApiKey(sql, 'tenant 1'))).key;
    sender = createInvitationSender({
      db,
      mailer: createMailer({ smtpUrl: smtp.url, outboxDir: '/nonexistent', log: () => {} }),
    });
  });
  afterAll(async () => {
    await app.close();
    await db.close();
    await smtp.close();
  });

  const admin = (
    method: 'PUT' | 'POST',
    path: string,
    payload: object,
    headers: Record<string, string> = { authorization: `Bearer ${demoKey}` },
  ) => app.inject({ method, url: `/demo/api/1.0/admin${path}`, payload, headers });
  const putCustomers = (customers: object[]) => admin('PUT', '/customers', { customers });
  const putInvoices = (invoices: object[]) => admin('PUT', '/invoices', { invoices });
  const setStatus = (changes: object[]) => admin('POST', '/instalments/status', { changes });
  const putNotifications = (notifications: object[]) =>
    admin('PUT', '/notifications', { notifications });
  const ok = (res: LightMyRequestResponse) => {
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ created: number; updated: number; unchanged: number; invited?: number }>();
  };

  /** The full contents of every table of the schema, on every tenant. */
  const snapshot = () => db.withOwner((sql) => dumpTables(sql));
  const count = async (table: string, where = 'true') => {
    const [row] = await db.withOwner((sql) =>
      sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`),
    );
    return row?.n ?? 0;
  };

  const linkIn = (raw: string) => {
    const match =
      /(http:\/\/[^\s"<>]+\/reset-password\?token=[\w-]+&(?:amp;)?email=[^\s"<>]+)/.exec(raw);
    if (!match?.[1]) throw new Error('no link in the e-mail');
    const url = new URL(match[1].replace(/&amp;/g, '&'));
    return {
      token: url.searchParams.get('token') ?? '',
      email: url.searchParams.get('email') ?? '',
    };
  };
  const resetPassword = (token: string, email: string) =>
    app.inject({
      method: 'POST',
      url: '/demo/api/1.0/reset-password',
      payload: { token, email, password, password_confirmation: password },
      remoteAddress: `10.77.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
    });

  const marta = {
    code: 'ING-0001',
    email: 'Marta.Soler@ingestion.test',
    name: 'Marta',
    last_name: 'Soler Vidal',
    nif: '12345678Z',
    address: 'Carrer Major 12',
    city: 'Girona',
    phone: '+34 600 123 456',
    payment_method_label: 'Domiciliación bancaria',
    entry_date: '2024-09-01',
    language: 'en',
  };
  const f1 = invoice('ING-F-1', marta.code, 10_000, 2);
  const f2 = invoice('ING-F-2', marta.code, 5_000);
  const martaInvoices = [f1, f2];
  let customer: Awaited<ReturnType<typeof signedIn>>;

  describe('a new customer and her invoices', () => {
    it('creates the customer, queues one invitation, and the invoices', async () => {
      expect(ok(await putCustomers([marta]))).toEqual({
        created: 1,
        updated: 0,
        unchanged: 0,
        invited: 1,
        kept: [],
      });
      expect(ok(await putInvoices(martaInvoices))).toEqual({
        created: 2,
        updated: 0,
        unchanged: 0,
      });
      expect(await count('customer_invitations', "status = 'pending'")).toBe(1);
    });

    it('e-mails the invitation in her language; its link sets her password; she sees her invoices', async () => {
      expect(await sender.sendDue()).toBe(1);
      const mail = await smtp.waitFor(marta.email);
      expect(mail.raw).toMatch(/Subject: Your access to the .+ online office/);
      expect(mail.raw).toContain('Choose my password');
      const { token, email } = linkIn(mail.raw);
      expect(email).toBe(marta.email);
      const [reset] = await db.withTenant('demo', (sql) =>
        sql.query<{ days: number }>(
          `SELECT round(extract(epoch FROM expires_at - now()) / 86400)::int AS days
             FROM password_resets WHERE lower(email) = lower($1)`,
          [marta.email],
        ),
      );
      expect(reset?.days).toBe(7);
      expect(await sender.sendDue()).toBe(0);
      expect(await count('customer_invitations', "status = 'sent' AND sent_at IS NOT NULL")).toBe(
        1,
      );

      const res = await resetPassword(token, email);
      expect(res.statusCode, res.body).toBe(200);
      expect((await resetPassword(token, email)).statusCode).toBe(422);

      customer = await signedIn(app, 'demo', marta.email, password);
      expect(customer.user.code).toBe(marta.code);
      const list = (await customer.post('/invoices', { ...range, page: '1' })).json<{
        invoices: { invoice_id: string; amount: number; total: number }[];
      }>();
      expect(list.invoices.map((i) => i.invoice_id).sort()).toEqual(['ING-F-1', 'ING-F-2']);
      expect(list.invoices.find((i) => i.invoice_id === 'ING-F-1')?.total).toBe(121);
      const detail = (await customer.post('/invoice', { invoice_id: 'ING-F-1' })).json<{
        invoice: { lines: { concept: string }[]; payments: { import: number; state: string }[] };
      }>().invoice;
      expect(detail.lines.map((l) => l.concept)).toEqual(['Cuota mensual']);
      expect(detail.payments.map((p) => p.import)).toEqual([60.5, 60.5]);
      const profile = await customer.get(`/user/profile/${marta.code}`);
      expect(profile.json()).toMatchObject({ lastName: 'Soler Vidal', entry_date: '2024-09-01' });
      // Migration 005 tells the customer of each new invoice.
      const inbox = (await customer.post('/notifications', { page: '1' })).json<{
        notifications: { type: string }[];
      }>();
      expect(inbox.notifications.filter((n) => n.type === 'invoice_new')).toHaveLength(2);
    });

    it('changes nothing when the same batches are replayed', async () => {
      const before = await snapshot();
      expect(ok(await putCustomers([marta]))).toEqual({
        created: 0,
        updated: 0,
        unchanged: 1,
        invited: 0,
        kept: [],
      });
      expect(ok(await putInvoices(martaInvoices))).toEqual({
        created: 0,
        updated: 0,
        unchanged: 2,
      });
      expect(await snapshot()).toEqual(before);
      expect(await sender.sendDue()).toBe(0);
    });

    it('updates what changed: fields, lines left out, instalments re-split', async () => {
      expect(ok(await putCustomers([{ ...marta, city: 'Figueres' }]))).toMatchObject({
        updated: 1,
        unchanged: 0,
      });
      const changed = {
        ...f2,
        lines: [
          { line_no: 2, concept: 'Material', quantity: 2.5, unit_price_cents: 2_000, vat_rate: 21 },
        ],
        instalments: [
          { seq: 1, due_date: '2026-03-05', amount_cents: 3_000 },
          { seq: 2, due_date: '2026-04-05', amount_cents: 3_050 },
        ],
      };
      expect(ok(await putInvoices([f1, changed]))).toEqual({
        created: 0,
        updated: 1,
        unchanged: 1,
      });
      const detail = (await customer.post('/invoice', { invoice_id: 'ING-F-2' })).json<{
        invoice: { lines: { concept: string; quantity: number }[]; payments: { method: string }[] };
      }>().invoice;
      expect(detail.lines).toMatchObject([{ concept: 'Material', quantity: 2.5 }]);
      // A method left out keeps the stored one; a new instalment without one has none.
      expect(detail.payments.map((p) => p.method)).toEqual(['Domiciliación', '']);
      expect(ok(await putInvoices([changed]))).toEqual({ created: 0, updated: 0, unchanged: 1 });
      expect(await count('notifications', "type = 'invoice_new' AND link LIKE '%ING-F-%'")).toBe(2);
    });
  });

  describe('a batch with a bad item is rejected whole', () => {
    const cases: [string, () => object[], string, string][] = [
      [
        'an unknown customer',
        () => [invoice('ING-N-1', marta.code, 100), invoice('ING-N-2', 'NOBODY', 100)],
        'invoices.1.customer_code',
        'unknown_customer',
      ],
      [
        'a total that is not base + vat',
        () => [
          invoice('ING-N-1', marta.code, 100),
          { ...invoice('ING-N-2', marta.code, 100), total_cents: 1 },
        ],
        'invoices.1.total_cents',
        'total_mismatch',
      ],
      [
        'instalments that do not add up to the total',
        () => {
          const bad = invoice('ING-N-2', marta.code, 1_000, 2);
          bad.instalments[1] = { seq: 2, due_date: '2026-04-05', amount_cents: 1 };
          return [invoice('ING-N-1', marta.code, 100), bad];
        },
        'invoices.1.instalments',
        'total_mismatch',
      ],
      [
        'a date that does not exist',
        () => [
          invoice('ING-N-1', marta.code, 100),
          { ...invoice('ING-N-2', marta.code, 100), invoice_date: '2026-02-30' },
        ],
        'invoices.1.invoice_date',
        'invalid_date',
      ],
      [
        'an id twice',
        () => [invoice('ING-N-1', marta.code, 100), invoice('ING-N-1', marta.code, 200)],
        'invoices.1.id',
        'duplicate',
      ],
      [
        'an unknown field',
        () => [
          invoice('ING-N-1', marta.code, 100),
          { ...invoice('ING-N-2', marta.code, 100), totl: 1 },
        ],
        'invoices.1',
        'unknown_field',
      ],
    ];

    it.each(cases)('%s', async (_label, batch, path, code) => {
      const before = await snapshot();
      const res = await putInvoices([...martaInvoices, ...batch()]);
      expect(res.statusCode, res.body).toBe(422);
      const body = res.json<{ code: string; errors: Record<string, string[]> }>();
      expect(body.code).toBe('validation_failed');
      expect(body.errors[shift(path)], JSON.stringify(body.errors)).toContain(code);
      expect(await snapshot()).toEqual(before);
    });

    /** The case's path, moved past the two valid invoices put first in the batch. */
    function shift(path: string) {
      return path.replace(/^invoices\.(\d+)/, (_m, i: string) => `invoices.${Number(i) + 2}`);
    }

    it('refuses a duplicate code, a duplicate e-mail and an e-mail of another customer', async () => {
      const before = await snapshot();
      const res = await putCustomers([
        { ...marta, code: 'ING-0002', email: 'new@ingestion.test' },
        { ...marta, code: 'ING-0002', email: 'other@ingestion.test' },
        { ...marta, code: 'ING-0003', email: 'NEW@ingestion.test' },
        { ...marta, code: 'ING-0004', email: demoEmail },
      ]);
      expect(res.statusCode).toBe(422);
      expect(res.json<{ errors: object }>().errors).toEqual({
        'customers.1.code': ['duplicate'],
        'customers.2.email': ['duplicate'],
        'customers.3.email': ['email_taken'],
      });
      expect(await snapshot()).toEqual(before);
    });

    it('refuses an empty batch and a malformed one without writing', async () => {
      const before = await snapshot();
      expect((await putInvoices([])).statusCode).toBe(422);
      const res = await admin('PUT', '/customers', { customers: [{ code: 'X' }] });
      expect(res.statusCode).toBe(422);
      expect(res.json<{ errors: object }>().errors).toHaveProperty(['customers.0.email']);
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('instalment states from the back office', () => {
    type Payment = { invoice_id: string; status: string; amount: number; paid_date?: string };
    const paymentsOf = async (invoiceId: string) =>
      (await customer.post('/payments', { ...range, page: '1', order: 'asc' }))
        .json<{ payments: Payment[] }>()
        .payments.filter((p) => p.invoice_id === invoiceId);

    it('marks instalments paid, returned and cancelled, and the customer sees it', async () => {
      const changes = [
        { invoice_id: 'ING-F-1', seq: 1, status: 'paid', paid_date: '2026-03-05' },
        { invoice_id: 'ING-F-1', seq: 2, status: 'cancelled' },
        { invoice_id: 'ING-F-2', seq: 1, status: 'returned' },
      ];
      expect(ok(await setStatus(changes))).toEqual({ created: 0, updated: 3, unchanged: 0 });
      expect((await paymentsOf('ING-F-1')).map((p) => [p.status, p.paid_date])).toEqual([
        ['paid', '20260305'],
        ['cancelled', undefined],
      ]);
      // Returned by the bank: owed again, and said so ("Devuelto", not just overdue: issue 23).
      expect((await paymentsOf('ING-F-2'))[0]?.status).toBe('returned');
      const list = (await customer.post('/invoices', { ...range, page: '1' })).json<{
        invoices: { invoice_id: string; amount: number }[];
      }>();
      expect(list.invoices.find((i) => i.invoice_id === 'ING-F-1')?.amount).toBe(0);
      expect(list.invoices.find((i) => i.invoice_id === 'ING-F-2')?.amount).toBe(60.5);

      const before = await snapshot();
      expect(ok(await setStatus(changes))).toEqual({ created: 0, updated: 0, unchanged: 3 });
      expect(await snapshot()).toEqual(before);
      // The invoice batch does not undo a state: replaying it leaves the instalments as they are.
      ok(await putInvoices([f1]));
      expect((await paymentsOf('ING-F-1')).map((p) => p.status)).toEqual(['paid', 'cancelled']);
    });

    it('refuses unknown instalments, a paid state without its date, and writes nothing', async () => {
      const before = await snapshot();
      const res = await setStatus([
        { invoice_id: 'ING-F-2', seq: 2, status: 'paid', paid_date: '2026-04-05' },
        { invoice_id: 'ING-F-2', seq: 9, status: 'paid', paid_date: '2026-04-05' },
        { invoice_id: 'ING-F-2', seq: 1, status: 'paid' },
      ]);
      expect(res.statusCode).toBe(422);
      expect(res.json<{ errors: object }>().errors).toEqual({
        'changes.2.paid_date': ['required'],
      });
      const unknown = await setStatus([
        { invoice_id: 'ING-F-2', seq: 2, status: 'paid', paid_date: '2026-04-05' },
        { invoice_id: 'ING-F-2', seq: 9, status: 'paid', paid_date: '2026-04-05' },
      ]);
      expect(unknown.json<{ errors: object }>().errors).toEqual({
        'changes.1': ['unknown_instalment'],
      });
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('locked instalments', () => {
    it('keeps the amount of a paid instalment and refuses to remove it', async () => {
      const moved = {
        ...f1,
        instalments: f1.instalments.map((e, j) =>
          j === 0
            ? { ...e, amount_cents: e.amount_cents - 1 }
            : { ...e, amount_cents: e.amount_cents + 1 },
        ),
      };
      const res = await putInvoices([moved]);
      expect(res.statusCode).toBe(422);
      expect(res.json<{ errors: object }>().errors).toEqual({
        'invoices.0.instalments.0.amount_cents': ['instalment_locked'],
      });
      const dropped = {
        ...f1,
        instalments: [{ seq: 3, due_date: '2026-05-01', amount_cents: f1.total_cents }],
      };
      expect((await putInvoices([dropped])).json<{ errors: object }>().errors).toEqual({
        'invoices.0.instalments': ['instalment_locked'],
      });
    });

    it('locks an instalment while a card payment of it waits for the gateway', async () => {
      const f3 = invoice('ING-F-3', marta.code, 2_001, 2);
      ok(await putInvoices([f3]));
      const pending = (
        await customer.post('/payments', { ...range, page: '1', pending: true, overdue: true })
      )
        .json<{ payments: { payment_id: string; invoice_id: string; amount: number }[] }>()
        .payments.filter((p) => p.invoice_id === 'ING-F-3');
      const first = pending.find(
        (p) => Math.round(p.amount * 100) === f3.instalments[0]?.amount_cents,
      );
      const init = await customer.post('/redsys/init-payment', {
        amount: first?.amount,
        payment_ids: [first?.payment_id],
      });
      expect(init.statusCode, init.body).toBe(200);

      const before = await snapshot();
      const resplit = {
        ...f3,
        instalments: f3.instalments.map((e, j) => ({
          ...e,
          amount_cents: e.amount_cents + (j === 0 ? 10 : -10),
        })),
      };
      expect((await putInvoices([resplit])).json<{ errors: object }>().errors).toEqual({
        'invoices.0.instalments.0.amount_cents': ['instalment_locked'],
      });
      expect(
        (await setStatus([{ invoice_id: 'ING-F-3', seq: 1, status: 'cancelled' }])).json<{
          errors: object;
        }>().errors,
      ).toEqual({ 'changes.0.status': ['instalment_locked'] });
      expect(await snapshot()).toEqual(before);
      // The other instalment is free.
      expect(
        ok(await setStatus([{ invoice_id: 'ING-F-3', seq: 2, status: 'cancelled' }])).updated,
      ).toBe(1);
    });
  });

  describe('notifications', () => {
    const note = {
      id: 'N-1',
      customer_code: marta.code,
      title: 'Cierre por vacaciones',
      message: 'La oficina estará cerrada en agosto.',
      link: '/invoices',
    };

    it('shows a notification once, however many times it is sent', async () => {
      expect(ok(await putNotifications([note]))).toEqual({ created: 1, updated: 0, unchanged: 0 });
      const before = await snapshot();
      // Created once: a replay, even with other words, changes nothing.
      expect(ok(await putNotifications([{ ...note, title: 'Otro título' }]))).toEqual({
        created: 0,
        updated: 0,
        unchanged: 1,
      });
      expect(await snapshot()).toEqual(before);
      const inbox = async () =>
        (await customer.post('/notifications', { page: '1' }))
          .json<{
            notifications: { id: string; title: string; type: string; link: string | null }[];
          }>()
          .notifications.filter((n) => n.title === note.title);
      const shown = await inbox();
      expect(shown).toEqual([expect.objectContaining({ type: 'info', link: '/invoices' })]);

      // Deleted by the customer: a replay does not bring it back.
      await customer.post('/notifications/delete', { ids: shown.map((n) => n.id) });
      expect(ok(await putNotifications([note]))).toEqual({ created: 0, updated: 0, unchanged: 1 });
      expect(await inbox()).toEqual([]);
    });

    it('refuses an unknown customer, a duplicate id and a link to another site', async () => {
      const before = await snapshot();
      const res = await putNotifications([
        { ...note, id: 'N-2', customer_code: 'NOBODY' },
        { ...note, id: 'N-3' },
        { ...note, id: 'N-3' },
        { ...note, id: 'N-4', link: '//evil.example/' },
      ]);
      expect(res.statusCode).toBe(422);
      expect(res.json<{ errors: object }>().errors).toEqual({
        'notifications.3.link': ['invalid_format'],
      });
      const refs = await putNotifications([
        { ...note, id: 'N-2', customer_code: 'NOBODY' },
        { ...note, id: 'N-3' },
        { ...note, id: 'N-3' },
      ]);
      expect(refs.json<{ errors: object }>().errors).toEqual({
        'notifications.0.customer_code': ['unknown_customer'],
        'notifications.2.id': ['duplicate'],
      });
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('notification links', () => {
    const note = {
      id: 'N-L',
      customer_code: marta.code,
      title: 'Enlace',
      message: 'Un aviso con enlace.',
    };

    it.each([
      '/\t/evil.example',
      '/\n/evil.example',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      ' /invoices',
      '\u0001/invoices',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'http://club.example/',
      'HTTPS://club.example/',
      '/login',
      '/reset-password?token=x',
    ])('refuses the link %j with a field code, and the batch writes nothing', async (link) => {
      const before = await snapshot();
      const res = await putNotifications([
        { ...note, id: 'N-L1', link: '/invoices' },
        { ...note, id: 'N-L2', link },
      ]);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json<{ errors: object }>().errors).toEqual({
        'notifications.1.link': ['invalid_format'],
      });
      expect(await snapshot()).toEqual(before);
    });

    it('takes a page of the portal and an https address', async () => {
      const res = await putNotifications([
        { ...note, id: 'N-L3', link: '/invoice-detail/FV-1' },
        { ...note, id: 'N-L4', link: 'https://club.example/horarios' },
      ]);
      expect(res.statusCode, res.body).toBe(200);
    });

    it('answers a link stored before these checks as no link', async () => {
      await db.withOwner((sql) =>
        sql.query(
          `INSERT INTO notifications (tenant_id, customer_id, type, title, message, link)
           SELECT tenant_id, id, 'info', 'Enlace antiguo', 'x', '/\t/evil.example'
             FROM customers WHERE tenant_id = 'demo' AND code = $1`,
          [marta.code],
        ),
      );
      const list = (await customer.post('/notifications', { page: '1' })).json<{
        notifications: { title: string; link: string | null }[];
      }>().notifications;
      expect(list.find((n) => n.title === 'Enlace antiguo')).toMatchObject({ link: null });
    });
  });

  describe('payment method requests', () => {
    type Method = { id: string; kind: string; status: string; is_main: boolean };
    const methods = async () =>
      (await customer.get('/payment-methods')).json<{ methods: Method[] }>().methods;
    const review = (id: string, status: string) =>
      admin('POST', `/payment-method-requests/${id}/review`, { status });

    it('verifies a bank account and makes it the main method when the provider approves', async () => {
      const added = await customer.post('/payment-methods/bank-account', {
        iban: 'ES91 2100 0418 4502 0005 1332',
        holder: 'Marta Soler',
        nif: '12345678Z',
        mandate_accepted: true,
      });
      expect(added.statusCode, added.body).toBe(201);
      const account = added.json<{ method: Method }>().method;
      const verify = (
        await customer.post(`/payment-methods/${account.id}/verification-request`, {})
      ).json<{ request_id: string }>();
      const res = await review(verify.request_id, 'approved');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ kind: 'verification', status: 'approved', changed: true });
      expect((await methods()).find((m) => m.id === account.id)?.status).toBe('active');
      expect((await review(verify.request_id, 'approved')).json()).toMatchObject({
        changed: false,
      });
      expect((await review(verify.request_id, 'rejected')).statusCode).toBe(409);

      const main = (await customer.post(`/payment-methods/${account.id}/main-request`, {})).json<{
        request_id: string;
      }>();
      expect((await review(main.request_id, 'approved')).statusCode).toBe(200);
      const after = await methods();
      expect(after.filter((m) => m.is_main).map((m) => m.id)).toEqual([account.id]);
      const inbox = (await customer.post('/notifications', { page: '1' })).json<{
        notifications: { type: string }[];
      }>();
      expect(inbox.notifications.filter((n) => n.type === 'request_reviewed')).toHaveLength(2);
      expect(inbox.notifications.filter((n) => n.type === 'method_verified')).toHaveLength(1);
    });

    type Listed = {
      request_id: string;
      kind: string;
      status: string;
      customer_code: string;
      payment_method: { id: string; deleted: boolean } & Record<string, unknown>;
      created_at: string;
      reviewed_at: string | null;
    };
    type Page = { requests: Listed[]; next_cursor: string | null };
    const list = (query: string, tenant = 'demo', key = demoKey) =>
      app.inject({
        method: 'GET',
        url: `/${tenant}/api/1.0/admin/payment-method-requests${query}`,
        headers: { authorization: `Bearer ${key}` },
      });
    const page = async (query: string) => {
      const res = await list(query);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<Page>();
    };

    it('lists the requests waiting for review, with the customer and the method', async () => {
      const added = await customer.post('/payment-methods/bank-account', {
        iban: 'ES79 2100 0813 6101 2345 6789',
        holder: 'Pau Soler',
        nif: '12345678Z',
        mandate_accepted: true,
      });
      expect(added.statusCode, added.body).toBe(201);
      const account = added.json<{ method: Method }>().method;
      const asked = (
        await customer.post(`/payment-methods/${account.id}/verification-request`, {})
      ).json<{ request_id: string }>();

      const pending = await page('?status=pending');
      expect(pending.next_cursor).toBeNull();
      expect(pending.requests).toHaveLength(1);
      expect(pending.requests[0]).toEqual({
        request_id: asked.request_id,
        kind: 'verification',
        status: 'pending',
        customer_code: marta.code,
        payment_method: {
          id: account.id,
          kind: 'bank_account',
          alias: expect.any(String) as string,
          holder: 'Pau Soler',
          card_masked: null,
          iban: expect.stringMatching(/^ES79\s?2100/) as string,
          nif: '12345678Z',
          entity: expect.any(String) as string,
          deleted: false,
        },
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.+Z$/) as string,
        reviewed_at: null,
      });

      const approved = await page('?status=approved');
      expect(approved.requests.map((r) => [r.customer_code, r.kind, r.status])).toEqual([
        [marta.code, 'main_change', 'approved'],
        [marta.code, 'verification', 'approved'],
      ]);
      expect(approved.requests.every((r) => r.reviewed_at !== null)).toBe(true);

      // The customer cannot delete a method a request waits on; a method gone anyway is shown so.
      const refused = await app.inject({
        method: 'DELETE',
        url: `/demo/api/1.0/payment-methods/${account.id}`,
        headers: { authorization: `Bearer ${customer.token}` },
      });
      expect(refused.statusCode).toBe(409);
      await db.withTenant('demo', (sql) =>
        sql.query(`UPDATE payment_methods SET deleted_at = now() WHERE id = $1`, [account.id]),
      );
      expect((await page('?status=pending')).requests[0]?.payment_method.deleted).toBe(true);
    });

    it('pages the requests newest first with the cursor', async () => {
      const all = (await page('?limit=100')).requests;
      expect(all.length).toBeGreaterThanOrEqual(3);
      const times = all.map((r) => r.created_at);
      expect([...times].sort().reverse()).toEqual(times);
      expect(all[0]?.status).toBe('pending');

      const walked: string[] = [];
      let cursor: string | null = null;
      for (let i = 0; i <= all.length; i++) {
        const next: Page = await page(`?limit=1${cursor ? `&before=${cursor}` : ''}`);
        expect(next.requests.length).toBe(1);
        walked.push(...next.requests.map((r) => r.request_id));
        cursor = next.next_cursor;
        if (!cursor) break;
      }
      expect(walked).toEqual(all.map((r) => r.request_id));
      expect((await page('?limit=2')).next_cursor).toBe(all[1]?.request_id);
    });

    it('refuses a bad query, and shows another tenant nothing of this one', async () => {
      for (const [query, field, code] of [
        ['?limit=0', 'limit', 'too_small'],
        ['?limit=101', 'limit', 'too_big'],
        ['?status=open', 'status', 'invalid_value'],
        ['?before=x', 'before', 'invalid_format'],
      ]) {
        const res = await list(query ?? '');
        expect(res.statusCode, query).toBe(422);
        expect(res.json<{ errors: Record<string, string[]> }>().errors[field ?? '']).toEqual([
          code,
        ]);
      }
      const ours = new Set((await page('?limit=100')).requests.map((r) => r.request_id));
      const theirs = await list('?limit=100', '1', oneKey);
      expect(theirs.statusCode, theirs.body).toBe(200);
      const seen = theirs.json<Page>().requests;
      expect(seen.filter((r) => ours.has(r.request_id) || r.customer_code === marta.code)).toEqual(
        [],
      );
    });

    it('answers 404 for a request it does not know', async () => {
      const res = await review('00000000-0000-4000-8000-000000000000', 'approved');
      expect(res.statusCode).toBe(404);
    });
  });

  describe('invitations', () => {
    it('retries an invitation the mail server refused, later, and never loses it', async () => {
      ok(await putCustomers([{ ...marta, code: 'ING-0010', email: 'retry@ingestion.test' }]));
      const down = createInvitationSender({
        db,
        mailer: createMailer({
          smtpUrl: 'smtp://127.0.0.1:1',
          outboxDir: '/nonexistent',
          log: () => {},
        }),
        retryBaseSeconds: 60,
      });
      expect(await down.sendDue()).toBe(0);
      const [row] = await db.withTenant('demo', (sql) =>
        sql.query<{ status: string; attempts: number; wait: number; last_error: string | null }>(
          `SELECT i.status, i.attempts, extract(epoch FROM i.next_attempt_at - now())::int AS wait, i.last_error
             FROM customer_invitations i JOIN customers c ON c.tenant_id = i.tenant_id AND c.id = i.customer_id
            WHERE c.code = 'ING-0010'`,
        ),
      );
      expect(row).toMatchObject({ status: 'pending', attempts: 1 });
      expect(row?.wait).toBeGreaterThan(50);
      expect(row?.last_error).toBeTruthy();
      expect(await sender.sendDue()).toBe(0); // not due yet
      await db.withTenant('demo', (sql) =>
        sql.query(`UPDATE customer_invitations SET next_attempt_at = now() - interval '1 second'`),
      );
      expect(await sender.sendDue()).toBe(1);
      await smtp.waitFor('retry@ingestion.test');
    });

    it('invites nobody when the batch says not to', async () => {
      const res = ok(
        await putCustomers([
          { ...marta, code: 'ING-0011', email: 'quiet@ingestion.test', send_invitation: false },
        ]),
      );
      expect(res).toMatchObject({ created: 1, invited: 0 });
      expect(await sender.sendDue()).toBe(0);
    });

    const invite = (codes: string[]) => admin('POST', '/customers/invitations', { codes });
    const invitationOf = async (code: string) => {
      const [row] = await db.withTenant('demo', (sql) =>
        sql.query<{ status: string; attempts: number; due: boolean; last_error: string | null }>(
          `SELECT i.status, i.attempts, i.next_attempt_at <= now() AS due, i.last_error
             FROM customer_invitations i JOIN customers c ON c.tenant_id = i.tenant_id AND c.id = i.customer_id
            WHERE c.code = $1`,
          [code],
        ),
      );
      return row;
    };

    it('invites again customers without a password; one with a password is listed, not invited', async () => {
      ok(await putCustomers([{ ...marta, code: 'ING-0012', email: 'gave-up@ingestion.test' }]));
      await db.withTenant('demo', (sql) =>
        sql.query(
          `UPDATE customer_invitations i
              SET status = 'failed', attempts = 20, last_error = '550 mailbox unavailable',
                  next_attempt_at = now() + interval '6 hours'
             FROM customers c
            WHERE c.tenant_id = i.tenant_id AND c.id = i.customer_id AND c.code = 'ING-0012'`,
        ),
      );
      expect(await invitationOf('ING-0010')).toMatchObject({ status: 'sent' });
      expect(await invitationOf('ING-0011')).toBeUndefined();
      expect(await invitationOf('ING-0012')).toMatchObject({ status: 'failed', due: false });

      const codes = ['ING-0010', marta.code, 'ING-0011', 'ING-0012'];
      const res = await invite(codes);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ queued: 3, has_password: [marta.code] });
      for (const code of ['ING-0010', 'ING-0011', 'ING-0012'])
        expect(await invitationOf(code), code).toEqual({
          status: 'pending',
          attempts: 0,
          due: true,
          last_error: null,
        });
      expect(await invitationOf(marta.code)).toMatchObject({ status: 'sent' });

      // Asked again while they wait: the same answer, nothing written.
      const before = await snapshot();
      expect((await invite(codes)).json()).toEqual({ queued: 3, has_password: [marta.code] });
      expect(await snapshot()).toEqual(before);

      expect(await sender.sendDue()).toBe(3);
      for (const email of [
        'retry@ingestion.test',
        'quiet@ingestion.test',
        'gave-up@ingestion.test',
      ])
        await smtp.waitFor(email);
      expect(await sender.sendDue()).toBe(0);
    });

    it('refuses unknown and repeated codes, an empty list and too long a list, writing nothing', async () => {
      const before = await snapshot();
      const res = await invite(['ING-0011', 'NOBODY', 'ING-0011']);
      expect(res.statusCode).toBe(422);
      expect(res.json<{ errors: object }>().errors).toEqual({
        'codes.1': ['unknown_customer'],
        'codes.2': ['duplicate'],
      });
      expect((await invite([])).json<{ errors: object }>().errors).toEqual({
        codes: ['required'],
      });
      const many = Array.from({ length: 1001 }, (_, i) => `ING-X-${i}`);
      expect((await invite(many)).json<{ errors: object }>().errors).toEqual({
        codes: ['too_big'],
      });
      // Another tenant's key does not know this tenant's customers.
      const foreign = await app.inject({
        method: 'POST',
        url: '/1/api/1.0/admin/customers/invitations',
        payload: { codes: ['ING-0011'] },
        headers: { authorization: `Bearer ${oneKey}` },
      });
      expect(foreign.json<{ errors: object }>().errors).toEqual({
        'codes.0': ['unknown_customer'],
      });
      expect(await snapshot()).toEqual(before);
    });
  });

  it('documents every ingestion call with examples in the OpenAPI document', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/demo/api/1.0/openapi.json' })).json<{
      paths: Record<string, Record<string, OpenApiOperation>>;
    }>();
    for (const [name, def] of Object.entries(ingestionRoutes)) {
      const path = `/{tenant}/api/1.0${def.path.replace(/:(\w+)/g, '{$1}')}`;
      const op = doc.paths[path]?.[def.method.toLowerCase()];
      const answer = op?.responses['200']?.content['application/json'];
      expect(answer?.example ?? answer?.examples, `${name} response example`).toBeDefined();
      if ('body' in def) {
        const body = op?.requestBody?.content['application/json'];
        expect(body?.example ?? body?.examples, `${name} request example`).toBeDefined();
      }
      if ('querystring' in def) {
        const names = Object.keys(def.querystring.shape);
        const params = (op?.parameters ?? []).filter((p) => p.in === 'query');
        expect(params.map((p) => p.name).sort(), name).toEqual(names.sort());
        for (const p of params)
          expect(p.example ?? p.examples ?? p.schema?.examples, `${name} ${p.name}`).toBeDefined();
      }
    }
    const requests = doc.paths['/{tenant}/api/1.0/admin/payment-method-requests']?.get;
    expect(
      JSON.stringify(requests?.responses['200']?.content['application/json']?.example),
    ).toContain('customer_code');
    const invite = doc.paths['/{tenant}/api/1.0/admin/customers/invitations']?.post;
    expect(invite?.requestBody?.content['application/json']?.example).toEqual({
      codes: ['C-000789', 'C-000790'],
    });
    const invoices = doc.paths['/{tenant}/api/1.0/admin/invoices']?.put;
    expect(JSON.stringify(invoices?.requestBody?.content['application/json']?.example)).toContain(
      'FV-2026-000123',
    );
  });

  describe('API keys', () => {
    it('refuses no key, a customer token and another tenant key', async () => {
      const batch = { customers: [marta] };
      const cases: Record<string, string>[] = [
        {},
        { authorization: `Bearer ${customer.token}` },
        { authorization: `Bearer ${oneKey}` },
      ];
      for (const headers of cases) {
        const res = await admin('PUT', '/customers', batch, headers);
        expect(res.statusCode).toBe(401);
      }
    });
  });

  it('accepts 10,000 invoices with lines and instalments in one call', async () => {
    ok(
      await putCustomers([
        { ...marta, code: 'BULK-1', email: 'bulk1@ingestion.test', send_invitation: false },
        { ...marta, code: 'BULK-2', email: 'bulk2@ingestion.test', send_invitation: false },
      ]),
    );
    const invoices = Array.from({ length: 10_000 }, (_, i) => {
      const v = invoice(
        `BULK-${String(i).padStart(5, '0')}`,
        `BULK-${(i % 2) + 1}`,
        1_000 + i,
        (i % 2) + 1,
      );
      if (i % 3 === 0)
        v.lines.push({
          line_no: 2,
          concept: 'Matrícula',
          quantity: 1,
          unit_price_cents: 0,
          vat_rate: 0,
        });
      return v;
    });
    const started = Date.now();
    expect(ok(await putInvoices(invoices))).toEqual({ created: 10_000, updated: 0, unchanged: 0 });
    const took = Date.now() - started;
    console.info(`${engine.name}: 10,000 invoices in ${took} ms`);
    expect(await count('invoices', "id LIKE 'BULK-%'")).toBe(10_000);
    expect(await count('invoice_lines', "invoice_id LIKE 'BULK-%'")).toBe(10_000 + 3_334);
    expect(await count('instalments', "invoice_id LIKE 'BULK-%'")).toBe(15_000);
  });
});
