/**
 * Review (money 3, auto-pay): an instalment collected by direct debit is charged to the auto-pay
 * card too when the provider words its method in Catalan as "Rebut domiciliat" (the Catalan of the
 * "Recibo domiciliado" the classifier knows), so the customer pays it twice: the bank's debit and
 * the card.
 *
 * Auto-pay leaves direct debits to the bank (decision 033: "charging the card too would take the
 * money twice") by reading the provider's free text with `instalmentMethodKind`
 * (invoices/method-kind.ts). Its direct-debit pattern takes Spanish "recibo domiciliado" and
 * Catalan "domiciliació", but not Catalan "rebut domiciliat": that text is `other`, and the sweep
 * charges it. (Catalan is one of the portal's four languages; the PDF's own Catalan word for the
 * kind is "Domiciliació bancària".)
 */

import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { todayIso } from '../src/lib/dates.ts';
import { createSecretBox } from '../src/lib/secret-box.ts';
import { createAutoPayMailer } from '../src/modules/auto-pay/mail.ts';
import { createDeclineMailSender } from '../src/modules/auto-pay/declines.ts';
import { createAutoPayCharger, type AutoPayJob } from '../src/modules/auto-pay/service.ts';
import type { Mail, Mailer } from '../src/modules/mail/mailer.ts';
import { createApiKey } from '../src/modules/admin/api-keys.ts';
import { createPaymentService } from '../src/modules/payments/service.ts';
import { buildTestApp, engines } from './engines.ts';
import { signedIn } from './session.ts';

const quiet = { warn: () => {}, error: () => {} };
const day = 24 * 60 * 60 * 1000;
const addDays = (iso: string, days: number) =>
  new Date(Date.parse(`${iso}T12:00:00Z`) + days * day).toISOString().slice(0, 10);
const noon = (iso: string) => new Date(`${iso}T12:00:00Z`);

describe.each(engines())('auto-pay of a Catalan-worded direct debit, on $name', (engine) => {
  let db: Database;
  let app: FastifyInstance;
  let me: Awaited<ReturnType<typeof signedIn>>;
  let apiKey: string;
  const mails: Mail[] = [];
  const mailer: Mailer = {
    send: async (mail) => {
      mails.push(mail);
    },
  };
  const today = todayIso();

  const putInvoice = (id: string, dueDate: string, method: string) =>
    app.inject({
      method: 'PUT',
      url: '/demo/api/1.0/admin/invoices',
      headers: { authorization: `Bearer ${apiKey}` },
      payload: {
        invoices: [
          {
            id,
            customer_code: me.user.code,
            invoice_date: addDays(dueDate, -5),
            base_cents: 4200,
            vat_cents: 0,
            total_cents: 4200,
            lines: [
              { line_no: 1, concept: 'Cuota', quantity: 1, unit_price_cents: 4200, vat_rate: 0 },
            ],
            instalments: [{ seq: 1, due_date: dueDate, amount_cents: 4200, method }],
          },
        ],
      },
    });
  const instalmentOf = async (invoiceId: string) =>
    (
      await db.withOwner((sql) =>
        sql.query<{ id: string }>(
          `SELECT id::text FROM instalments WHERE tenant_id = 'demo' AND invoice_id = $1`,
          [invoiceId],
        ),
      )
    )[0]?.id ?? '';
  const charger = () =>
    createAutoPayCharger({
      db,
      payments: createPaymentService({
        db,
        secretBox: createSecretBox(randomBytes(32)),
        simulatorUrl: 'http://127.0.0.1:9',
        notificationBaseUrl: 'http://127.0.0.1:9',
        onPaid: async () => {},
        log: quiet,
      }),
      send: async () => {
        throw new Error('no charge is sent in this test');
      },
      mail: createAutoPayMailer(db, mailer),
      declineMails: createDeclineMailSender({
        db,
        mail: createAutoPayMailer(db, mailer),
        log: quiet,
      }),
      log: quiet,
    });

  beforeAll(async () => {
    db = await engine.open();
    app = await buildTestApp(db, { PUBLIC_URL: 'http://localhost:3000' });
    me = await signedIn(app, 'demo');
    apiKey = (await db.withTenant('demo', (sql) => createApiKey(sql, 'review'))).key;
    const card =
      (await me.get('/payment-methods'))
        .json<{ methods: { id: string; kind: string }[] }>()
        .methods.find((m) => m.kind === 'card')?.id ?? '';
    await db.withOwner(async (sql) => {
      await sql.query(
        `UPDATE tenants SET auto_pay = true, auto_pay_notice_days = 3 WHERE id = 'demo'`,
      );
      // Nothing else due by card: every other unpaid instalment is a direct debit.
      await sql.query(
        `UPDATE instalments SET method = 'Domiciliación bancaria'
          WHERE tenant_id = 'demo' AND status IN ('pending', 'returned')`,
      );
      await sql.query(
        `UPDATE payment_methods
            SET redsys_reference = coalesce(redsys_reference, 'review-' || id::text),
                redsys_cof_txnid = coalesce(redsys_cof_txnid, '123456789012345'),
                card_expiry = '1299', status = 'active', deleted_at = NULL
          WHERE tenant_id = 'demo' AND id = $1`,
        [card],
      );
    });
    const on = await app.inject({
      method: 'PUT',
      url: `/demo/api/1.0/payment-methods/${card}/auto-pay`,
      headers: { authorization: `Bearer ${me.token}` },
      payload: { enabled: true },
    });
    expect(on.statusCode, on.body).toBe(200);
    // The customer turned auto-pay on a month ago.
    await db.withOwner((sql) =>
      sql.query(`UPDATE auto_pay_cards SET since = $1::date WHERE tenant_id = 'demo'`, [
        addDays(today, -30),
      ]),
    );
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  it.each([
    ['Rebut domiciliat', 'REVIEW3-AP-REBUT-DOMICILIAT'],
    // A wording the portal does not know may be a direct debit too: the card leaves it alone.
    ['Giro bancario', 'REVIEW3-AP-GIRO'],
  ])(
    'leaves a %j instalment to the bank: the card does not pay it too',
    async (method, invoiceId) => {
      const dueDate = addDays(today, 2);
      const put = await putInvoice(invoiceId, dueDate, method);
      expect(put.statusCode, put.body).toBe(200);
      const instalment = await instalmentOf(invoiceId);
      const run = charger();
      const jobs: AutoPayJob[] = [];
      await run.sweep(async (job) => {
        jobs.push(job);
      }, noon(dueDate));
      // Today: one job, the card is charged for what the bank debits the same day.
      expect(
        jobs.filter((j) => j.instalmentId === instalment),
        'a direct debit worded in Catalan is charged to the card as well',
      ).toEqual([]);
    },
  );
});
