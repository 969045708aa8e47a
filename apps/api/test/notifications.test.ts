import { readFileSync } from 'node:fs';
import { decodeMerchantParameters } from '@portal/redsys';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { createApiKey } from '../src/modules/admin/api-keys.ts';
import { createNotification } from '../src/modules/notifications/service.ts';
import { buildTestApp, engines } from './engines.ts';
import { signedNotification } from './redsys-notification.ts';
import { signedIn } from './session.ts';
import { startSmtp } from '../../../tools/test-smtp.ts';

const range = { datefrom: '20000101', dateto: '20991231' };
type Payment = { payment_id: string; invoice_id: string; amount: number };
type Served = {
  id: string;
  source: 'portal' | 'organisation';
  type: string;
  params?: Record<string, unknown>;
  title?: string;
  message?: string;
  link: string | null;
  isRead: boolean;
};

/**
 * Notifications are a type with parameters written by ONE module (issue 21, PRODUCT.md): the
 * events that create them, the customer's own cancel that creates none, and the rows stored
 * before (migration 011) still served.
 */
describe.each(engines())('notifications as type and parameters on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let apiKey: string;

  beforeAll(async () => {
    db = await engine.open();
    smtp = await startSmtp();
    app = await buildTestApp(db, { SMTP_URL: smtp.url, PUBLIC_URL: 'http://localhost:3000' });
    me = await signedIn(app, 'demo');
    apiKey = (await db.withTenant('demo', (sql) => createApiKey(sql, 'notifications test'))).key;
  });
  afterAll(async () => {
    await app.close();
    await db.close();
    await smtp.close();
  });

  const inbox = async () =>
    (await me.post('/notifications', { page: '1' })).json<{ notifications: Served[] }>()
      .notifications;
  const admin = (method: 'PUT' | 'POST', path: string, payload: object) =>
    app.inject({
      method,
      url: `/demo/api/1.0/admin${path}`,
      payload,
      headers: { authorization: `Bearer ${apiKey}` },
    });
  const notify = (params: Record<string, string>, response: string) =>
    app.inject({
      method: 'POST',
      url: '/demo/api/1.0/redsys/notification',
      payload: new URLSearchParams(signedNotification(params, response)).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  /** Starts paying the customer's first unpaid instalment; answers the signed parameters. */
  const startPaying = async () => {
    const res = await me.post('/payments', { ...range, page: '1', pending: true, overdue: true });
    const [first] = res.json<{ payments: Payment[] }>().payments;
    const started = await me.post('/redsys/init-payment', {
      amount: first?.amount,
      payment_ids: [first?.payment_id],
    });
    expect(started.statusCode, started.body).toBe(200);
    const body = started.json<{
      payment_id: string;
      redsys_params: { Ds_MerchantParameters: string };
    }>();
    return {
      id: body.payment_id,
      cents: Math.round((first?.amount ?? 0) * 100),
      params: decodeMerchantParameters(body.redsys_params.Ds_MerchantParameters),
    };
  };
  const statusOf = async (id: string) =>
    (await me.get(`/redsys/payment/${id}/status`)).json<{ status: string }>().status;
  const paymentNotes = async () =>
    (await inbox()).filter((n) => n.type.startsWith('payment_') && n.source === 'portal');

  it("creates no notification for the customer's own cancel on the gateway (9915)", async () => {
    const before = await paymentNotes();
    const { id, params } = await startPaying();
    expect((await notify(params, '9915')).statusCode).toBe(200);
    expect(await statusOf(id)).toBe('failed');
    expect(await paymentNotes()).toEqual(before);
  });

  it('creates one notification for a decline, and one for a gateway error, as type and parameters', async () => {
    const before = await paymentNotes();
    const declined = await startPaying();
    await notify(declined.params, '0190');
    // A retried notification of the same answer adds nothing.
    await notify(declined.params, '0190');
    expect(await statusOf(declined.id)).toBe('failed');
    const errored = await startPaying();
    await notify(errored.params, '9912');

    const added = (await paymentNotes()).filter((n) => !before.some((b) => b.id === n.id));
    expect(added).toEqual([
      {
        id: expect.any(String) as string,
        source: 'portal',
        type: 'payment_failed',
        params: { payment_id: errored.id, amount_cents: errored.cents },
        link: '/mis-pagos',
        isRead: false,
        date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) as string,
        time: expect.stringMatching(/^\d{2}:\d{2}$/) as string,
      },
      expect.objectContaining({
        type: 'payment_failed',
        params: { payment_id: declined.id, amount_cents: declined.cents },
      }),
    ]);
    // Stored without text: the web app words it in the reader's language.
    const stored = await db.withTenant('demo', (sql) =>
      sql.query<{ title: string | null; message: string | null }>(
        'SELECT title, message FROM notifications WHERE id = ANY($1::uuid[])',
        [added.map((n) => n.id)],
      ),
    );
    expect(stored).toEqual([
      { title: null, message: null },
      { title: null, message: null },
    ]);
  });

  it('tells of a new invoice, a verified account and a reviewed request with their parameters', async () => {
    const invoice = (id: string, cancelled: boolean) => ({
      id,
      customer_code: me.user.code,
      invoice_date: '2026-03-01',
      base_cents: 1000,
      vat_cents: 210,
      total_cents: 1210,
      cancelled,
      lines: [{ line_no: 1, concept: 'Cuota', quantity: 1, unit_price_cents: 1000, vat_rate: 21 }],
      instalments: [{ seq: 1, due_date: '2099-03-05', amount_cents: 1210 }],
    });
    const put = await admin('PUT', '/invoices', {
      invoices: [invoice('EV-NEW-1', false), invoice('EV-CANCELLED-1', true)],
    });
    expect(put.statusCode, put.body).toBe(200);
    const invoices = (await inbox()).filter((n) => n.type === 'invoice_new');
    expect(invoices).toEqual([
      expect.objectContaining({
        source: 'portal',
        params: { invoice_id: 'EV-NEW-1' },
        link: '/invoice-detail/EV-NEW-1',
      }),
    ]);
    // A replay of the batch is no new invoice.
    await admin('PUT', '/invoices', { invoices: [invoice('EV-NEW-1', false)] });
    expect((await inbox()).filter((n) => n.type === 'invoice_new')).toHaveLength(1);

    const added = await me.post('/payment-methods/bank-account', {
      iban: 'ES7921000813610123456789',
      holder: 'Laura García',
      nif: '12345678Z',
      mandate_accepted: true,
      alias: 'Cuenta nueva',
    });
    const methodId = added.json<{ method: { id: string } }>().method.id;
    const request = (await me.post(`/payment-methods/${methodId}/verification-request`, {})).json<{
      request_id: string;
    }>();
    const review = await admin('POST', `/payment-method-requests/${request.request_id}/review`, {
      status: 'approved',
    });
    expect(review.statusCode, review.body).toBe(200);
    // Both in the review's transaction (the same created_at): in either order.
    const [newest, second] = await inbox();
    const both = [newest, second].map((n) => [n?.source, n?.type, n?.params, n?.link]);
    expect(both.sort((a, b) => String(b[1]).localeCompare(String(a[1])))).toEqual([
      [
        'portal',
        'request_reviewed',
        { request: 'verification', answer: 'approved' },
        '/metodos-de-pago',
      ],
      ['portal', 'method_verified', { alias: 'Cuenta nueva' }, '/metodos-de-pago'],
    ]);
  });

  it('refuses parameters that do not fit the type, writing nothing', async () => {
    const count = () =>
      db.withTenant('demo', async (sql) => (await sql.query('SELECT 1 FROM notifications')).length);
    const before = await count();
    await expect(
      db.withTenant('demo', (sql) =>
        createNotification(sql, {
          customerId: me.user.id,
          type: 'payment_failed',
          params: { payment_id: 'x', amount_cents: -1 },
        }),
      ),
    ).rejects.toThrow();
    expect(await count()).toBe(before);
  });

  it('still serves the rows stored before: typed where their text allowed, else as written', async () => {
    // As migration 005's triggers and the payments module before migration 010 wrote them.
    await db.withOwner((sql) =>
      sql.query(
        `INSERT INTO notifications (tenant_id, customer_id, type, title, message, link, created_at)
         VALUES ('demo', $1, 'invoice_new', 'Nueva factura disponible',
                 'Ya puedes consultar la factura OLD-7.', '/invoice-detail/OLD-7', now() + interval '4 s'),
                ('demo', $1, 'method_verified', 'Kontua egiaztatuta',
                 'Zure Etxeko kontua banku-kontua egiaztatuta eta aktibo dago.', '/metodos-de-pago', now() + interval '3 s'),
                ('demo', $1, 'request_reviewed', 'Request declined',
                 'Your request to change your main payment method has been declined.', '/metodos-de-pago', now() + interval '2 s'),
                ('demo', $1, 'payment_succeeded', 'Pago recibido',
                 'Hemos recibido tu pago de 12,00 € (F-1). ¡Gracias!', '/mis-pagos', now() + interval '1 s')`,
        [me.user.id],
      ),
    );
    // Migration 011's backfill, run again over them (it only touches rows without parameters).
    const migration = readFileSync(
      new URL('../src/db/migrations/011-notifications-one-writer.sql', import.meta.url),
      'utf8',
    );
    const backfill = migration.slice(migration.indexOf('-- The rows the triggers wrote'));
    expect(backfill).toMatch(/^-- The rows the triggers wrote/);
    await db.withOwner((sql) => sql.exec(backfill));

    const [invoice, verified, reviewed, paid] = await inbox();
    expect(invoice).toMatchObject({
      source: 'portal',
      type: 'invoice_new',
      params: { invoice_id: 'OLD-7' },
    });
    expect(verified).toMatchObject({
      source: 'portal',
      type: 'method_verified',
      params: { alias: 'Etxeko kontua' },
    });
    expect(reviewed).toMatchObject({
      source: 'portal',
      type: 'request_reviewed',
      params: { request: 'main_change', answer: 'rejected' },
    });
    expect(paid).toEqual(
      expect.objectContaining({
        source: 'organisation',
        type: 'payment_succeeded',
        title: 'Pago recibido',
        message: 'Hemos recibido tu pago de 12,00 € (F-1). ¡Gracias!',
      }),
    );
    expect(paid).not.toHaveProperty('params');
  });
});
