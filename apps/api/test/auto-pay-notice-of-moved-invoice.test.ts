import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { secondEmail } from '../src/db/seed/demo.ts';
import { todayIso } from '../src/lib/dates.ts';
import { createSecretBox } from '../src/lib/secret-box.ts';
import { createAutoPayMailer } from '../src/modules/auto-pay/mail.ts';
import { createDeclineMailSender } from '../src/modules/auto-pay/declines.ts';
import { createAutoPayCharger } from '../src/modules/auto-pay/service.ts';
import type { Mail, Mailer } from '../src/modules/mail/mailer.ts';
import { createApiKey } from '../src/modules/admin/api-keys.ts';
import { createPaymentService } from '../src/modules/payments/service.ts';
import { buildTestApp, engines } from './engines.ts';
import { signedIn } from './session.ts';

const quiet = { warn: () => {}, error: () => {} };
const day = 24 * 60 * 60 * 1000;
const addDays = (iso: string, days: number) =>
  new Date(Date.parse(`${iso}T12:00:00Z`) + days * day).toISOString().slice(0, 10);

/**
 * Ownership review (session 36): the auto-pay notice ("we will charge your card on ...", sent the
 * tenant's notice days before) was recorded per instalment only (`auto_pay_notices`, NOT EXISTS on
 * the instalment), although it is a notice to one customer about one card. When the provider moved
 * the invoice to another customer (allowed while its instalments are pending), the notice the
 * first customer got counted for the new owner, whose card was charged with no notice ever sent to
 * them. The notice is now the current payer's (migration 038).
 */
describe.each(engines())(
  'the auto-pay notice of an invoice moved to another customer on $name',
  (engine) => {
    let db: Database;
    let app: FastifyInstance;
    let me: Awaited<ReturnType<typeof signedIn>>;
    let other: Awaited<ReturnType<typeof signedIn>>;
    let apiKey: string;
    const mails: Mail[] = [];
    const mailer: Mailer = {
      send: async (mail) => {
        mails.push(mail);
      },
    };
    const today = todayIso();
    const invoiceId = 'REVIEW-AUTOPAY-MOVED';

    const putInvoice = (customerCode: string) =>
      app.inject({
        method: 'PUT',
        url: '/demo/api/1.0/admin/invoices',
        headers: { authorization: `Bearer ${apiKey}` },
        payload: {
          invoices: [
            {
              id: invoiceId,
              customer_code: customerCode,
              invoice_date: today,
              base_cents: 4200,
              vat_cents: 0,
              total_cents: 4200,
              lines: [
                { line_no: 1, concept: 'Cuota', quantity: 1, unit_price_cents: 4200, vat_rate: 0 },
              ],
              instalments: [
                { seq: 1, due_date: addDays(today, 2), amount_cents: 4200, method: 'Tarjeta' },
              ],
            },
          ],
        },
      });
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
    const noticeAddress = async (customerId: string) =>
      (
        await db.withOwner((sql) =>
          sql.query<{ email: string }>(
            `SELECT coalesce(nullif(invoice_email, ''), email) AS email FROM customers
            WHERE tenant_id = 'demo' AND id = $1`,
            [customerId],
          ),
        )
      )[0]?.email ?? '';
    const cardOf = async (who: typeof me) =>
      (await who.get('/payment-methods'))
        .json<{ methods: { id: string; kind: string }[] }>()
        .methods.find((m) => m.kind === 'card')?.id ?? '';

    beforeAll(async () => {
      db = await engine.open();
      app = await buildTestApp(db, { PUBLIC_URL: 'http://localhost:3000' });
      me = await signedIn(app, 'demo');
      other = await signedIn(app, 'demo', secondEmail);
      apiKey = (await db.withTenant('demo', (sql) => createApiKey(sql, 'review'))).key;
      const cards = [await cardOf(me), await cardOf(other)];
      expect(cards.every(Boolean)).toBe(true);
      await db.withOwner(async (sql) => {
        await sql.query(
          `UPDATE tenants SET auto_pay = true, auto_pay_notice_days = 3 WHERE id = 'demo'`,
        );
        // Nothing else due by card: every other unpaid instalment is a direct debit.
        await sql.query(
          `UPDATE instalments SET method = 'Domiciliación bancaria'
          WHERE tenant_id = 'demo' AND status IN ('pending', 'returned')`,
        );
        // Both saved cards can be charged without their holder (a reference and a COF id).
        await sql.query(
          `UPDATE payment_methods
            SET redsys_reference = coalesce(redsys_reference, 'review-' || id::text),
                redsys_cof_txnid = coalesce(redsys_cof_txnid, '123456789012345'),
                card_expiry = '1299', status = 'active', deleted_at = NULL
          WHERE tenant_id = 'demo' AND id = ANY($1::uuid[])`,
          [cards],
        );
      });
      for (const [who, card] of [
        [me, cards[0]],
        [other, cards[1]],
      ] as const) {
        const on = await app.inject({
          method: 'PUT',
          url: `/demo/api/1.0/payment-methods/${card}/auto-pay`,
          headers: { authorization: `Bearer ${who.token}` },
          payload: { enabled: true },
        });
        expect(on.statusCode, on.body).toBe(200);
      }
    });
    afterAll(async () => {
      await app.close();
      await db.close();
    });

    it('tells the new owner before their card pays an instalment whose notice went to the old one', async () => {
      expect((await putInvoice(me.user.code)).statusCode).toBe(200);
      const run = charger();
      expect(await run.sendNotices('demo', today)).toBe(1);
      expect(mails.map((m) => m.to)).toEqual([await noticeAddress(me.user.id)]);

      // The provider moves the invoice (its only instalment still pending): allowed.
      const moved = await putInvoice(other.user.code);
      expect(moved.statusCode, moved.body).toBe(200);
      // The new owner's auto-pay now covers it: their card will pay it on its due date.
      const covered = (await other.get('/user/auto-pay')).json<{
        instalments: { invoice_id: string }[];
      }>().instalments;
      expect(covered.map((i) => i.invoice_id)).toContain(invoiceId);

      mails.length = 0;
      await run.sendNotices('demo', today);
      // Today: nothing, the old owner's notice counts for the new owner.
      expect(mails.map((m) => m.to)).toEqual([await noticeAddress(other.user.id)]);
    });
  },
);
